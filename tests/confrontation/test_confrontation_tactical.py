"""The Tactical roll (issue 24, point 10: "the Tactical roll (who splits the frays, who chooses which fray is fought
first)"). The seed names it without printing it; its sentences fix who rolls and what a draw is, the rest is
estimated in data/core_rules.yaml (docs/rules/confrontation.md, "The Tactical roll")."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.core_rules import core_rules
from rulekeeper.rulesets.confrontation.state import SkirmishState
from rulekeeper.rulesets.confrontation.tactical import die_odds, general, win_odds

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"


def ford(g: Game, seed: int = 7) -> SkirmishState:
    state = g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=seed)).document)
    assert isinstance(state, SkirmishState)
    return state


def test_every_round_begins_with_the_generals_tactical_roll_d6_plus_dis_estimated(g: Game) -> None:
    """Pariah: "This effect replaces the normal roll the General could otherwise make": one roll a side, by its
    General (estimated: the standing fighter of highest DIS, d6 + DIS, a draw rolled again)."""
    rules = core_rules()
    assert rules["estimated"] is True and rules["tactical_roll"] == {"dice": 1, "adds": "DIS"}
    s = ford(g)
    assert (s.phase, s.to_act) == ("tactical", "A")
    assert [lg.action["kind"] for lg in g.legal_actions(s)] == ["tactical"]
    assert (general(s, "A").key, general(s, "A").card.DIS, general(s, "B").card.DIS) == ("Alahan paladin", 4, 2)
    # d6+4 against d6+2: A wins 26 of 36, 4 draws rolled again -> 26/32
    assert win_odds(s, "A") == Fraction(26, 32) and win_odds(s, "B") == Fraction(6, 32)
    preview = g.preview(s, g.legal_actions(s)[0].action)
    assert [r.label for r in preview.draws] == ["Tactical roll: Lions of Alahan", "Tactical roll: Wolfen of Yllia"]
    assert preview.headline[0][1] == pytest.approx(26 / 32)


def test_a_draw_is_rolled_again_and_the_preview_announces_the_first_two_draws(g: Game) -> None:
    """Authority: "If the Tactical Roll was a Draw" — a draw exists; without Authority tokens it is rolled again."""
    s = ford(g)
    action = g.legal_actions(s)[0].action
    for seed in range(40):
        out = g.apply(replace(s, rng=Fate.from_seed(seed).state), action)
        labels = [c.request.label for c in out.chance]
        assert labels[:2] == [r.label for r in g.preview(s, action).draws]
        if len(labels) > 2:  # a draw: both dice again
            assert "a draw: rolled again" in out.report[0]["text"] and len(labels) % 2 == 0
            return
    raise AssertionError("no draw in 40 seeds (4 chances in 36 each)")


def test_pariah_general_rolls_two_dice_and_keeps_the_lowest(g: Game) -> None:
    """Pariah: "If the Army General (or his replacement) has this ability but not all fighters in the army do, then
    all Tactical Rolls are made with two dice and the lowest is kept"."""
    s = ford(g)
    paladin = s.fighter("Alahan paladin")
    pariah = replace(paladin, card=paladin.card.model_copy(update={"abilities": [*paladin.card.abilities, "Pariah"]}))
    s2 = s.with_fighters(pariah)
    assert die_odds(s2, "A") == {1: Fraction(11, 36), 2: Fraction(9, 36), 3: Fraction(7, 36), 4: Fraction(5, 36),
                                 5: Fraction(3, 36), 6: Fraction(1, 36)}
    assert die_odds(s2, "B") == {n: Fraction(1, 6) for n in range(1, 7)}
    assert win_odds(s2, "A") < win_odds(s, "A")
    everyone = s2.with_fighters(*[replace(f, card=f.card.model_copy(update={"abilities": [*f.card.abilities, "Pariah"]}))
                                  for f in s2.standing("A")])
    assert die_odds(everyone, "A") == die_odds(s, "A")  # "but not all fighters in the army do"


def test_the_winner_chooses_who_acts_first_a_legal_action_with_his_own_side_proposed(g: Game) -> None:
    s = ford(g)
    out = g.apply(s, g.legal_actions(s)[0].action)
    lead = out.state
    assert lead.phase == "lead" and lead.to_act == lead.leader
    choices = g.legal_actions(lead)
    assert [c.action["first"] for c in choices] == [lead.leader, "B" if lead.leader == "A" else "A"]
    assert "keeper's proposal" in choices[0].text and g.policy(lead) == choices[0].action
    other = choices[1].action
    after = g.apply(lead, other).state
    assert (after.phase, after.first, after.to_act) == ("activation", other["first"], other["first"])
    with pytest.raises(IllegalActionError):
        g.apply(lead, {**other, "first": "C"})
    with pytest.raises(IllegalActionError):  # a walk is no action of the lead phase
        g.apply(lead, {"kind": "hold", "side": lead.leader, "fighter": general(lead, lead.leader).key})
    assert g.parse_words(lead, ["lead", "Wolfen", "of", "Yllia"])["first"] == "B"


def test_the_winner_orders_the_fights_of_the_combat_phase(g: Game) -> None:
    """Issue 24: the Tactical roll decides "who splits the frays, who chooses which fray is fought first": the
    winner's fight and split actions, whichever side acts first."""
    s = ford(g)
    for _ in range(60):
        if s.phase == "lead":
            s = g.apply(s, g.legal_actions(s)[1].action).state  # the winner lets the other side act first
        elif s.phase == "combat":
            assert s.to_act == s.leader and s.first != s.leader
            fights = g.legal_actions(s)
            assert fights and fights[0].action["kind"] == "fight"
            assert all(f.action["kind"] in ("fight", "split") and f.action["side"] == s.leader for f in fights)
            return
        else:
            s = g.apply(s, g.policy(s)).state  # type: ignore[arg-type]
        assert not s.over
    raise AssertionError("no combat phase in 60 actions")
