"""Entry point of the ``rulekeeper`` command.

Sub-commands live in small modules that each expose ``register(app)``; this file only
assembles them and turns every :class:`RulekeeperError` into a clean message and exit
code 2 (never a traceback).
"""

from __future__ import annotations

import sys

import typer

from rulekeeper.core.errors import RulekeeperError

from .output import fail

app = typer.Typer(
    name="rulekeeper",
    help="A rule keeper for tabletop wargames: exact odds, seeded fate, explained modifiers.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _register_all() -> None:
    from . import battle_cmds, campaign_cmds, exillis_cmds, muster_cmds, serve_cmd, units_cmd, wartable_cmds
    from .groups import odds_app, resolve_app

    battle_cmds.register(app)
    campaign_cmds.register(app)
    serve_cmd.register(app)
    exillis_cmds.register(app)
    wartable_cmds.register(app)
    units_cmd.register(app)
    muster_cmds.register(app)
    app.add_typer(odds_app, name="odds")
    app.add_typer(resolve_app, name="resolve")


_register_all()


def main() -> None:
    try:
        app()
    except RulekeeperError as exc:
        fail(exc, as_json="--json" in sys.argv)


if __name__ == "__main__":
    main()
