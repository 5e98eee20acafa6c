"""``rulekeeper games``: every registered rule system, what it offers, and why any is refused.

A plugin author's first question is "did my game register?": this answers it without reading
code. A ruleset that set out to play battles but lacks protocol members is listed with the
members it lacks (the same words ``battle new`` would refuse it with), never silently dropped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from rulekeeper.core.capabilities import capabilities
from rulekeeper.core.game import Game
from rulekeeper.core.ruleset import find_ruleset, game, game_refusal, registered

from .output import console, print_json


@dataclass(frozen=True)
class GameEntry:
    """One registered ruleset as ``rulekeeper games`` reports it."""

    name: str
    title: str
    aliases: tuple[str, ...]
    battles: bool
    refusal: str
    capabilities: tuple[str, ...]
    scenarios: int


def _capabilities(name: str) -> tuple[str, ...]:
    """The optional parts a whole game offers (each a small protocol it opted into: ``core.capabilities``)."""
    return capabilities(game(name))


def entry(name: str) -> GameEntry:
    cls = find_ruleset(name)
    refusal = game_refusal(name) or ""
    plays = not refusal
    found = game(name)
    scenarios = len(found.scenarios()) if plays and isinstance(found, Game) else 0
    return GameEntry(
        name=str(getattr(cls, "name", name)), title=str(getattr(cls, "title", name)),
        aliases=tuple(str(a) for a in getattr(cls, "aliases", ())), battles=plays,
        refusal=refusal, capabilities=_capabilities(name) if plays else (), scenarios=scenarios,
    )


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games_command(
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON: one object per registered ruleset.")] = False,
        scenarios: Annotated[bool, typer.Option(
            "--scenarios", help="List every shipped scenario instead, by the name 'battle new' takes.")] = False,
    ) -> None:
        """Every registered rule system: whole battles or not (and why), scenarios, optional parts."""
        if scenarios:
            _print_scenarios(as_json)
            return
        entries = [entry(name) for name in sorted(registered())]
        if as_json:
            print_json([asdict(e) for e in entries])
            return
        table = Table(title="Registered rule systems", box=box.SIMPLE_HEAVY)
        table.add_column("name", no_wrap=True)
        for column in ("title", "battles", "scenarios", "offers"):
            table.add_column(column)
        for e in entries:
            battles = "yes" if e.battles else f"[red]no[/]: {escape(e.refusal)}"
            table.add_row(escape(e.name), escape(e.title), battles, str(e.scenarios), escape(", ".join(e.capabilities)))
        console.print(table)


def _print_scenarios(as_json: bool) -> None:
    """``games --scenarios``: every shipped scenario, with the name ``battle new`` takes for it (the bare key
    where only one game ships it, else ``game:key``)."""
    from rulekeeper.service.scenarios import shipped_scenarios

    shipped = shipped_scenarios()
    bare_count: dict[str, int] = {}
    for s in shipped:
        bare_count[s.info.key] = bare_count.get(s.info.key, 0) + 1
    rows = [{**s.to_dict(), "type": s.info.key if bare_count[s.info.key] == 1 else s.key} for s in shipped]
    if as_json:
        print_json(rows)
        return
    table = Table(title="Shipped scenarios (rulekeeper battle new NAME)", box=box.SIMPLE_HEAVY)
    for column in ("name to type", "game", "scenario"):
        table.add_column(column, no_wrap=column == "name to type")
    for row in rows:
        table.add_row(escape(row["type"]), escape(row["game"]), escape(row["name"]))
    console.print(table)
