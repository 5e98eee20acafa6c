"""``odds exillis melee A B`` without the Typer tree: the game's own ``quick_command``, reached through the registry.

Issue 22, point 6: the calculator's everyday question at 3.1 times a numpy import (goal 3 times), 200 ms of it
in Typer's parameter adapters. Each command line below runs both ways, and what was printed (stdout, stderr,
exit code) must be the same bytes; what the quick path does not take goes to Typer untouched.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import ClassVar

import pytest

from cli_kit import run
from rulekeeper.cli import fast
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.rulesets.exillis.cli import calculator
from rulekeeper.rulesets.exillis.cli.melee_odds import DEFAULTS
from rulekeeper.rulesets.exillis.cli.quick import quick_command


@pytest.mark.parametrize(("args", "code"), [
    (["odds", "exillis", "melee", "Billmen", "Franc Chevalers"], 0),
    (["odds", "exillis", "melee", "--json", "Billmen", "Franc Chevalers"], 0),
    (["odds", "ex-illis", "melee", "Franc Chevalers", "--json", "Billmen"], 0),
    (["odds", "exillis", "melee", "Billmen", "Nobody"], 2),  # an unknown unit: typed, exit 2, the same message
    (["odds", "exillis", "melee", "Billmen", "Nobody", "--json"], 2),
])
def test_fast_and_typer_print_the_same(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                       args: list[str], code: int) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert fast._game_command(args) is not None  # this line is the game's to run
    fast_way = run(monkeypatch, capsys, *args)
    with monkeypatch.context() as m:
        m.setattr(fast, "run", lambda args: False)
        typer_way = run(monkeypatch, capsys, *args)
    assert fast_way == typer_way
    assert fast_way[0] == code and (fast_way[1] if code == 0 else fast_way[1] + fast_way[2]) != ""


@pytest.mark.parametrize("args", [
    ["odds", "exillis", "melee", "Billmen"], ["odds", "exillis", "melee", "A", "B", "C"],
    ["odds", "exillis", "melee", "A", "B", "--json", "--json"], ["odds", "exillis", "melee", "A", "B", "--whole"],
    ["odds", "exillis", "melee", "--", "A", "B"], ["odds", "exillis", "melee", "-", "B"],
    ["odds", "exillis", "melee", "A", "B", "--level", "2"], ["odds", "exillis", "melee", "--help"],
    ["odds", "exillis", "shoot", "A", "B"], ["resolve", "exillis", "melee", "A", "B"], ["odds", "ei", "melee", "A", "B"],
    ["odds", "exillis"], ["units", "exillis", "melee", "A", "B"],
])
def test_everything_else_is_left_to_typer(args: list[str]) -> None:
    assert quick_command(args) is None
    assert fast.run(args) is False


def test_a_name_no_game_answers_to_is_left_to_typer() -> None:
    assert fast.run(["odds", "nosuchgame", "melee", "A", "B"]) is False
    assert fast.run(["odds", "--help", "melee"]) is False


def test_the_plain_form_uses_the_typer_commands_defaults() -> None:
    given = {"tctx", "attacker", "defender", "seed", "json", "whole"}
    defaults = {name: p.default for name, p in inspect.signature(calculator.melee).parameters.items()
                if name not in given}
    assert defaults == DEFAULTS


class Quick:
    """A rule system that runs one command line of its own (the registry is the only way the CLI finds it)."""

    name: ClassVar[str] = "quickling"
    aliases: ClassVar[tuple[str, ...]] = ()
    ran: ClassVar[list[tuple[str, ...]]] = []

    def quick_command(self, args: Sequence[str]) -> Callable[[], None] | None:
        return (lambda: Quick.ran.append(tuple(args))) if list(args[2:]) == ["go"] else None


def test_any_rule_system_may_run_its_own_command_lines() -> None:
    register_for_tests(Quick)
    try:
        assert fast.run(["resolve", "quickling", "go"]) is True
        assert fast.run(["resolve", "quickling", "stop"]) is False
    finally:
        unregister_for_tests("quickling")
    assert Quick.ran == [("resolve", "quickling", "go")]
