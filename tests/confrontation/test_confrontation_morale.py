"""Morale (COU vs FEAR, rout, rally) and the board abilities of moves and charges (docs/rules/confrontation.md, "Morale").

The core is estimated (the seed says "The rules on fear then apply in the usual way" without printing them); each test
quotes the sentence of the seed it implements. The skirmish tests check what the game adds: a charge on a frightening
enemy draws the charger's COU test first (its odds in the preview), a frightening charger the charged fighter's.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cf_start import past_tactical

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.effects import KeepOf2d6, compose
from rulekeeper.rulesets.confrontation.fear import charge_tests, rally, rally_test
from rulekeeper.rulesets.confrontation.morale import (
    Lender,
    courage,
    courage_shape,
    fear_rate,
    frightens,
    morale_of,
    without_active,
)
from rulekeeper.rulesets.confrontation.rallying_cry import strategic
from rulekeeper.rulesets.confrontation.rolls import p_success
from rulekeeper.rulesets.confrontation.skirmish import combatant, next_round
from rulekeeper.rulesets.confrontation.state import SkirmishState

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"
CHARGE = {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}


def card(name: str = "Plain", **kw: Any) -> FighterCard:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": 4}
    base.update(kw)
    if "FEAR" in kw:
        base.pop("COU")
    return FighterCard.model_validate(base)


def start(g: Game, seed: int = 3) -> SkirmishState:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=seed)).document))
    assert isinstance(state, SkirmishState)
    return state


def guard_before_hunter(g: Game, seed: int) -> SkirmishState:
    s = start(g, seed)
    return s.with_fighters(replace(s.fighter("Alahan guard"), x=12.0, y=22.0, facing=0.0))


# -- the core: who frightens whom ---------------------------------------------------------------------------


def test_a_fear_rate_frightens_a_fighter_with_cou_or_a_lower_fear() -> None:
    """Living-dead: "all fighters consider the Living-dead to be fear-inspiring opponents, if they have a higher
    FEAR" (estimated core: a FEAR rate frightens a fighter with COU, or with a lower FEAR); War cry: "the charger is
    immunized to FEAR rates up to X as if he successfully passed the related COU test" (passing braves that rate)."""
    assert frightens(5, card(COU=9))  # COU, however high, is tested against FEAR
    assert frightens(6, card(FEAR=5)) and not frightens(5, card(FEAR=5)) and not frightens(4, card(FEAR=5))
    assert not frightens(None, card())
    assert not frightens(5, card(), braved=5) and frightens(6, card(), braved=5)


@pytest.mark.parametrize(("ability", "quote"), [
    ("Immunity/Fear", "Immunity/X: fear: the fighter is immune to all forms of FEAR, he can never rout and never has "
                      "to make any COU test"),
    ("Construct", "Construct: Constructs have … the Immunity/Fear and Immunity/Toxic abilities"),
    ("Living-dead", "Living-dead: The Living-dead benefit from the Immunity/Toxic and Immunity/Fear abilities"),
    ("Righteous", "Righteous: These fighters have Immunity/Fear"),
    ("Hyperian", "Hyperian: Hyperians benefit from the Alliance/ Cynwäll and Immunity/Fear abilities"),
    ("Being of/Darkness", "Being of: Darkness: … They have Immunity/Fear"),
    ("Being of/Light", "Being of: Light: … endowed with the Righteous ability"),
])
def test_immunity_to_fear(ability: str, quote: str) -> None:
    """Righteous: "These fighters have Immunity/Fear"; Hyperian: "Hyperians benefit from the Alliance/ Cynwäll and
    Immunity/Fear abilities"; and every other way to Immunity/Fear (the parameters quote each)."""
    assert quote
    immune = card(abilities=[ability])
    assert morale_of(immune).immune and not frightens(9, immune)
    assert not morale_of(card(abilities=["Being of/Destiny", "Immunity/Toxic"])).immune


# -- the COU test and the abilities that bend it ----------------------------------------------------------------


