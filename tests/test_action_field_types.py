"""Hostile input: an action field of the wrong JSON type is a typed refusal in every game, never a crash.

The API takes numbers, and the web's Commit form now sends lists and numbers as JSON (``web/action_form.py``),
so a hand-made request can put a number, a list, an object or a yes/no where a game expects a name. Found
2026-12-02: an Ex illis ``cast`` at ``"target": 7`` reached ``state.find`` and ended in an AttributeError (a
500 on the API). Every legal action of the first positions of each shipped scenario is sent back with each of its
fields replaced by each wrong type: ``parse_action`` either reads it or raises a :class:`RulekeeperError`.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game, games

WRONG: tuple[Any, ...] = (7, 1.5, True, [], ["a"], [1, "x"], [[1]], {"a": 1})
#: Positions of each battle tried (the first legal action played between them) and legal actions per position.
POSITIONS, PER_POSITION = 4, 25


@pytest.mark.parametrize("name", sorted(g.name for g in games()))
def test_a_wrong_type_in_any_field_is_a_typed_refusal(name: str) -> None:
    g = game(name)
    tried = 0
    for scenario in g.scenarios()[:2]:
        state = g.initial_state(g.setup(SetupRequest(scenario=scenario.path, seed=1)).document)
        for _ in range(POSITIONS):
            legal = g.legal_actions(state)
            if not legal:
                break
            for lg in legal[:PER_POSITION]:
                for key in lg.action:
                    for wrong in WRONG:
                        tried += 1
                        try:
                            g.parse_action(state, {**lg.action, key: wrong})
                        except RulekeeperError:
                            pass
            state = g.apply(state, legal[0].action).state
    assert tried > 20, f"{name}: only {tried} wrong fields tried"


def test_an_ex_illis_cast_at_a_number_names_the_field() -> None:
    g = game("exillis")
    scenario = next(s for s in g.scenarios() if s.key == "forest_fence")
    state = g.initial_state(g.setup(SetupRequest(scenario=scenario.path, seed=1)).document)
    with pytest.raises(IllegalActionError, match="target is a name") as refused:
        g.parse_action(state, {"kind": "cast", "unit": "B:Ympes", "target": 7, "option": "firebolt"})
    assert refused.value.details["field"] == "target"
