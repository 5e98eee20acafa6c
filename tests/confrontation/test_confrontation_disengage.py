"""Disengaging (issue 24, point 10: "disengage"), docs/rules/confrontation.md, "Disengaging". The seed names the
disengagement test; its characteristic and difficulty are estimated in data/core_rules.yaml."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.core_rules import core_rules
from rulekeeper.rulesets.confrontation.disengage import allowed_tests, disengagement
from rulekeeper.rulesets.confrontation.state import SkirmishState

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"
GUARD, HUNTER = "Alahan guard", "Wolfen hunter"


def engaged(g: Game, seed: int = 7) -> SkirmishState:
    """The guard (Medium) and the hunter (Large) in base contact in the middle of the ford."""
    s = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=seed)).document))
    assert isinstance(s, SkirmishState)
    guard, hunter = s.fighter(GUARD), s.fighter(HUNTER)
    return s.with_fighters(replace(guard, x=10.0, y=24.0, facing=0.0, engaged=(HUNTER,)),
                           replace(hunter, x=10.0 + 1.25 + 1.875, y=24.0, facing=180.0, engaged=(GUARD,)))


def with_ability(state: SkirmishState, key: str, ability: str) -> SkirmishState:
    f = state.fighter(key)
    return state.with_fighters(replace(f, card=f.card.model_copy(update={"abilities": [*f.card.abilities, ability]})))


def test_an_engaged_fighter_may_try_to_disengage_or_stay_in_his_fight(g: Game) -> None:
    """Harassment: "walk twice per activation (if he did not disengage)" — disengaging is an activation's; estimated:
    an INI test against the opponents' best INI + 3."""
    assert core_rules()["disengage"] == {"margin": 3}
    s = engaged(g)
    mine = [lg for lg in g.legal_actions(s) if lg.action["fighter"] == GUARD]
    assert [lg.action["kind"] for lg in mine] == ["disengage", "hold"]
    d = disengagement(s, s.fighter(GUARD), "INI")
    assert d.difficulty == s.fighter(HUNTER).card.INI + 3 and d.value == s.fighter(GUARD).card.INI
    assert g.policy(s) != mine[0].action  # autoplay stays in the fight
    with pytest.raises(IllegalActionError, match="is engaged"):
        g.apply(s, {"kind": "move", "side": "A", "fighter": GUARD, "to": [4.0, 24.0]})
    preview = g.preview(s, mine[0].action)
    assert [r.label for r in preview.draws] == [f"disengagement test: {GUARD}"]
    outcomes = set()
    for seed in range(16):
        out = g.apply(replace(s, rng=engaged(g, seed).rng), mine[0].action)
        assert out.chance[0].request == preview.draws[0]
        guard = out.state.fighter(GUARD)
        assert guard.activated
        outcomes.add(bool(guard.engaged))
        if not guard.engaged:
            assert out.state.fighter(HUNTER).engaged == () and (guard.x, guard.y) == tuple(mine[0].action["to"])
    assert outcomes == {True, False}


def test_disengagement_x_caps_the_difficulty_and_allows_str_at_equal_size(g: Game) -> None:
    """Disengagement/X: "If a disengagement test has a difficulty higher than X, then this test is made with a
    difficulty of X … In case of disengagements in STR, the fighter does not need to be of larger size than his
    opponent, but at least of equal size"."""
    s = engaged(g)
    assert allowed_tests(s, s.fighter(GUARD)) == ["INI"] and allowed_tests(s, s.fighter(HUNTER)) == ["INI", "STR"]
    capped = with_ability(s, GUARD, "Disengagement/4")
    assert disengagement(capped, capped.fighter(GUARD), "INI").difficulty == 4
    assert allowed_tests(capped, capped.fighter(GUARD)) == ["INI"]  # Medium against Large: not equal
    with pytest.raises(IllegalActionError, match="disengages with INI"):
        g.apply(s, {"kind": "disengage", "side": "A", "fighter": GUARD, "test": "STR", "to": [4.0, 24.0]})


def test_an_ethereal_fighter_disengages_without_a_roll(g: Game) -> None:
    """Ethereal: "They automatically succeed all their disengagement rolls (provided that they could disengage)"."""
    s = with_ability(engaged(g), GUARD, "Ethereal")
    action = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "disengage")
    out = g.apply(s, action)
    assert out.chance == () and out.state.fighter(GUARD).engaged == ()