def test_dreadful_makes_the_opponents_cou_test_2d6_keep_lowest_and_a_best_of_cancels_it() -> None:
    """Dreadful: "When a fighter has to make a COU test facing a Dreadful opponent … the COU test must be made using
    2d6. Only the lower natural result is then used. If the fighter benefits from an effect that allows him to roll
    several d6 for his COU test and use the best result, then the two effects cancel each other out"; "This ability
    does not apply if the fighter has a COU rate" (a COU rate frightens no one: no test at all)."""
    facing = courage_shape(card(), dreadful_opponent=True)
    assert (facing.dice, facing.keep_lowest) == (2, True)
    assert p_success(facing, 4, 7) < p_success(courage_shape(card(), False), 4, 7)
    assert compose("COU", [KeepOf2d6(True, frozenset({"COU"})), KeepOf2d6(False, frozenset({"COU"}))]).dice == 1
    assert courage_shape(card(abilities=["Dreadful"]), False).dice == 1  # his own Dreadful is his opponents'
    assert fear_rate(card(abilities=["Dreadful"])) is None


def test_the_cou_test_reads_bravery_and_born_killer_but_keeps_resolute_and_luck_for_combat() -> None:
    """Bravery: "a 1 in COU tests must not be negatively opened and a 5 in COU tests can be opened as if it were a
    6"; Born killer: "automatically succeeds all COU tests with a difficulty that is less than or equal to the COU he
    is using, even if it is transmitted to him by a commander"."""
    brave = courage_shape(card(abilities=["Bravery", "Resolute/2", "Luck"]), False)
    assert 5 in brave.opens and not brave.negative_opening and brave.modifier == 0 and not brave.re_roll
    killer = card(COU=3, abilities=["Born killer"], people="Lions")
    leader = card("Chief", COU=6, people="Lions", abilities=["Leadership/15"])
    cou = courage(killer, [Lender(leader, 10.0)])
    assert cou == 6 and p_success(courage_shape(killer, True), cou, 6) == 1


def test_war_cry_gives_a_fear_rate_when_charging() -> None:
    """War cry/X: "When a fighter with this ability charges an enemy, he can choose that his COU is replaced by a FEAR
    rate of X until the end of his activation … if the fighter must make a COU test, he can use his FEAR rate of X for
    it; if the charged fighter has a FEAR rate lower or equal to X, then the charger is immunized to FEAR rates up to X
    as if he successfully passed the related COU test"."""
    crier = card(COU=3, abilities=["War cry/6"])
    assert fear_rate(crier) is None and fear_rate(crier, charging=True) == 6
    assert courage(crier, war_cry=6) == 6 and courage(crier) == 3
    with pytest.raises(ValueError, match="War cry/X needs a whole number"):
        card(abilities=["War cry"])


def test_leadership_lends_the_cards_cou_within_x_cm_to_his_people() -> None:
    """Leadership/X: "Fighters within X cm of a fighter with this ability can use his COU and DIS for their rolls in
    those Characteristics. Unless noted otherwise, only the values as written on the card can be used … If the fighter
    is fear-inducing, then his FEAR rate can be used as COU … A fighter cannot benefit from this ability if the fighter
    who has it belongs to a different people"; Construct: "Constructs cannot benefit from the advantages provided by
    the Leadership ability"."""
    me = card(COU=2, people="Lions")
    chief = card("Chief", COU=6, people="Lions", abilities=["Leadership/10"])
    wolf = card("Wolf", FEAR=7, people="Lions", abilities=["Leadership/10"])
    assert courage(me, [Lender(chief, 10.0)]) == 6 and courage(me, [Lender(chief, 10.5)]) == 2
    assert courage(me, [Lender(wolf, 3.0)]) == 7
    assert courage(card(COU=2, people="Wolfen"), [Lender(chief, 1.0)]) == 2
    assert courage(card(COU=2, people="Lions", abilities=["Construct"]), [Lender(chief, 1.0)]) == 2


def test_emblem_lends_its_sp_within_x_cm() -> None:
    """Emblem/X: "This ability is reserved to fighters with SP and to Nexus. All friendly fighters within X cm of the
    possessor can use its SP value (excluding suffered wounds) for their COU and DIS tests"."""
    banner = card("Banner", HP=7, abilities=["Construct", "Emblem/10"])
    assert courage(card(COU=3), [Lender(banner, 9.0)]) == 7 and courage(card(COU=3), [Lender(banner, 11.0)]) == 3
    assert courage(card(COU=3), [Lender(card("Flesh", HP=7, abilities=["Emblem/10"]), 1.0)]) == 3  # no SP


