"""Spells and miracles (issue 24) with the example cards of data/spells.yaml (estimated); docs/rules/confrontation.md,
"Spells and miracles". *The moonlit shrine*: an Alahan magician (POW 4, Focus) and priest (FAI 4), a Wolfen shaman
(POW 4)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.rng import RngState
from rulekeeper.rulesets.confrontation.magic import success_odds
from rulekeeper.rulesets.confrontation.spells import mystic_rules
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

SHRINE = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/" \
    "the_moonlit_shrine.yaml"
MAGE, PRIEST, GUARD, SHAMAN, HUNTER = ("Alahan magician", "Alahan priest", "Alahan guard", "Wolfen shaman",
                                       "Wolfen hunter")
DART = {"kind": "cast", "side": "A", "fighter": MAGE, "spell": "Fire dart", "target": SHAMAN}


def shrine(g: Game, seed: int = 1) -> SkirmishState:
    s = g.initial_state(g.setup(SetupRequest(scenario=SHRINE, seed=seed)).document)
    assert isinstance(s, SkirmishState)
    return s


def facing_off(g: Game, seed: int = 1) -> SkirmishState:
    """The Lions to activate, the shaman 15 cm in front of the magician."""
    s = past_tactical(shrine(g, seed))
    return s.with_fighters(replace(s.fighter(SHAMAN), x=25.0, y=20.0), replace(s.fighter(HUNTER), braved=99))


def test_the_example_cards_are_marked_estimated_and_the_reserves_fill_each_round(g: Game) -> None:
    """Piety/X "If at the beginning of the Mystic phase the Faithful has X or less T.F. in his reserve, then it does
    not empty" (so it empties); estimated: POW Gems, and FAI + 1 per friend in a 10 cm Aura of Faith."""
    rules = mystic_rules()
    assert (rules.aura_of_faith, rules.counter_range, rules.focus_penalty) == (10.0, 20.0, 1)
    assert [c.name for c in rules.cards] == ["Fire dart", "Moon's fang", "Healing tide", "Wrath of Merin",
                                             "Blessing of the Lion"]
    s = shrine(g)
    assert [(s.fighter(k).gems, s.fighter(k).faith) for k in (MAGE, PRIEST, SHAMAN, GUARD)] == [
        (4, 0), (0, 6), (4, 0), (0, 0)]  # the priest: FAI 4 + the magician and the guard in his aura


def test_a_spell_shows_its_exact_odds_and_the_enemy_may_counter_it(g: Game) -> None:
    """"use counter-magic or censure"; "counterspell spells … in counterspell range" (the seed's words)."""
    s = facing_off(g)
    offered = [lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "cast"]
    assert DART in offered
    preview = g.preview(s, DART)
    works = success_odds(s.fighter(MAGE), mystic_rules().card("Fire dart"))  # type: ignore[arg-type]
    assert dict(preview.headline)["Fire dart works (POW vs 5)"] == pytest.approx(float(works))
    assert float(works) == pytest.approx(5 / 6)  # D6 + 4 ≥ 5: all but a natural 1 (estimated difficulty 5)
    assert dict(preview.headline)["may counter it"] == SHAMAN
    out = next(g.apply(replace(s, rng=RngState.from_seed(i)), DART) for i in range(40)
               if g.apply(replace(s, rng=RngState.from_seed(i)), DART).state.casting)
    assert out.chance[0].request == preview.draws[0]  # preview = roll: the POW test drawn is the one announced
    cast = out.state
    assert (cast.casting, cast.to_act, cast.fighter(MAGE).gems, cast.fighter(MAGE).activated) == (
        (MAGE, "Fire dart", SHAMAN), "B", 3, True)
    assert state_from_json(state_to_json(cast)) == cast
    answers = g.legal_actions(cast)
    assert [lg.action["kind"] for lg in answers] == ["counter", "let"] and g.policy(cast) == answers[0].action
    countered = g.apply(cast, answers[0].action)
    assert countered.chance[0].request == g.preview(cast, answers[0].action).draws[0]
    assert countered.state.fighter(SHAMAN).gems == 3 and countered.state.casting == ()
    let = g.apply(cast, answers[1].action)
    assert let.chance[0].request.label == f"damage roll: Fire dart on {SHAMAN}"
    assert let.state.to_act == "B"  # the Wolfen activate next


