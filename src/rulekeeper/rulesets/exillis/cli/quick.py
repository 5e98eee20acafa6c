"""The Ex illis command lines run without the CLI's Typer tree (:meth:`ExIllis.quick_command`).

Why: ``rulekeeper odds exillis melee Billmen "Franc Chevalers"`` is the calculator's everyday question, and
Typer's parameter adapters (with the pydantic they validate through) cost it 200 ms before any odds
(issue 22, point 6: 3.1 times a numpy import, the goal 3 times). Only the plain form is read here, exactly
as Click reads it: two unit names and at most one ``--json``, in any order. Anything else (an option, a
third name, ``--``, ``--help``) is left to Typer. The work is :func:`.melee_odds.plain_melee_odds`, the
same functions the Typer command runs with its defaults, so both print the same bytes; this module
imports nothing heavy, so a command line it does not take costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: The names ``odds`` lists Ex illis' commands under (``calculator.register``).
GROUP_NAMES = ("exillis", "ex-illis")


def quick_command(args: Sequence[str]) -> Callable[[], None] | None:
    """What to run for ``args`` (the whole command line after ``rulekeeper``), or None to leave it to Typer."""
    if len(args) < 3 or args[0] != "odds" or args[1] not in GROUP_NAMES or args[2] != "melee":
        return None
    units: list[str] = []
    json = False
    for token in args[3:]:
        if token == "--json" and not json:
            json = True
        elif token.startswith("-") or len(units) == 2:
            return None
        else:
            units.append(token)
    if len(units) != 2:
        return None
    attacker, defender = units

    def run() -> None:
        from .melee_odds import plain_melee_odds

        plain_melee_odds(attacker, defender, json)

    return run