def test_a_fighter_in_rout_cannot_use_his_active_abilities() -> None:
    """"For the 'active' ones, their use must be announced by the player and they cannot be used by a fighter in
    rout" (Counterattack and Fierce are active, Hard-boiled passive)."""
    routed = without_active(card(abilities=["Counterattack", "Fierce", "Hard-boiled", "Resolute/1"]))
    assert routed.abilities == ["Hard-boiled"]


# -- in the skirmish ---------------------------------------------------------------------------------------------


def _outcomes(g: Game) -> dict[bool, tuple[SkirmishState, Any]]:
    """A seed where the guard passes his COU test against the hunter's FEAR 5 and one where he fails it."""
    out: dict[bool, tuple[SkirmishState, Any]] = {}
    for seed in range(40):
        s = guard_before_hunter(g, seed)
        done = g.apply(s, CHARGE)
        out.setdefault(bool(done.state.fighter("Alahan guard").engaged), (s, done))
        if len(out) == 2:
            return out
    raise AssertionError("no seed gave both ends of the COU test")


def test_a_charge_on_a_frightening_enemy_needs_a_cou_test_first_with_its_odds_in_the_preview(g: Game) -> None:
    """Estimated core (from War cry's "immunized to FEAR rates up to X as if he successfully passed the related COU
    test"): charging a fear-inducing enemy asks the charger for a COU test against his FEAR; failed, he does not
    charge and his activation ends; passed, he charges and braves that FEAR."""
    ends = _outcomes(g)
    for passed, (s, done) in ends.items():
        preview = g.preview(s, CHARGE)
        assert [r.label for r in preview.draws] == ["COU test: Alahan guard"]
        assert done.chance[0].request == preview.draws[0]
        guard = done.state.fighter("Alahan guard")
        assert guard.activated and guard.charged == passed and guard.braved == (5 if passed else 0)
        if not passed:
            assert (guard.x, guard.y) == (12.0, 22.0) and "does not charge" in done.report[0]["text"]
    odds = dict(g.preview(ends[True][0], CHARGE).headline)
    assert odds["Alahan guard passes COU 5 vs FEAR 5"] == pytest.approx(float(p_success(courage_shape(
        ends[True][0].fighter("Alahan guard").card, False), 5, 5)))


def test_a_braved_or_immune_charger_draws_nothing(g: Game) -> None:
    """Immunity/X: fear: "never has to make any COU test"."""
    s = guard_before_hunter(g, 1)
    guard = s.fighter("Alahan guard")
    immune = s.with_fighters(replace(guard, card=guard.card.model_copy(update={"abilities": ["Immunity/Fear"]})))
    assert charge_tests(immune, immune.fighter("Alahan guard"), immune.fighter("Wolfen hunter")) == (None, None)
    assert not g.apply(immune, CHARGE).chance and not g.preview(immune, CHARGE).draws


def test_a_frightening_charger_routs_the_charged_fighter_who_fails_and_he_rallies_in_the_strategic_phase(
        g: Game) -> None:
    """Estimated core: failing the COU test when charged by a fear-inducing enemy routs. Third-edition rules (3.5):
    "in the strategic phase each routed fighter tests COU 8 or DIS 8, failing automatically in contact with a
    fear-causing enemy; a rallied fighter is not immune to the fear that routed him"."""
    act = {"kind": "charge", "side": "B", "fighter": "Wolfen hunter", "target": "Alahan guard"}
    for seed in range(60):
        s = start(g, seed)
        s = replace(s.with_fighters(replace(s.fighter("Alahan guard"), x=17.0, y=22.0, activated=True)), to_act="B")
        preview = g.preview(s, act)
        assert [r.label for r in preview.draws] == ["COU test: Alahan guard"]
        done = g.apply(s, act)
        assert done.chance[0].request == preview.draws[0]
        guard = done.state.fighter("Alahan guard")
        if guard.rout:
            break
    else:
        raise AssertionError("the guard never failed")
    assert guard.rout == 5 and "in rout" in done.report[-1]["text"]
    assert "Counterattack" not in combatant(guard).card.abilities  # active: "cannot be used by a fighter in rout"
    free = replace(guard, engaged=(), activated=False)
    test = rally_test(done.state, free)
    assert test is not None
    assert (test.label, test.fear, test.characteristic) == ("rally test: Alahan guard", 8, 5)  # COU 5 beats DIS 3
    routed = replace(done.state.with_fighters(free), to_act="A")
    assert not [lg for lg in g.legal_actions(routed) if lg.action.get("fighter") == "Alahan guard"
                and lg.action["kind"] == "charge"]
    with pytest.raises(IllegalActionError, match="in rout"):
        g.apply(routed.with_fighters(replace(free, x=12.0, y=22.0, facing=0.0)), CHARGE)
    fate = Fate.from_state(done.state.rng)
    report: list[dict[str, Any]] = []
    assert rally_test(done.state, guard) is None  # still in contact with the hunter, who causes fear
    assert rally(done.state, fate, report).fighter("Alahan guard").rout == 5 and not fate.records
    assert "in contact with a fear-causing enemy" in report[0]["text"]
    hunter = replace(done.state.fighter("Wolfen hunter"), engaged=())
    rallied = rally(done.state.with_fighters(free, hunter), fate, report).fighter("Alahan guard")
    assert [r.request for r in fate.records] == [test.request()]
    assert (rallied.rout == 0) == ("rallies" in report[1]["text"])
    assert rallied.braved < 5  # not immune to the fear that routed him


