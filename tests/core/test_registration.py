"""Registration that explains itself: a ruleset that set out to play battles but lacks a protocol
member is refused by name (never silently dropped), and ``rulekeeper games`` lists every registered
ruleset with its capabilities and any refusal."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from cli_kit import run
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.ruleset import (
    game_refusal,
    games,
    missing_members,
    protocol_members,
    refusals,
    register_for_tests,
    unregister_for_tests,
)
from rulekeeper.service.battles import game_of
from toygame.game import ToyGame


def _without(members: tuple[str, ...]) -> type:
    """The toy game with ``members`` taken away, as a plugin author might forget them."""
    body: dict[str, object] = {}
    for cls in reversed(ToyGame.__mro__[:-1]):
        body.update({k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")})
    for member in members:
        body.pop(member, None)
    body.update(name="halfgame", aliases=(), title="Half game")
    return type("HalfGame", (), body)


HalfGame = _without(("apply", "action_text"))


class Calculator:
    """A ruleset with only the calculator side: it never meant to play battles."""

    name = "calcgame"
    aliases = ()
    title = "Calculator only"
    deterministic = True

    def options(self) -> list[object]:
        return []


@pytest.fixture
def broken() -> Iterator[None]:
    register_for_tests(HalfGame)
    register_for_tests(Calculator)
    yield
    unregister_for_tests("halfgame")
    unregister_for_tests("calcgame")


def test_protocol_members_are_the_protocol_classes_own() -> None:
    members = protocol_members()
    assert members[:4] == ("name", "aliases", "title", "deterministic")
    assert "apply" in members and "action_text" in members and len(members) == len(set(members))


def test_a_game_missing_members_is_refused_by_their_names(broken: None) -> None:
    assert missing_members(HalfGame) == ("apply", "action_text")
    assert missing_members(ToyGame) == ()
    assert game_refusal("halfgame") == "is not a whole game: it lacks `apply`, `action_text`"
    assert refusals()["halfgame"] == game_refusal("halfgame")
    assert "halfgame" not in [g.name for g in games()]
    with pytest.raises(RulekeeperError) as refused:
        game_of("halfgame")
    assert refused.value.message == "Half game is not a whole game: it lacks `apply`, `action_text`"


def test_a_calculator_only_ruleset_says_so(broken: None) -> None:
    assert game_refusal("calcgame") == "has no whole battles (only its calculator)"
    assert all(refusals().get(name) is None for name in ("exillis", "dragonnoir", "battlesystem"))


def test_games_command_lists_capabilities_and_refusals(broken: None, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "games", "--json")
    assert code == 0
    listed = {e["name"]: e for e in json.loads(out)}
    assert listed["exillis"]["battles"] is True and "army lists" in listed["exillis"]["capabilities"]
    assert "hidden orders" in listed["wartable-campaign"]["capabilities"]
    assert listed["calcgame"] == {
        "name": "calcgame", "title": "Calculator only", "aliases": [], "battles": False,
        "refusal": "has no whole battles (only its calculator)", "capabilities": [], "scenarios": 0,
    }
    code, out, _ = run(monkeypatch, capsys, "games")
    assert code == 0 and "calcgame" in out and "calculator" in " ".join(out.split())
