"""``rulekeeper units RULESET``: every unit a game knows, as the game prints it.

A game that registers its own listing (Ex illis: every stat with its provenance) gets it;
any other registered ruleset has its roster printed as a flat table (or JSON).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from rulekeeper.core.errors import ImpossibleRequestError, RulekeeperError
from rulekeeper.core.ruleset import Ruleset, find_ruleset, ruleset_name

from .hooks import UnitsCommand
from .lazy import plug
from .output import console, fail, print_json


def generic_roster(ruleset: str, as_json: bool) -> None:
    """Any registered ruleset: its roster as it reports it (flat fields)."""
    rs = find_ruleset(ruleset)()
    if not isinstance(rs, Ruleset):
        raise ImpossibleRequestError(f"{ruleset} is not a ruleset (it lacks the calculator side)", game=ruleset)
    rows = rs.roster()
    if as_json:
        print_json(rows)
        return
    keys: list[str] = []
    for r in rows:
        keys += [k for k, v in r.items() if k not in keys and not isinstance(v, (dict, list))]
    table = Table(title=f"{rs.title} units", box=box.SIMPLE_HEAVY)
    for k in keys:
        table.add_column(k)
    for r in rows:
        table.add_row(*[str(r.get(k, "")) for k in keys])
    console.print(table)


def units_command(ruleset: str, as_json: bool, data: Path | None, level: int | None,
                  listings: dict[str, UnitsCommand]) -> None:
    """Body of ``rulekeeper units`` (raises RulekeeperError; the wrapper reports it)."""
    name = ruleset_name(find_ruleset(ruleset), ruleset)
    plug(name)  # the game's own listing, added when it plugs its commands in
    if name in listings:
        listings[name](as_json, data, level)
        return
    if data is not None or level is not None:
        raise ImpossibleRequestError(f"{name} lists its units without --data or --level")
    generic_roster(name, as_json)


def register(app: typer.Typer, listings: dict[str, UnitsCommand]) -> None:
    """Add the ``units`` command to ``app``; ``listings`` are the games' own listings, by name."""

    @app.command("units")
    def units(
        ruleset: Annotated[str, typer.Argument(help="Rule system, e.g. exillis (also 'ex-illis', 'ex illis'), wartable.")],
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON: every stat with value, source, why.")] = False,
        data: Annotated[
            Path | None,
            typer.Option("--data", help="Override file (YAML or TOML) in the game's unit-data shape, may be partial."),
        ] = None,
        level: Annotated[
            int | None,
            typer.Option("--level", min=1, help="Show stats at this level (capped at each unit's maximum)."),
        ] = None,
    ) -> None:
        """List every unit and hero with all stats and where each number comes from."""
        try:
            units_command(ruleset, as_json, data, level, listings)
        except RulekeeperError as exc:
            fail(exc, as_json=as_json)
