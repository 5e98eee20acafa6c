"""Every command's ``--help``: a flag shows no type, a repeatable option the type of one use (``cli/help_types.py``)."""

from __future__ import annotations

from typing import Any

import typer

from cli_kit import run_captured
from rulekeeper.cli.lazy import plug_all


def commands() -> dict[tuple[str, ...], Any]:
    """Every command of the tree, the games' own included, by the words that name it."""
    from rulekeeper.cli.app import app

    plug_all()
    found: dict[tuple[str, ...], Any] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:  # Typer's own Click (``typer._click``): duck-typed
        found[path] = command
        if hasattr(command, "list_commands"):
            context = type(command).context_class(command, info_name=path[-1] if path else "rulekeeper")
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                if sub is not None and not sub.hidden:
                    walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def test_no_help_shows_a_flag_s_bool_or_a_list_type() -> None:
    """Seen: ``battle new --help`` said ``--verifiable <bool>`` (a player typed ``--verifiable true`` and was told
    of an unexpected extra argument) and ``--muster,--army <list[Path]>`` (one file per ``--muster``)."""
    found = commands()
    assert ("battle", "new") in found and ("odds", "exillis") in found and len(found) > 40
    flags = 0
    for path, command in found.items():
        context = type(command).context_class(command, info_name=path[-1] if path else "rulekeeper")
        for parameter in command.get_params(context):
            shown = parameter.display_type_rich(ctx=context) or ""
            flags += getattr(parameter, "is_flag", False)
            assert "bool" not in shown and "list[" not in shown, (path, parameter.name, shown)
    assert flags > 40
    new = run_captured("battle", "new", "--help", width=160).stdout.splitlines()
    muster = next(line for line in new if line.startswith("│ --muster"))
    verifiable = next(line for line in new if line.startswith("│ --verifiable"))
    assert "<path>" in muster and "<" not in verifiable.split("Verifiable")[0], (muster, verifiable)
    act = run_captured("battle", "act", "--help", width=160).stdout
    assert "ACTION...      <str>" in act
