"""``rulekeeper serve``: the web keeper on the embedded SQLite default (or PostgreSQL by URL)."""

from __future__ import annotations

from typing import Annotated

import typer

from .output import console


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=0, max=65535,
                                          help="Port to listen on (0: a free port, printed at start).")] = 8000,
        db: Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir).")] = None,
        public_url: Annotated[str | None, typer.Option(
            "--public-url", help="The address other devices reach the keeper at (behind a proxy or tunnel).")] = None,
        forwarded_allow_ips: Annotated[str | None, typer.Option(
            "--forwarded-allow-ips", help="Comma-separated addresses of the reverse proxies whose X-Forwarded-For "
                                          "is believed (default: none; '*' trusts everyone).")] = None,
        workers: Annotated[int, typer.Option(min=1, max=64, help="Keeper processes (more than 1 needs PostgreSQL).")] = 1,
        qr: Annotated[bool, typer.Option(help="Draw a QR code of each printed link in the terminal.")] = True,
        demo: Annotated[bool, typer.Option(help="Create a demo battle when the database has none.")] = True,
    ) -> None:
        """Start the web rule keeper."""
        import os

        import uvicorn

        from rulekeeper.web import server
        from rulekeeper.web.api import create_app
        from rulekeeper.web.links import public_base, qr_text

        if workers > 1 and not (db or "").startswith("postgresql"):
            from rulekeeper.core.errors import RulekeeperError

            raise RulekeeperError("--workers above 1 needs a PostgreSQL database (--db postgresql://...): SQLite "
                                  "keeps one writing process", field="workers")
        sock = server.bind(host, port)
        port = int(sock.getsockname()[1])
        base, reachable = public_base(host, port, public_url)
        application = create_app(db, public_url=base)
        keeper = application.state.keeper

        def show_link(label: str, url: str) -> None:
            console.print(f"  {label:<10} {url}", soft_wrap=True, highlight=False)
            if qr:
                console.print(qr_text(url), soft_wrap=True, highlight=False)

        console.print(f"rulekeeper serving on http://{host}:{port} (database {keeper.store.url})", soft_wrap=True,
                      highlight=False)
        if not reachable:
            console.print("Only this machine can open these links: start with --host 0.0.0.0 to let the other "
                          "devices on your network join (or give --public-url).", style="yellow")
        console.print("Host link (lists every battle and makes new links; keep it to yourself):")
        show_link("host", f"{base}/host?key={keeper.host_key}")
        if demo and not keeper.store.list():
            from rulekeeper.core.game import SetupRequest
            from rulekeeper.service.scenarios import shipped_scenarios

            demo_scenario = shipped_scenarios()[0]
            for s in shipped_scenarios():
                if s.key == "exillis:starter":
                    demo_scenario = s
            bid, tokens = keeper.create(SetupRequest(scenario=demo_scenario.info.path, seed=1, db=keeper.store.url),
                                        ruleset=demo_scenario.game, title=f"Demo: {demo_scenario.info.name}")
            console.print("A demo battle is ready. Open one link per side (keep them secret):")
            for role, token in tokens.items():
                show_link(role, f"{base}/b/{bid}?token={token}")
        options = server.uvicorn_options(forwarded_allow_ips)
        if workers == 1:
            uvicorn.run(application, fd=sock.fileno(), **options)
            return
        os.environ.update({server.ENV_DB: db or "", server.ENV_HOST_KEY: keeper.host_key,
                           server.ENV_PUBLIC_URL: base})
        uvicorn.run("rulekeeper.web.server:worker_app", factory=True, fd=sock.fileno(), workers=workers, **options)
