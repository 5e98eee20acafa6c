"""Moving under cover (issue 24): declared before the Tactical roll, shots at the mover harder this round;
docs/rules/confrontation.md, "Moving under cover". The pieces are those of *The hunters' wood*."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_confrontation_terrain import PALADIN, TRACKER, WOOD, XBOW, with_ability

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.core_rules import core_rules
from rulekeeper.rulesets.confrontation.shooting import shot_of, target_and_cover
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json


def start(g: Game) -> SkirmishState:
    """*The hunters' wood* before its first Tactical roll: a marksman on each side, so each side declares."""
    s = g.initial_state(g.setup(SetupRequest(scenario=WOOD, seed=3)).document)
    assert isinstance(s, SkirmishState)
    return s


def test_moves_under_cover_are_declared_before_the_tactical_roll(g: Game) -> None:
    """Dodge: "if he moves under cover before the Tactical Roll"; estimated: up to MOV / 2, each side in turn."""
    assert core_rules()["under_cover"] == {"divisor": 2, "shot_difficulty": 1}
    s = start(g)
    assert (s.phase, s.to_act) == ("tactical", "A")
    legal = g.legal_actions(s)
    assert legal[0].action["kind"] == "ready" and g.policy(s) == legal[0].action  # the keeper moves no one
    assert {lg.action["fighter"] for lg in legal if lg.action["kind"] == "cover"} == {"Alahan guard", PALADIN}  # the crossbowman stands against the wall
    with pytest.raises(IllegalActionError, match="declares its moves under cover before the Tactical roll"):
        g.apply(s, {"kind": "tactical", "side": "A", "fighter": PALADIN})
    with pytest.raises(IllegalActionError, match="beyond his 5 cm"):  # the paladin's MOV 10, halved
        g.apply(s, {"kind": "cover", "side": "A", "fighter": PALADIN, "to": [12.0, 6.0]})
    out = g.apply(s, {"kind": "cover", "side": "A", "fighter": PALADIN, "to": [12.0, 7.0]})
    paladin = out.state.fighter(PALADIN)
    assert (paladin.y, paladin.covered, paladin.activated, out.state.to_act) == (7.0, True, True, "A")
    assert out.chance == () and "his activation is spent" in str(out.report[0]["text"])
    assert g.preview(s, {"kind": "cover", "side": "A", "fighter": PALADIN, "to": [12.0, 7.0]}).headline == (
        ("distance", "5.0 cm of 5"), ("shots at him this round", "+1 difficulty"))
    assert state_from_json(state_to_json(out.state)) == out.state
    b = g.apply(out.state, {"kind": "ready", "side": "A", "fighter": PALADIN}).state
    assert b.to_act == "B" and g.legal_actions(b)[0].action["kind"] == "ready"
    rolled = g.apply(b, g.legal_actions(b)[0].action).state
    assert rolled.to_act == "A" and [lg.action["kind"] for lg in g.legal_actions(rolled)] == ["tactical"]
    assert g.parse_words(s, ["cover", "Alahan", "paladin", "12,7"])["kind"] == "cover"


def test_leap_cannot_be_used_when_moving_under_cover(g: Game) -> None:
    """Leap: "Leap cannot be used when moving under cover" — the careful move is a plain walk."""
    s = start(g)
    s = s.with_fighters(with_ability(replace(s.fighter(PALADIN), x=16.5, y=16.0), "Leap"))
    with pytest.raises(IllegalActionError, match="the way crosses the field wall"):
        g.apply(s, {"kind": "cover", "side": "A", "fighter": PALADIN, "to": [20.5, 16.0]})


def test_shots_at_a_fighter_under_cover_are_harder_and_target_does_not_cumulate(g: Game) -> None:
    """Target/X: "This does not cumulate with moving under cover (when they're both bonuses, they of course cumulate
    when this is a penalty)"; Instinctive firing "does not suffer the penalties due to … cover"."""
    s = start(g)
    tracker, paladin = s.fighter(TRACKER), s.fighter(PALADIN)
    covered = replace(paladin, covered=True)
    plain = shot_of(s, tracker, paladin).difficulty
    assert shot_of(s.with_fighters(covered), tracker, covered).difficulty == plain + 1
    assert target_and_cover(tracker, covered) == 1
    assert target_and_cover(tracker, with_ability(covered, "Target/+2")) == 2  # both bonuses: the larger
    assert target_and_cover(tracker, with_ability(paladin, "Target/+2")) == 2
    assert target_and_cover(tracker, with_ability(covered, "Target/-1")) == 0  # a penalty: both
    assert target_and_cover(with_ability(tracker, "Instinctive firing"), covered) == 0


def test_dodge_keeps_his_activation_for_a_shot(g: Game) -> None:
    """Dodge: "For this fighter, moving under cover is a cumulative action. This means that if he moves under cover
    before the Tactical Roll, then he can make cumulative actions during his activation"."""
    s = start(g)
    s = s.with_fighters(with_ability(s.fighter(XBOW), "Dodge"))
    out = g.apply(s, {"kind": "cover", "side": "A", "fighter": XBOW, "to": [16.75, 22.5]}).state
    xbow = out.fighter(XBOW)
    assert (xbow.covered, xbow.activated) == (True, False)
    active = replace(out, phase="activation", to_act="A", first="A", leader="A")
    mine = {lg.action["kind"] for lg in g.legal_actions(active) if lg.action["fighter"] == XBOW}
    assert mine <= {"shoot", "hold"} and "hold" in mine
    with pytest.raises(IllegalActionError, match="only cumulative actions"):
        g.apply(active, {"kind": "move", "side": "A", "fighter": XBOW, "to": [16.75, 25.0]})
