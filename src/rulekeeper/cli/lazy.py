"""The games' own commands, added only when a command line needs them.

Every game adds commands through ``Game.register_cli`` (``odds exillis``, ``resolve dragonnoir``,
``muster``, ``campaign-map``...). Importing all five rule systems to build the command tree cost
about a second of every ``rulekeeper`` run, though a run uses at most one of them. The groups here
ask a game for its commands the first time a command line names it: ``odds exillis melee`` imports
Ex illis alone, ``battle show ID`` imports only the battle's game (through
:func:`rulekeeper.core.ruleset.game`), and only a listing (``--help``, completion) or a name no
loaded game knows loads them all.
"""

from __future__ import annotations

import typer
from typer._click import Command, Context, HelpFormatter
from typer.core import TyperCommand, TyperGroup
from typer.main import get_group

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.ruleset import entry_point_names, find_ruleset, game, registered, ruleset_name

from . import manifest
from .hooks import CliHooks

#: The games' own top-level commands (``muster``, ``campaign-map``...), gathered here as games plug in.
plugged_app = typer.Typer()
_PLUGGED: set[str] = set()
_HOOKS: list[CliHooks] = []


def bind(hooks: CliHooks) -> None:
    """Where games plug their commands in (called once, by ``cli.app``)."""
    _HOOKS[:] = [hooks]


def plug(name: str) -> bool:
    """Let the game called ``name`` (or an alias) add its commands, once; False if no game is called so."""
    try:
        key = ruleset_name(find_ruleset(name), name)
    except RulekeeperError:
        return False
    if key not in _PLUGGED and _HOOKS:  # unbound (an app of its own, as in tests): nothing to add to
        _PLUGGED.add(key)
        register = getattr(game(key), "register_cli", None)
        if register is not None:
            register(_HOOKS[0])
    return True


def plug_all() -> None:
    """Every registered game adds its commands (a listing, or a name no loaded game knows)."""
    for name in sorted(set(entry_point_names()) | set(registered())):
        plug(name)


class _Lazy(TyperGroup):
    """A group whose missing commands come from the games' ``register_cli``.

    ``source`` is the Typer app the games add to; after a game plugs in, the group is rebuilt from
    it and the new commands are copied in.
    """

    def source(self) -> typer.Typer:
        raise NotImplementedError

    def _refresh(self) -> None:
        fresh = get_group(self.source())
        for command_name, command in fresh.commands.items():
            self.commands.setdefault(command_name, command)

    def list_commands(self, ctx: Context) -> list[str]:
        plug_all()
        self._refresh()
        return super().list_commands(ctx)


class GameGroup(_Lazy):
    """``odds`` and ``resolve``: the subcommand's name is a game's, so only that game is loaded."""

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = self.commands.get(cmd_name)
        if found is None:
            if not plug(cmd_name):
                plug_all()
            self._refresh()
            found = self.commands.get(cmd_name)
        return found


class OddsGroup(GameGroup):
    def source(self) -> typer.Typer:
        from .groups import odds_app

        return odds_app


class ResolveGroup(GameGroup):
    def source(self) -> typer.Typer:
        from .groups import resolve_app

        return resolve_app


class RootGroup(_Lazy):
    """The root: the neutral commands are its own; a name it lacks may be a game's (``muster``).

    Its help lists the games' commands from :mod:`.manifest` when that is current, so ``--help``
    imports no rule system; otherwise it loads them all and remembers what they added.
    """

    _listing = False

    def source(self) -> typer.Typer:
        return plugged_app

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def list_commands(self, ctx: Context) -> list[str]:
        if self._listing and _PLUGGED == set():
            remembered = manifest.read()
            if remembered is not None:
                return list(self.commands) + [c.name for c in remembered if c.name not in self.commands]
        own = set(self.commands)
        names = super().list_commands(ctx)
        manifest.write([manifest.Listed(n, self.commands[n].get_short_help_str(limit=200))
                        for n in names if n not in own])
        return names

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = self.commands.get(cmd_name)
        if found is None and self._listing and _PLUGGED == set():
            remembered = {c.name: c for c in manifest.read() or []}
            if cmd_name in remembered:
                return TyperCommand(cmd_name, short_help=remembered[cmd_name].help)
        if found is None:
            plug_all()
            self._refresh()
            found = self.commands.get(cmd_name)
        return found
