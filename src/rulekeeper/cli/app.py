"""Entry point of the ``rulekeeper`` command.

The command line is assembled from what every installed game registers: the neutral
commands (``battle``, ``serve``, ``units``) live here, and each game found through the
``rulekeeper.rulesets`` entry points adds its own (``odds``/``resolve`` subcommands, and
more) through ``register_cli``. Every :class:`RulekeeperError` becomes a clean message and
exit code 2 (never a traceback).
"""

from __future__ import annotations

import sys

import typer

from rulekeeper.core.errors import RulekeeperError

from .lazy import RootGroup
from .output import fail

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


def tolerant_streams() -> None:
    """Print what cannot be encoded escaped instead of failing half-way through an answer.

    An argument that is not UTF-8 (a file name in Latin-1, a battle id typed in a Latin-1
    terminal) reaches Python as lone surrogates, which a UTF-8 stdout refuses to encode; stderr
    already escapes them (Python's default), and now stdout does too (``\\udcff``, which is also
    valid inside a JSON string).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main() -> None:
    tolerant_streams()
    try:
        app(prog_name="rulekeeper")  # also under python -m: the completion script completes "rulekeeper"
    except RulekeeperError as exc:
        fail(exc, as_json="--json" in sys.argv)


if __name__ == "__main__":
    main()