def test_a_countered_mystic_loses_his_focus_unless_focus_keeps_it(g: Game) -> None:
    """Focus: "does not lose focus when successfully subjected to counter-magic"; losing it: -1 to POW (estimated
    from Harassment's "-1 … which cumulates with that of losing the focus for Mystics")."""
    s = replace(facing_off(g), to_act="B", first="B", leader="B")
    dart = {**DART, "side": "B", "fighter": SHAMAN, "target": MAGE}
    for i in range(200):
        cast = g.apply(replace(s, rng=RngState.from_seed(i)), dart).state
        if not cast.casting:
            continue
        out = g.apply(cast, {"kind": "counter", "side": "A", "fighter": MAGE})
        if "does nothing" in str(out.report[0]["text"]):
            shaman = out.state.fighter(SHAMAN)
            assert shaman.unfocused and "loses his focus" in str(out.report[0]["text"])
            fang = mystic_rules().card("Moon's fang")  # difficulty 7: POW 3 needs a 4, POW 4 a 3
            assert fang is not None and success_odds(shaman, fang) < success_odds(s.fighter(SHAMAN), fang)
            break
    else:
        raise AssertionError("no seed counters the dart")
    mage_cast = g.apply(replace(facing_off(g), rng=RngState.from_seed(3)), DART).state
    assert not mage_cast.fighter(MAGE).unfocused  # Focus: not even at risk


def test_a_miracle_heals_a_wounded_friend_and_refusals_name_why(g: Game) -> None:
    s = facing_off(g)
    s = s.with_fighters(replace(s.fighter(GUARD), hp=2))
    bless = {"kind": "cast", "side": "A", "fighter": PRIEST, "spell": "Blessing of the Lion", "target": GUARD}
    assert bless in [lg.action for lg in g.legal_actions(s)]
    assert dict(g.preview(s, bless).headline)["heals"] == "1 HP"
    out = next(o for i in range(40) if "recovers" in str((o := g.apply(replace(s, rng=RngState.from_seed(i)),
                                                                       bless)).report))
    assert out.state.fighter(GUARD).hp == 3 and out.state.fighter(PRIEST).faith == 4
    with pytest.raises(IllegalActionError, match="is not a Magician"):
        g.apply(s, {**DART, "fighter": PRIEST})
    with pytest.raises(IllegalActionError, match="no spell or miracle 'Lightning'"):
        g.apply(s, {**DART, "spell": "Lightning"})
    with pytest.raises(IllegalActionError, match="heals a wounded friend"):
        g.apply(s, {**bless, "target": PRIEST})
    poor = s.with_fighters(replace(s.fighter(MAGE), gems=0))
    with pytest.raises(IllegalActionError, match="costs 1 Gems: Alahan magician has 0"):
        g.apply(poor, DART)
    assert g.parse_words(s, ["cast", "Alahan", "magician", "Fire", "dart", "Wolfen", "shaman"]) == DART
    assert g.parse_words(s, ["call", "Alahan", "priest", "Blessing", "of", "the", "Lion", "Alahan", "guard"]) == bless


def test_an_unbowed_mystic_keeps_his_focus_when_countered(g: Game) -> None:
    """Unbowed: "A Mystic with this ability cannot lose his focus"."""
    s = replace(facing_off(g), to_act="B", first="B", leader="B")
    shaman = s.fighter(SHAMAN)
    s = s.with_fighters(replace(shaman, card=shaman.card.model_copy(update={"abilities": ["Unbowed"]})))
    dart = {**DART, "side": "B", "fighter": SHAMAN, "target": MAGE}
    for i in range(200):
        cast = g.apply(replace(s, rng=RngState.from_seed(i)), dart).state
        out = g.apply(cast, {"kind": "counter", "side": "A", "fighter": MAGE}) if cast.casting else None
        if out is not None and "does nothing" in str(out.report[0]["text"]):
            assert not out.state.fighter(SHAMAN).unfocused and "keeps his focus" in str(out.report[0]["text"])
            return
    raise AssertionError("no seed counters the dart")
