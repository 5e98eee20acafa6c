"""``core.registered.Registered``: the typed game behind the neutral protocol (issue 22, point 1: ``Game[State,
Action]``). The toy game takes its ``ToyState`` and its ``Move`` typed; the layers above hold an opaque state
and the logged JSON, and the wrapper checks the one and decodes the other through the game's codec."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game
from rulekeeper.core.registered import Registered, StateTypeError, as_game, registered_game, rules_of
from rulekeeper.core.ruleset import game, register_for_tests, unregister_for_tests
from rulekeeper.web.presenters import GenericPresenter
from toygame.game import SCENARIO_DIR, Move, ToyGame, ToyState

RACE = SCENARIO_DIR / "race.yaml"


@pytest.fixture()
def toy() -> Iterator[Game]:
    register_for_tests(ToyGame)
    yield game("toy")
    unregister_for_tests("toy")


def start(g: Game) -> object:
    from rulekeeper.core.game import SetupRequest

    return g.initial_state(g.setup(SetupRequest(scenario=Path(RACE), seed=3)).document)


def test_the_registry_wraps_a_typed_game_and_gives_it_back(toy: Game) -> None:
    assert isinstance(toy, Registered) and isinstance(toy, Game)
    assert isinstance(rules_of(toy), ToyGame) and rules_of(rules_of(toy)) is rules_of(toy)
    assert toy.name == "toy" and toy.title == "Toy dice race" and toy.aliases == ("toy race", "dice race")
    assert toy.previewed_draws == ("roll",)  # a declaration of the game, reached through the wrapper


def test_actions_cross_as_logged_json_and_reach_the_game_typed(toy: Game) -> None:
    state = start(toy)
    rules = rules_of(toy)
    assert isinstance(rules, ToyGame) and isinstance(state, ToyState)
    assert rules.policy(state) == Move("roll", "A")  # the game answers typed...
    assert toy.policy(state) == {"kind": "roll", "side": "A"}  # ...the protocol in the log's JSON
    assert toy.parse_action(state, {"kind": " HOLD "}) == {"kind": "hold", "side": "A"}
    assert toy.parse_words(state, ["roll"]) == {"kind": "roll", "side": "A"}
    out = toy.apply(state, {"kind": "roll", "side": "A"})
    assert out.action == {"kind": "roll", "side": "A"} and list(out.action) == ["kind", "side"]  # the log's bytes
    assert out.record["chance"][0]["label"].startswith("roll: A") and isinstance(out.state, ToyState)
    assert toy.side_of({"kind": "hold", "side": "B"}) == "B"
    assert toy.action_text({"kind": "hold", "side": "B"}) == "side B: hold"
    with pytest.raises(IllegalActionError) as refused:
        toy.apply(state, {"kind": "jump", "side": "A"})
    assert "jump" in refused.value.message


def test_a_state_of_another_type_is_a_typed_refusal_naming_both(toy: Game) -> None:
    with pytest.raises(StateTypeError) as refused:
        toy.status({"scores": [0, 0]})
    assert refused.value.code == "wrong_state"
    assert refused.value.details == {"game": "toy", "expected": "ToyState", "got": "dict"}
    with pytest.raises(StateTypeError):
        toy.apply("a state", {"kind": "roll", "side": "A"})


def test_a_game_object_a_game_hands_out_is_seen_through_the_protocol() -> None:
    rules = ToyGame()
    wrapped = as_game(rules)
    assert isinstance(wrapped, Registered) and rules_of(wrapped) is rules
    assert as_game(wrapped) is wrapped
    assert GenericPresenter(rules).game.policy(start(wrapped)) == {"kind": "roll", "side": "A"}
    with pytest.raises(TypeError):
        as_game(object())
    assert registered_game("a calculator") == "a calculator"  # not a BaseGame: as it is
