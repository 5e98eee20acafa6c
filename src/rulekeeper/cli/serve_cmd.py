"""``rulekeeper serve``: the web keeper on the embedded SQLite default (or PostgreSQL by URL)."""

from __future__ import annotations

from typing import Annotated

import typer

from .output import console


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on (1–65535).")] = 8000,
        db: Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir).")] = None,
        demo: Annotated[bool, typer.Option(help="Create a demo battle when the database has none.")] = True,
    ) -> None:
        """Start the web rule keeper."""
        import uvicorn

        from rulekeeper.web.api import create_app

        application = create_app(db)
        keeper = application.state.keeper
        base = f"http://{host}:{port}"
        console.print(f"rulekeeper serving on {base} (database {keeper.store.url})")
        console.print(f"Host link (every battle, new links; keep it to yourself): {base}/host?key={keeper.host_key}",
                      soft_wrap=True)
        if demo and not keeper.store.list():
            from rulekeeper.core.game import SetupRequest
            from rulekeeper.web.scenarios import shipped_scenarios

            demo_scenario = shipped_scenarios()[0]
            for s in shipped_scenarios():
                if s.key == "exillis:starter":
                    demo_scenario = s
            bid, tokens = keeper.create(SetupRequest(scenario=demo_scenario.info.path, seed=1, db=keeper.store.url),
                                        ruleset=demo_scenario.game, title=f"Demo: {demo_scenario.info.name}")
            console.print("A demo battle is ready. Open one link per side (keep them secret):")
            for role, token in tokens.items():
                console.print(f"  {role:<10} {base}/b/{bid}?token={token}", soft_wrap=True)
        uvicorn.run(application, host=host, port=port, log_level="warning")
