"""The ``rulekeeper`` command tree (Typer): every command but the plain forms of ``battle show`` (``.fast``).

The command line is assembled from what every installed game registers: the neutral
commands (``battle``, ``serve``, ``units``) live here, and each game found through the
``rulekeeper.rulesets`` entry points adds its own (``odds``/``resolve`` subcommands, and
more) through ``register_cli``. The entry point, :func:`rulekeeper.cli.app.main`, turns
every :class:`RulekeeperError` into a clean message and exit code 2 (never a traceback).
"""

from __future__ import annotations

import typer

from . import help_types
from .lazy import RootGroup

help_types.install()
app = typer.Typer(
    cls=RootGroup,
    name="rulekeeper",
    help="A rule keeper for tabletop wargames: exact odds, seeded fate, explained modifiers.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
)


def _register_all() -> None:
    """The neutral commands; the games add theirs when a command line names them (``cli/lazy.py``)."""
    from . import battle_cmds, games_cmd, lab_cmds, play, serve_cmd, units
    from .groups import odds_app, resolve_app
    from .hooks import CliHooks
    from .lazy import bind, plugged_app

    battle_cmds.register(app)
    play.register(app)
    games_cmd.register(app)
    serve_cmd.register(app)
    lab_cmds.register(app)
    hooks = CliHooks(plugged_app, odds_app, resolve_app)
    bind(hooks)
    units.register(app, hooks.units)
    app.add_typer(odds_app, name="odds")
    app.add_typer(resolve_app, name="resolve")


_register_all()
