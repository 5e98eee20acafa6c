"""Defensive fire at the characters who stood still, when the moving side ends its movement (issue 14).

The seed ("Defensive Fire"): "It is not possible to make a defensive shot against a character who has not yet
started to move, unless the opposing player does not intend to move him during his turn." Read faithfully: once the
movement sequence is over the intention is known, so the other side may then fire defensively at every character
who did not move, before the combat begins (docs/rules/dragonnoir.md, "Shooting in battle").
"""

from __future__ import annotations

from dn_game_kit import G, act, battle, kinds, labels, legal, man, set_man

from rulekeeper.rulesets.dragonnoir.action_types import ACTIONS
from rulekeeper.rulesets.dragonnoir.policy import DEFENSIVE_HIT, choose
from rulekeeper.rulesets.dragonnoir.shots import shot_odds, standstill_shots


def test_a_character_who_did_not_move_may_be_shot_when_the_movement_ends() -> None:
    """'It is not possible to make a defensive shot against a character who has not yet started to move, unless the
    opposing player does not intend to move him during his turn.' Thrug stays put: when side A ends its movement,
    side B may shoot at him, with the die the preview shows, then the combat begins."""
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    assert s.phase == "move" and s.pending is None
    ended = act(s, kind="end_phase").state
    assert ended.pending is not None and ended.pending.kind == "standstill" and ended.to_act == "B"
    assert ended.phase == "move"
    assert kinds(ended) == {"shoot", "hold"}
    shot = legal(ended, "shoot", unit="Laberne", target="Thrug")[0]
    preview = G.preview(ended, shot)
    out = G.apply(ended, shot)
    assert [c.request for c in out.chance][: len(preview.draws)] == list(preview.draws)
    assert labels(out)[0] == preview.draws[0].label
    after = out.state
    assert after.man("Laberne").fired
    assert after.over or (after.pending is None and after.phase == "combat" and after.to_act == "A")


def test_holding_ends_the_defensive_fire_and_the_combat_begins() -> None:
    """'... unless the opposing player does not intend to move him during his turn': the shot is offered, never forced;
    'no more defensive fire' opens the combat sequence ('A new sequence can begin only if the previous one is
    finished')."""
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    ended = act(s, kind="end_phase").state
    out = act(ended, kind="hold")
    assert not out.chance
    held = out.state
    assert held.pending is None and held.phase == "combat" and held.to_act == "A"
    assert not held.man("Laberne").fired


def test_a_character_who_moved_is_not_a_target_when_the_movement_ends() -> None:
    """'It is not possible to make a defensive shot against a character who has not yet started to move': a character
    who moved was exposed to defensive fire while moving; when the movement ends only those who stood still are
    offered."""
    s = battle([man("Thrug", "A", "B3"), man("Grast", "A", "A5"), man("Laberne", "B", "G3")])
    s = act(s, kind="move", unit="Thrug", to="B2").state
    if s.pending is not None:
        s = act(s, kind="hold").state
    ended = act(s, kind="end_phase").state
    assert ended.pending is not None and ended.pending.kind == "standstill"
    assert {a["target"] for a in legal(ended, "shoot")} == {"Grast"}
    assert "Thrug" not in {t.name for _, t, _ in standstill_shots(ended)}


def test_nobody_to_shoot_goes_straight_to_combat() -> None:
    """'During the movements of the characters of side A, player B may make defensive shots with shooters': with no
    shooter on the other side no decision is added; the combat begins at once."""
    s = battle([man("Thrug", "A", "B3"), man("Grast", "B", "G3")])
    ended = act(s, kind="end_phase").state
    assert ended.pending is None and ended.phase == "combat"


def test_a_shooter_in_contact_or_who_already_fired_is_not_offered() -> None:
    """'player B may make defensive shots with shooters who are not in contact with the enemy'; a shooter fires
    defensively once per enemy movement (the game's model of the rate of fire). """
    # Laberne next to Thrug: in contact, no shot at Grast who stood still
    s = battle([man("Thrug", "A", "F3"), man("Grast", "A", "A1"), man("Laberne", "B", "G3")])
    ended = act(s, kind="end_phase").state
    assert ended.pending is None and ended.phase == "combat"
    # Laberne has already fired during this movement: nothing left to offer
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    s = set_man(s, "Laberne", fired=True)
    ended = act(s, kind="end_phase").state
    assert ended.pending is None and ended.phase == "combat"


def test_a_long_bow_that_moved_in_his_turn_may_not_shoot_the_still() -> None:
    """'To be able to make a defensive shot, a long-bow archer must not have moved during his turn', at the end of the
    movement as during it."""
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    s = set_man(s, "Laberne", moved=True)
    ended = act(s, kind="end_phase").state
    assert ended.pending is None and ended.phase == "combat"


def test_a_carried_man_was_moved_by_his_player() -> None:
    """'unless the opposing player does not intend to move him': a stunned man carried along was moved (decision:
    ``steps`` counts the hexes he entered on the carrier's back), so he is not a target when the movement ends."""
    s = battle([man("Thrug", "A", "B3"), man("Grast", "A", "C3", health="stunned"), man("Laberne", "B", "G1")])
    s = set_man(s, "Grast", stunned_at=s.player_turn)
    assert "Grast" in {t.name for _, t, _ in standstill_shots(s)}  # lying still, he could be shot
    carry = legal(s, "carry", unit="Thrug")
    s = G.apply(s, carry[0]).state
    if s.pending is not None:
        s = act(s, kind="hold").state
    assert s.man("Grast").steps > 0
    assert "Grast" not in {t.name for _, t, _ in standstill_shots(s)}


def test_the_policy_shoots_the_still_at_good_odds_and_otherwise_holds() -> None:
    """The default policy answers the decision with a legal action: the best shot at better than even odds of a hit,
    else 'no more defensive fire' ('It is not possible to make a defensive shot against a character who has not yet
    started to move, unless the opposing player does not intend to move him during his turn.')"""
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    ended = act(s, kind="end_phase").state
    pick = choose(ended)
    assert pick is not None and ACTIONS.encode(pick) in [lg.action for lg in G.legal_actions(ended)]
    assert pick.kind in ("shoot", "hold")
    hit = 1.0 - float(sum(p for k, p in shot_odds(ended, "Laberne", "Thrug").letters.items() if k == "A"))
    assert (pick.kind == "shoot") == (hit >= DEFENSIVE_HIT)
