"""Concentration/X (issue 24): points on the bold characteristics, declared before the fight, with the fray's odds
recomputed; docs/rules/confrontation.md, "Concentration". The pieces are those of *The seer's circle*."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical
from pydantic import ValidationError

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.skirmish import combatant
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

CIRCLE = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_seers_circle.yaml"
CHAMPION, HUNTER = "Alahan champion", "Wolfen hunter"


def start(g: Game) -> SkirmishState:
    s = g.initial_state(g.setup(SetupRequest(scenario=str(CIRCLE), seed=1)).document)
    assert isinstance(s, SkirmishState)
    return s


def at_the_combat_phase(g: Game) -> SkirmishState:
    """The Wolfen won the Tactical roll; their hunter charged the champion; everyone else has acted: the hunter's
    hold ends the activation phase."""
    s = past_tactical(start(g), "B")
    fighters = []
    for f in s.fighters:
        if f.key == CHAMPION:
            f = replace(f, activated=True, engaged=(HUNTER,))
        elif f.key == HUNTER:
            f = replace(f, x=14.5, activated=False, engaged=(CHAMPION,), charged=True)
        else:
            f = replace(f, activated=True)
        fighters.append(f)
    s = replace(s, fighters=tuple(fighters), to_act="B")
    out = g.apply(s, {"kind": "hold", "side": "B", "fighter": HUNTER}).state
    assert isinstance(out, SkirmishState) and out.phase == "combat"
    return out


def test_generation_gives_x_points_before_each_tactical_roll_and_the_bonuses_last_the_round(g: Game) -> None:
    """Concentration/X: "Reserve: temporary. Maximum: X. Charges (ratio): the fighter has Generation/X";
    Generation/X: "The accumulator gets X charges before each Tactical Roll"; "These bonuses remain valid until the
    end of the round"."""
    s = start(g)
    assert (s.phase, s.fighter(CHAMPION).charges, s.fighter(HUNTER).charges) == ("tactical", 2, 0)
    c = at_the_combat_phase(g)
    done = g.apply(c, {"kind": "concentrate", "side": "A", "fighter": CHAMPION, "points": {"ATT": 1}}).state
    assert done.fighter(CHAMPION).boosts == (("ATT", 1),) and done.fighter(CHAMPION).charges == 1
    assert state_from_json(state_to_json(done)) == done
    while done.round == 1 and not done.over:  # the fight, then the next round's start
        done = g.apply(done, g.policy(done)).state
    if not done.over and done.fighter(CHAMPION).standing:
        assert (done.fighter(CHAMPION).boosts, done.fighter(CHAMPION).charges) == ((), 2)


def test_the_points_go_on_bold_characteristics_only_and_never_pow_or_fai(g: Game) -> None:
    """"X indicates the total number of points the player can distribute in each round among the Characteristic that
    this ability is bound to (These Characteristics … are printed in bold type on their reference card.)";
    "POW and FAI can never be increased"."""
    c = at_the_combat_phase(g)
    with pytest.raises(IllegalActionError, match="STR is not bold on Alahan champion's card"):
        g.apply(c, {"kind": "concentrate", "side": "A", "fighter": CHAMPION, "points": {"STR": 1}})
    with pytest.raises(IllegalActionError, match="has 2 points of Concentration left this round, not 3"):
        g.apply(c, {"kind": "concentrate", "side": "A", "fighter": CHAMPION, "points": {"ATT": 2, "DEF": 1}})
    with pytest.raises(IllegalActionError, match="points"):
        g.parse_words(c, ["concentrate", "Alahan", "champion", "MOV", "1"])
    card = c.fighter(CHAMPION).card.model_dump()
    with pytest.raises(ValidationError):
        FighterCard.model_validate({**card, "bold": ["POW"]})
    with pytest.raises(ValidationError, match="bold"):
        FighterCard.model_validate({**card, "bold": []})


def test_att_and_def_are_raised_at_the_beginning_of_the_combat_phase_not_during_a_fight(g: Game) -> None:
    """"A fighter's DEF and ATT can be increased at the beginning of an exchange but not during one"; third-edition
    rules: "Concentration: bonuses only at the start of an exchange". Regression (issue 24): a card with
    Concentration had no legal action to use it; the combat phase now asks the Tactical roll's loser first, the
    keeper proposing not to concentrate."""
    c = at_the_combat_phase(g)
    assert (c.leader, c.to_act) == ("B", "A")  # the loser of the Tactical roll declares first
    legal = g.legal_actions(c)
    assert [lg.action["kind"] for lg in legal] == ["steady", "concentrate", "concentrate", "concentrate"]
    assert g.policy(c) == legal[0].action  # autoplay takes the keeper's proposal
    assert [lg.action["points"] for lg in legal[1:]] == [{"ATT": 2}, {"DEF": 2}, {"ATT": 1, "DEF": 1}]
    for lg in legal:
        assert g.parse_action(c, lg.action) == lg.action
    with pytest.raises(IllegalActionError, match="declares Concentration before the next fight"):
        g.apply(replace(c, to_act="B"), {"kind": "fight", "side": "B", "fighter": HUNTER})
    act = g.parse_words(c, ["concentrate", "Alahan", "champion", "ATT+1", "DEF", "1"])
    assert act == {"kind": "concentrate", "side": "A", "fighter": CHAMPION, "points": {"ATT": 1, "DEF": 1}}
    after = g.apply(c, act).state
    assert after.to_act == "B" and [lg.action["kind"] for lg in g.legal_actions(after)] == ["fight"]
    before_fight = replace(after, phase="activation", to_act="A")  # outside the beginning of the combat phase: refused
    with pytest.raises(IllegalActionError, match="no concentrate now"):
        g.apply(before_fight, {"kind": "concentrate", "side": "A", "fighter": CHAMPION, "points": {"ATT": 1}})
    steady = g.apply(c, legal[0].action).state
    assert steady.concentrated == "A" and steady.fighter(CHAMPION).boosts == ()


def test_the_fray_odds_are_recomputed_with_the_bonus_and_the_fight_rolls_them(g: Game) -> None:
    """Preview = roll: the concentrate action's fray odds are the fight's preview once the points are given, and the
    fight's first draws are the INI tests that preview announces; the bonus counts as written on the card."""
    c = at_the_combat_phase(g)
    act = {"kind": "concentrate", "side": "A", "fighter": CHAMPION, "points": {"DEF": 2}}
    shown = dict(g.preview(c, act).headline)
    after = g.apply(c, act).state
    champion = after.fighter(CHAMPION)
    assert (combatant(champion, after).card.DEF, combatant(champion, after).card.ATT) == (6, 4)
    fight = {"kind": "fight", "side": "B", "fighter": HUNTER}
    seen = g.preview(after, fight)
    for label, p in seen.headline:
        if label in shown:
            assert shown[label] == p, label
    kill_all = f"{after.name('B')} kill every enemy in the fight"
    assert shown[kill_all] == dict(seen.headline)[kill_all]
    plain = dict(g.preview(c, {**act, "points": {"ATT": 2}}).headline)
    assert shown["Alahan champion loses HP"] < plain["Alahan champion loses HP"]  # DEF +2 guards him better
    assert plain["Wolfen hunter loses HP"] > shown["Wolfen hunter loses HP"]  # ATT +2 strikes harder
    out = g.apply(after, fight)
    assert [r.request for r in out.chance[:2]] == list(seen.draws)