# -- moves and charges -------------------------------------------------------------------------------------------


def test_extended_vision_charges_what_is_behind(g: Game) -> None:
    """Extended vision: "The front of A fighter with this ability covers 360◦, so it covers all the sides of the
    fighter's base"."""
    s = start(g)
    s = s.with_fighters(replace(s.fighter("Alahan guard"), x=12.0, y=22.0, facing=180.0, braved=9))
    with pytest.raises(IllegalActionError, match="not in sight"):
        g.apply(s, CHARGE)
    guard = s.fighter("Alahan guard")
    seeing = s.with_fighters(replace(guard, card=guard.card.model_copy(update={"abilities": ["Extended vision"]})))
    assert g.apply(seeing, CHARGE).state.fighter("Alahan guard").engaged == ("Wolfen hunter",)


def test_ethereal_walks_and_charges_through_the_scenery_but_cannot_stop_in_it(g: Game) -> None:
    """Ethereal: "They can pass through all obstacles, be they an element of the scenery or a miniature. Yet they
    cannot stop 'in' an obstacle" (the scenery here)."""
    s = start(g)
    guard = replace(s.fighter("Alahan guard"), x=14.0, y=14.0, facing=0.0, braved=9)
    ghost = replace(guard, card=guard.card.model_copy(update={"abilities": ["Ethereal"]}))
    walk = {"kind": "move", "side": "A", "fighter": "Alahan guard", "to": [24.0, 14.0]}
    with pytest.raises(IllegalActionError, match="crosses the boulder"):
        g.apply(s.with_fighters(guard), walk)
    assert g.apply(s.with_fighters(ghost), walk).state.fighter("Alahan guard").x == 24.0
    with pytest.raises(IllegalActionError, match="ends in the boulder"):
        g.apply(s.with_fighters(ghost), {**walk, "to": [20.0, 14.0]})
    hunter = replace(s.fighter("Wolfen hunter"), x=30.0, y=19.0)  # in sight above the boulder, the path clips it
    around = g.apply(s.with_fighters(replace(guard, x=12.0, y=19.0), hunter), CHARGE)  # goes around it (issue 24)
    through = g.apply(s.with_fighters(replace(ghost, x=12.0, y=19.0), hunter), CHARGE)
    assert through.state.fighter("Alahan guard").engaged == ("Wolfen hunter",)
    assert around.state.fighter("Alahan guard").engaged == ("Wolfen hunter",)


