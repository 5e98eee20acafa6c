"""Rule tests: long actions wait for their Action Points (issue 9, point 5).

Seed, Symbols: "Small clepsydra: When used in icons other than the Wait action, a long action, which
will only be executed after a certain amount of Action Points have been accumulated. While preparing
for the action, the unit's Defences (Block, Evade, Deflect) are reduced to 0, and the unit will be
interrupted if it takes direct damage." Targeting: "Aim — Long action +25%."
"""

from __future__ import annotations

from exillis_battle_kit import act, battle, do, legal, nobody_acts, put, tables

from rulekeeper.rulesets.exillis.battle.draws import opening_draws
from rulekeeper.rulesets.exillis.battle.engine import Outcome
from rulekeeper.rulesets.exillis.battle.setup import state_from_dict, state_to_dict
from rulekeeper.rulesets.exillis.battle.state import PendingAction
from rulekeeper.rulesets.exillis.melee import MeleeContext, duel_odds


def _aimed() -> Outcome:
    s = battle([{"unit": "Longbowmen", "zone": "A1"}], [{"unit": "Vileins", "zone": "C1"}, {"unit": "Billmen", "zone": "D4"}])
    s = act(nobody_acts(s), "A:Longbowmen")
    return do(s, "shoot", "A:Longbowmen", "C1", "aim")


def _kinds(out: Outcome) -> list[str]:
    return [e.kind for e in out.events]


def test_aim_is_not_executed_at_once():
    """"a long action, which will only be executed after a certain amount of Action Points have been
    accumulated" — Aim: "Long action +25%" (1250 AcP)."""
    out = _aimed()
    u = out.state.unit("A:Longbowmen")
    assert u.pending == PendingAction("shoot", "C1", "aim")
    assert not [c for c in out.chance if c.request.label.startswith("where the shot falls: A:Longbowmen")]
    assert "long_action_start" in _kinds(out) and "shoot" not in _kinds(out)
    assert out.legal.acp == 1250.0  # paid now: its next turn comes after 1250 AcP
    assert out.state.unit("B:Vileins").c.hp == battle([], [{"unit": "Vileins", "zone": "C1"}]).unit("B:Vileins").c.hp


def test_aim_preview_draws_nothing_now():
    """The preview shows exactly what the action draws: a long action draws when it is executed, later."""
    s = battle([{"unit": "Longbowmen", "zone": "A1"}], [{"unit": "Vileins", "zone": "C1"}])
    s = act(nobody_acts(s), "A:Longbowmen")
    lg = next(lg for lg in legal(s) if lg.action.option == "aim")
    assert opening_draws(s, tables(), lg) == ()


def test_defences_are_zero_while_preparing():
    """"While preparing for the action, the unit's Defences (Block, Evade, Deflect) are reduced to 0"."""
    out = _aimed()
    bowmen = out.state.unit("A:Longbowmen").c
    assert bowmen.stance == "preparing"
    billmen = out.state.unit("B:Billmen").c
    odds = dict(duel_odds(billmen, bowmen, MeleeContext(tables().rules)).odds)
    assert odds.get("Blocked", 0) == odds.get("Evaded", 0) == odds.get("Deflected", 0) == 0
    rested = dict(duel_odds(billmen, battle([{"unit": "Longbowmen", "zone": "A1"}], []).unit("A:Longbowmen").c,
                            MeleeContext(tables().rules)).odds)
    assert rested["Evaded"] > 0


def test_the_aimed_shot_is_executed_when_the_units_time_comes():
    """"only be executed after a certain amount of Action Points have been accumulated": when the unit
    is next ready on the turn bar, the shot is fired, then the unit takes its turn."""
    out = _aimed()
    state = out.state
    for _ in range(10):
        assert state.active != ("A:Longbowmen",)
        out = do(state, "wait", state.active[0])
        state = out.state
        if "long_action_resolve" in _kinds(out):
            break
    else:
        raise AssertionError("the aimed shot never resolved")
    labels = [c.request.label for c in out.chance]
    assert "where the shot falls: A:Longbowmen #1" in labels
    aim = next(c for c in out.chance if c.request.label == "where the shot falls: A:Longbowmen #1")
    assert any("Aim 1.7" in line for line in aim.request.explain)
    u = state.unit("A:Longbowmen")
    assert u.pending is None and u.c.stance == "none"
    assert state.active == ("A:Longbowmen",)  # then it takes its turn


def test_direct_damage_interrupts_the_long_action():
    """"the unit will be interrupted if it takes direct damage"."""
    out = _aimed()
    s = put(out.state, "B:Billmen", zone="A1")
    s = act(nobody_acts(s), "B:Billmen")
    hit = do(s, "fight", "B:Billmen")
    u = hit.state.unit("A:Longbowmen")
    assert sum(u.c.hp) < sum(s.unit("A:Longbowmen").c.hp)
    assert u.pending is None and u.c.stance == "none"
    assert "long_action_interrupted" in _kinds(hit)


def test_a_pending_action_survives_save_and_load():
    """The battle state keeps the long action under way (state JSON round trip)."""
    out = _aimed()
    back = state_from_dict(state_to_dict(out.state), tables())
    assert back.unit("A:Longbowmen").pending == PendingAction("shoot", "C1", "aim")
    assert state_to_dict(back) == state_to_dict(out.state)
