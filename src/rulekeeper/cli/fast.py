"""``rulekeeper battle show|actions [ID] [--db DB] [--json]`` and ``rulekeeper --help`` run without the Typer tree.

Why: a player runs ``battle show`` all evening, and half of its start-up was Typer itself, the pydantic
it validates parameters with, and every other command's module (issue 22, point 6: ``battle show`` at
5.5 times a numpy import, the goal 3 times). The forms below are read here exactly as Click reads them
and run :func:`.battle_view.show_battle`, the body of the Typer command; anything else — ``--help``, an
option given twice, ``--db`` followed by something that looks like an option, ``--``, another
command, shell completion — returns ``False`` and goes through Typer as before. The root's ``--help``
is drawn by :mod:`.fast_help` (the same Rich panels as Typer's).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Click's shell-completion switch for the ``rulekeeper`` program: Typer must answer it.
COMPLETE_VAR = "_RULEKEEPER_COMPLETE"


@dataclass(frozen=True)
class ShowArgs:
    battle: str | None
    db: str | None
    json: bool


def parse_show(args: Sequence[str], command: str = "show") -> ShowArgs | None:
    """The arguments of a plain ``battle show`` (or ``battle actions``) command line, or ``None`` for anything
    Typer must read."""
    if len(args) < 2 or args[0] != "battle" or args[1] != command:
        return None
    battle: str | None = None
    db: str | None = None
    json = False
    rest = list(args[2:])
    while rest:
        token = rest.pop(0)
        if token == "--json" and not json:
            json = True
        elif token == "--db" and db is None and rest and not rest[0].startswith("-"):
            db = rest.pop(0)
        elif token.startswith("--db=") and db is None:
            db = token[len("--db="):]
        elif not token.startswith("-") and battle is None:
            battle = token
        else:
            return None
    return ShowArgs(battle, db, json)


def run(args: Sequence[str]) -> bool:
    """Run ``args`` here if they are a plain form this module knows (True), else leave them to Typer (False).

    The plain forms: ``battle show`` (below), the root's ``--help`` (:mod:`.fast_help`) and the command
    lines a game runs itself (:func:`_game_command`). A Ctrl-C and a closed pipe end as Typer ends them
    (exit 130; exit 1, quietly); a typed error is raised to :func:`rulekeeper.cli.app.main`, which
    reports it as for every command.
    """
    if COMPLETE_VAR in os.environ:
        return False
    if list(args) == ["--help"]:
        from . import fast_help

        return _guarded(fast_help.run)
    quick = _game_command(args)
    if quick is not None:
        command = quick

        def run_game_command() -> bool:
            command()
            return True

        return _guarded(run_game_command)
    listed = parse_show(args, "actions")
    if listed is not None:

        def list_them() -> bool:
            from .actions_view import list_actions

            list_actions(listed.battle, listed.db, listed.json)
            return True

        return _guarded(list_them)
    parsed = parse_show(args)
    if parsed is None:
        return False

    def show() -> bool:
        from .battle_view import show_battle

        show_battle(parsed.battle, parsed.db, parsed.json)
        return True

    return _guarded(show)


#: The groups whose first word names a game (``odds exillis ...``, ``resolve dragonnoir ...``).
GAME_GROUPS = ("odds", "resolve")


def _game_command(args: Sequence[str]) -> Callable[[], None] | None:
    """What the game named after ``odds``/``resolve`` runs itself for ``args`` (its ``quick_command``), or None.

    The game is found through the registry as Typer's groups find it (only that one is imported); a name
    no game answers to is left to Typer, which says so.
    """
    if len(args) < 3 or args[0] not in GAME_GROUPS or args[1].startswith("-"):
        return None
    from rulekeeper.core.capabilities import quick_command_of
    from rulekeeper.core.errors import RulekeeperError
    from rulekeeper.core.ruleset import game

    try:
        named = game(args[1])
    except RulekeeperError:
        return None
    return quick_command_of(named, args)


def _guarded(step: Callable[[], bool]) -> bool:
    """``step()``, ending a Ctrl-C and a closed pipe as Typer (Click) ends them."""
    try:
        return step()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        _quiet_streams()
        raise SystemExit(1) from None


def _quiet_streams() -> None:
    """After a closed pipe, flushing at exit must not raise again: Click's own wrapper, as Typer does."""
    from typing import TextIO, cast

    from typer._click.utils import PacifyFlushWrapper

    sys.stdout = cast(TextIO, PacifyFlushWrapper(sys.stdout))
    sys.stderr = cast(TextIO, PacifyFlushWrapper(sys.stderr))
