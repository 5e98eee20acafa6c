"""Ex illis on the typed protocol (issue 22): the registry's wrapper checks its states and decodes its
actions through its own codec, which keeps the log's bytes (an absent target or option left out)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.registered import Registered, StateTypeError, rules_of
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.exillis.action_codec import ACTIONS
from rulekeeper.rulesets.exillis.battle.actions import Action
from rulekeeper.rulesets.exillis.game import ExIllis

STARTER = Path(__file__).resolve().parents[2] / "examples" / "exillis" / "starter.yaml"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "starter_seed5.json"


def test_the_registry_hands_out_the_game_wrapped_and_refuses_a_state_of_another_kind() -> None:
    g = game("exillis")
    assert isinstance(g, Registered) and isinstance(rules_of(g), ExIllis)
    with pytest.raises(StateTypeError, match="not a dict"):
        g.legal_actions({"units": []})


def test_the_codec_gives_back_every_logged_action_of_the_starter_golden() -> None:
    logged = [step["action"] for step in json.loads(GOLDEN.read_text())["steps"]]
    assert len(logged) > 20
    for action in logged:  # the golden file stores them with sorted keys
        assert json.dumps(ACTIONS.encode(ACTIONS.decode(action)), sort_keys=True) == json.dumps(action, sort_keys=True)
    # kind and unit first, an absent target or option left out: the log's own order (Action.to_dict)
    assert list(ACTIONS.encode(Action("shoot", "A:Longbowmen", "C2", "shot"))) == ["kind", "unit", "target", "option"]
    assert ACTIONS.encode(Action("wait", "A:Billmen")) == {"kind": "wait", "unit": "A:Billmen"}


def test_a_request_is_read_into_the_typed_action_the_battle_names() -> None:
    g = game("exillis")
    state = g.initial_state(g.setup(SetupRequest(scenario=STARTER, seed=5)).document)
    first = g.legal_actions(state)[0].action
    rules = rules_of(g)
    assert isinstance(rules, ExIllis)
    typed = rules.parse_action(state, first)
    assert isinstance(typed, Action) and typed.to_dict() == first
    assert g.parse_action(state, first) == first  # through the wrapper: the logged JSON again
