"""The campaign's own commands: ``rulekeeper campaign-chart ID [--out FILE.png]`` and ``campaign-map ID``.

(``campaign`` is Ex illis's command group, so these are ``campaign-…``.) Both read a stored
War Table campaign through the neutral battle service; the chart is matplotlib (Agg), imported
only when the command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulekeeper.core.errors import RulekeeperError

from .session import NAME, CampaignGameState


def _state(battle: str, db: str | None) -> CampaignGameState:
    from rulekeeper.cli.battle_cmds import _service
    from rulekeeper.cli.battle_ids import resolve

    svc = _service(db)
    battle = resolve(svc, battle)  # any unique prefix of the id
    rec = svc.record(battle)
    if rec.ruleset != NAME:
        raise RulekeeperError(f"battle {battle!r} is a {rec.ruleset} battle, not a War Table campaign",
                              battle_id=battle)
    state = svc.visible(battle).state
    assert isinstance(state, CampaignGameState)
    return state


def register(app: typer.Typer) -> None:
    @app.command("campaign-chart")
    def chart(
        battle: Annotated[str, typer.Argument(help="A War Table campaign's battle id (or a unique prefix of it).")],
        out: Annotated[Path, typer.Option("--out", "-o", help="The PNG file to write.")] = Path("stability.png"),
        db: Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir).")] = None,
    ) -> None:
        """Each Enclave's Stability round by round, as a PNG chart (War Table campaign)."""
        from .chart import png_chart

        state = _state(battle, db)
        try:
            png_chart(state, out)
        except OSError as exc:
            raise RulekeeperError(f"{out}: cannot write the chart ({exc.strerror or type(exc).__name__})") from None
        typer.echo(f"wrote {out}")

    @app.command("campaign-map")
    def show_map(
        battle: Annotated[str, typer.Argument(help="A War Table campaign's battle id (or a unique prefix of it).")],
        db: Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir).")] = None,
    ) -> None:
        """The campaign's map as a table and each Enclave's Stability history (War Table campaign)."""
        from rich.console import Console

        from .presenter import history_table, map_table

        state = _state(battle, db)
        console = Console()
        console.print(map_table(state))
        console.print(history_table(state))
