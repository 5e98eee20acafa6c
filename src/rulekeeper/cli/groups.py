"""The command groups that rulesets plug their sub-commands into."""

from __future__ import annotations

import typer

odds_app = typer.Typer(help="Show the exact odds of an action before any roll.", no_args_is_help=True)
resolve_app = typer.Typer(help="Resolve an action with seeded fate and show every duel.", no_args_is_help=True)
