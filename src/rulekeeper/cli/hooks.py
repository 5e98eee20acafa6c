"""What a game receives to add its own commands to the CLI (see ``Game.register_cli``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import typer

#: ``units NAME``: (as_json, data file, level) → prints the game's roster.
UnitsCommand = Callable[[bool, Path | None, int | None], None]


@dataclass
class CliHooks:
    """The root app and the shared groups a game plugs into."""

    app: typer.Typer
    odds: typer.Typer
    resolve: typer.Typer
    units: dict[str, UnitsCommand] = field(default_factory=dict)

    def add_units(self, game: str, command: UnitsCommand) -> None:
        """The game's own ``units`` listing (otherwise its roster is printed as a flat table)."""
        self.units[game] = command
