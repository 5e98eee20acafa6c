"""The command groups that rulesets plug their sub-commands into."""

from __future__ import annotations

import typer

from .lazy import OddsGroup, ResolveGroup

# each game adds its subcommand the first time a command line names it (``cli/lazy.py``)
odds_app = typer.Typer(help="Show the exact odds of an action before any roll.", no_args_is_help=True, cls=OddsGroup)
resolve_app = typer.Typer(help="Resolve an action with seeded fate and show every duel.", no_args_is_help=True,
                          cls=ResolveGroup)
