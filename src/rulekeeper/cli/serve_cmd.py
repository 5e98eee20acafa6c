"""``rulekeeper serve``: the web keeper on the embedded SQLite default (or PostgreSQL by URL)."""

from __future__ import annotations

from typing import Annotated

import typer

from .output import console


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir).")] = None,
    ) -> None:
        """Start the web rule keeper."""
        import uvicorn

        from rulekeeper.web.api import create_app

        application = create_app(db)
        console.print(f"rulekeeper serving on http://{host}:{port} (database {application.state.keeper.store.url})")
        uvicorn.run(application, host=host, port=port, log_level="warning")