def test_rallying_cry_rallies_every_routed_friend_once_a_game(g: Game) -> None:
    """Rallying cry: "This ability can be used as a simple action once per game … All friendly fighters: are
    immediately rallied if they were in rout; get a +1 bonus to the natural result of their COU tests until the end
    of the round" (estimated: used at the start of a round, as soon as a friend is in rout)."""
    s = start(g)
    paladin = s.fighter("Alahan paladin")
    crier = replace(paladin, card=paladin.card.model_copy(update={"abilities": ["Rallying cry"]}))
    s = s.with_fighters(crier, replace(s.fighter("Alahan guard"), rout=5, x=12.0, y=22.0, facing=0.0))
    s = replace(s, options=(*s.options, ("declarations", "keeper")))  # the keeper's policy (its timing)
    report: list[dict[str, Any]] = []
    after = next_round(s, report)
    after = strategic(after, Fate.from_state(after.rng), report)
    guard = after.fighter("Alahan guard")
    assert guard.rout == 0 and guard.heartened and after.fighter("Alahan paladin").cried
    assert any("Rallying cry" in r["text"] for r in report)
    mine, _ = charge_tests(after, guard, after.fighter("Wolfen hunter"))
    assert mine is not None and mine.shape.natural_bonus == 1
    again = next_round(after.with_fighters(replace(guard, rout=5)), [])
    again = strategic(again, Fate.from_state(again.rng), [])
    assert again.fighter("Alahan guard").rout == 5 and not again.fighter("Alahan guard").heartened  # once per game


def test_a_fear_inducing_ethereal_fighter_passing_through_an_enemy_asks_for_his_cou_test(g: Game) -> None:
    """Ethereal: "They can pass through all obstacles, be they an element of the scenery or a miniature … If a
    fear-inducing Ethereal fighter moves through an enemy fighter, then the latter must make a COU roll if he is not
    immune to the Ethereal fighter's FEAR" (failed: in rout, as when charged; estimated)."""
    s = start(g)
    hunter = s.fighter("Wolfen hunter")
    ghost = replace(hunter, x=20.0, y=24.0, facing=180.0,
                    card=hunter.card.model_copy(update={"abilities": ["Ethereal"]}))
    s = replace(s.with_fighters(ghost, replace(s.fighter("Alahan guard"), x=14.0, y=25.6)), to_act="B")
    walk = {"kind": "move", "side": "B", "fighter": "Wolfen hunter", "to": [10.0, 24.0]}
    preview = g.preview(s, walk)
    assert [r.label for r in preview.draws] == ["COU test: Alahan guard"]
    done = g.apply(s, walk)
    assert [c.request for c in done.chance] == list(preview.draws)
    guard = done.state.fighter("Alahan guard")
    assert (guard.rout == 5) != (guard.braved == 5)
    mortal = s.with_fighters(replace(ghost, card=hunter.card))
    with pytest.raises(IllegalActionError, match="crosses Alahan guard's base"):
        g.apply(mortal, walk)
    # a charge through the guard at the swordsman: the swordsman's test is drawn after the guard's
    s2 = s.with_fighters(replace(s.fighter("Alahan swordsman"), x=8.0, y=24.0))
    charge = {"kind": "charge", "side": "B", "fighter": "Wolfen hunter", "target": "Alahan swordsman"}
    labels = [r.label for r in g.preview(s2, charge).draws]
    assert labels == ["COU test: Alahan guard", "COU test: Alahan swordsman"]
    out = g.apply(s2, charge)
    assert [c.request.label for c in out.chance] == labels
    assert out.state.fighter("Wolfen hunter").engaged == ("Alahan swordsman",)


def test_wild_counts_in_a_skirmish_fight_when_no_friend_is_within_x_cm(g: Game) -> None:
    """Wild/X: "A fighter with this ability gets a +1 bonus to INI, ATT and DEF as long as he is further than X cm from
    a friendly fighter" (measured edge to edge when the fight begins)."""
    s = start(g)
    s = replace(s, fighters=tuple(replace(f, braved=9) for f in s.fighters))
    guard = s.fighter("Alahan guard")
    wild = replace(guard, x=12.0, y=22.0, facing=0.0, card=guard.card.model_copy(update={"abilities": ["Wild/5"]}))
    s = g.apply(s.with_fighters(wild), CHARGE).state
    engaged = s.fighter("Alahan guard")
    alone = combatant(engaged, s)
    assert alone.wild and alone.shape("ATT", False).modifier == 1 and alone.shape("INI", False).modifier == 1
    near = s.with_fighters(replace(s.fighter("Alahan swordsman"), x=engaged.x - 4.0, y=engaged.y + 3.0))
    assert not combatant(engaged, near).wild and combatant(engaged, near).shape("ATT", False).modifier == 0
    assert not combatant(engaged).wild  # outside a skirmish: not measured, not met
