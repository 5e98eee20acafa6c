"""Rule tests of the Ex illis battle engine: the morale loop — routing, fleeing, morale damage of
routers, Rally, Leadership of Heroes and Generals, Soulless, Generic, Enraged, Laborious.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Morale",
"Characters" and "Special Rules").
"""

from __future__ import annotations

import pytest
from exillis_battle_kit import (
    act,
    battle,
    chances,
    do,
    kinds,
    legal,
    nobody_acts,
    put,
    reports,
    setc,
    tables,
    unit,
    zone,
)

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.exillis.aftermath import Death, StaticModifier
from rulekeeper.rulesets.exillis.battle.morale_loop import after_deaths, flee, leadership, morale_in_zone, rally
from rulekeeper.rulesets.exillis.battle.turnbar import effective_ini

# -- Routing ----------------------------------------------------------------------------------


def _broken_pair():
    """C2: B:Vileins and B:Billmen side by side; the Vileins are Broken (morale -5)."""
    s = battle([unit("Serjants (Sword)", "A1")], [unit("Vileins", "C2"), unit("Billmen", "C2")])
    return setc(s, "B:Vileins", morale=-5.0)


def test_broken_unit_routs_when_a_friendly_model_dies_in_its_zone():
    """"When a unit drops below 0 Morale Points, it becomes Broken. Broken units will Rout the next time
    a friendly model dies in their zone."."""
    s = _broken_pair()
    before = tuple(u.c for u in s.in_zone(zone(s, "C2")))
    death = Death("B", "B:Billmen", "B:Billmen #1", 2.0)
    s = setc(s, "B:Billmen", hp=(0.0, *s.unit("B:Billmen").c.hp[1:]))
    s2, _ = morale_in_zone(s, zone(s, "C2"), [death], [], before)
    assert s2.unit("B:Vileins").c.fleeing is True
    assert s2.unit("B:Billmen").c.fleeing is False
    # (2 / 32) x 80 x MrlS 1.33 = 6.65 for the Vileins, x 1.0 = 5 for the Billmen
    assert s2.unit("B:Vileins").c.morale == pytest.approx(-5.0 - 6.65)
    assert s2.unit("B:Billmen").c.morale == pytest.approx(80.0 - 5.0)


def test_a_casualty_that_breaks_a_unit_does_not_also_rout_it():
    """"Broken units will Rout the next time a friendly model dies in their zone." (default reading:
    the casualty that breaks the unit is not "the next time")."""
    s = setc(_broken_pair(), "B:Vileins", morale=3.0)
    before = tuple(u.c for u in s.in_zone(zone(s, "C2")))
    s = setc(s, "B:Billmen", hp=(0.0, *s.unit("B:Billmen").c.hp[1:]))
    s2, _ = morale_in_zone(s, zone(s, "C2"), [Death("B", "B:Billmen", "B:Billmen #1", 2.0)], [], before)
    v = s2.unit("B:Vileins").c
    assert v.morale == pytest.approx(3.0 - 6.65) and v.morale < 0
    assert v.fleeing is False


def test_broken_unit_routs_on_a_static_penalty():
    """"If a unit is already Broken and suffers any static negative morale modifiers, it will become
    Fleeing."."""
    s = _broken_pair()
    s2, _ = morale_in_zone(s, zone(s, "C2"), [], [StaticModifier("B:Vileins", -10.0, "test"),
                                                  StaticModifier("B:Billmen", -10.0, "test")])
    assert s2.unit("B:Vileins").c.fleeing is True
    assert s2.unit("B:Billmen").c.fleeing is False
    assert s2.unit("B:Billmen").c.morale == pytest.approx(70.0)


def _fleeing_at_b3(hero_zone: str | None = None, friends_zone: str | None = None):
    """6 x 5 board; A:Billmen Fleeing at B3 (nearest edge: A3)."""
    a = [unit("Billmen", "B3")]
    if hero_zone:
        a.append(unit("Longbowmen", hero_zone, hero="Marrenne"))
    if friends_zone:
        a.append(unit("Arbalestiers", friends_zone))
    s = battle(a, [unit("Vileins", "F5")], width=6, height=5)
    return setc(s, "A:Billmen", morale=-30.0, fleeing=True)


def test_fleeing_unit_runs_to_the_nearest_edge():
    """"While fleeing, the unit will try to either run toward a Hero or the nearest battlefield
    edge."."""
    s = _fleeing_at_b3()
    s2, notes, _, _ = flee(s, "A:Billmen", Fate.from_seed(1), tables())
    assert s2.unit("A:Billmen").zone == zone(s, "A3")
    assert s2.unit("A:Billmen").status == "active"


def test_fleeing_unit_runs_toward_a_hero():
    """"While fleeing, the unit will try to either run toward a Hero or the nearest battlefield
    edge."."""
    s = _fleeing_at_b3(hero_zone="E3")
    s2, _, _, _ = flee(s, "A:Billmen", Fate.from_seed(1), tables())
    assert s2.unit("A:Billmen").zone == zone(s, "C3")


def test_fleeing_unit_leaves_the_board_from_an_edge():
    """"If it reaches the battlefield edge, it is removed from the game." / "If a unit routs outside the
    board, it is removed from the game."."""
    s = put(_fleeing_at_b3(), "A:Billmen", zone="A3")
    s2, notes, _, _ = flee(s, "A:Billmen", Fate.from_seed(1), tables())
    b = s2.unit("A:Billmen")
    assert (b.status, b.zone, b.on_board) == ("fled", None, False)
    assert notes == ["A:Billmen routs off the battlefield"]


def test_fleeing_unit_only_flees():
    """"Compulsory actions, like routing, bypass the normal turn sequence" — a fleeing unit never acts
    voluntarily."""
    s = act(_fleeing_at_b3(), "A:Billmen")
    assert [lg.action.kind for lg in legal(s)] == ["flee"]
    o = do(s, "flee", "A:Billmen")
    assert o.state.unit("A:Billmen").zone == zone(s, "A3")


def test_fleeing_unit_flees_on_its_turn_without_being_asked():
    """"Compulsory actions, like routing, bypass the normal turn sequence and take place
    immediately."."""
    s = nobody_acts(_fleeing_at_b3())
    s = act(put(put(s, "A:Billmen", acp=990.0), "B:Vileins", acp=1500.0), "B:Vileins")
    o = do(s, "wait", "B:Vileins")
    assert [e.data["why"] for e in o.events if e.kind == "flee"][:1] == ["flees on its turn"]
    assert o.state.unit("A:Billmen").zone == zone(s, "A3")
    assert "A:Billmen" not in o.state.active


def test_router_damages_the_morale_of_allies_where_it_ends():
    """"Routing models who end their turn in a zone with friendly miniatures in them cause morale
    damage to their allies. The calculation is: Morale penalty = Point value of the fleeing unit /
    Total point value of the army x 100"."""
    s = _fleeing_at_b3(friends_zone="A3")
    billmen, total = s.unit("A:Billmen").points, s.army_total("A")
    assert (billmen, total) == (43, 77)
    s2, _, _, _ = flee(s, "A:Billmen", Fate.from_seed(1), tables())
    assert s2.unit("A:Billmen").zone == zone(s, "A3")
    # Arbalestiers: Basic Morale 70, MrlS 100 %
    assert s2.unit("A:Arbalestiers").c.morale == pytest.approx(70.0 - 43 / 77 * 100)


def test_router_damages_allies_even_where_a_hero_stands():
    """"Routing models who end their turn in a zone with friendly miniatures in them cause morale
    damage to their allies." — also when a Hero is among them (the router still Flees)."""
    s = _fleeing_at_b3(hero_zone="C3")
    s2, _, _, _ = flee(s, "A:Billmen", Fate.from_seed(1), tables())
    assert s2.unit("A:Billmen").zone == zone(s, "C3")
    assert s2.unit("A:Billmen").c.fleeing is True  # -30 + 10 Leadership: still negative
    before = s.unit("A:Longbowmen").c.morale
    expected = before - s.unit("A:Billmen").points / s.army_total("A") * 100
    assert s2.unit("A:Longbowmen").c.morale == pytest.approx(expected)


def test_fleeing_unit_that_reaches_a_hero_gains_its_leadership():
    """"If a fleeing unit reaches a Hero, it will gain this Hero's Leadership bonus (if positive)."."""
    s = put(_fleeing_at_b3(hero_zone="D3"), "A:Billmen", zone="C3")
    s2, _, _, _ = flee(s, "A:Billmen", Fate.from_seed(1), tables())
    assert s2.unit("A:Billmen").zone == zone(s, "D3")
    assert s2.unit("A:Billmen").c.morale == pytest.approx(-30.0 + 10.0)


def test_laborious_unit_that_flees_is_destroyed():
    """"Laborious Movements: ... When it flees, it is considered destroyed."."""
    s = battle([unit("Mangonel", "C3")], [unit("Vileins", "F5")], width=6, height=5)
    s = setc(s, "A:Mangonel", morale=-10.0, fleeing=True)
    s2, _, _, _ = flee(s, "A:Mangonel", Fate.from_seed(1), tables())
    assert s2.unit("A:Mangonel").status == "destroyed"


# -- Rally ------------------------------------------------------------------------------------


def _rally_position():
    s = battle([unit("Longbowmen", "B2", hero="Marrenne"), unit("Billmen", "C3"), unit("Arbalestiers", "E4")],
               [unit("Vileins", "E1")], general_a="Marrenne")
    s = setc(s, "A:Billmen", morale=-20.0, fleeing=True)
    s = setc(s, "A:Arbalestiers", morale=-20.0)
    return act(nobody_acts(s), "A:Longbowmen")


def test_general_rallies_broken_units_in_range():
    """"Generals can perform a Rally, which gives their Leadership to every Broken unit within range and
    stops them from routing."."""
    s = _rally_position()
    assert "rally" in kinds(s)
    o = do(s, "rally", "A:Longbowmen")
    b = o.state.unit("A:Billmen").c
    assert b.fleeing is False
    assert b.morale == pytest.approx(-20.0 + 10.0)
    far = o.state.unit("A:Arbalestiers").c  # 3 zones away: out of range
    assert far.morale == pytest.approx(-20.0)


def test_only_a_general_rallies():
    """"Generals can perform a Rally" (a Hero who is not General cannot)."""
    s = battle([unit("Longbowmen", "B2", hero="Marrenne"), unit("Billmen", "C3")], [unit("Vileins", "E1")])
    s = act(setc(s, "A:Billmen", morale=-20.0), "A:Longbowmen")
    assert "rally" not in kinds(s)


def test_rally_needs_a_broken_unit_in_range():
    """"gives their Leadership to every Broken unit within range"."""
    s = _rally_position()
    s = act(setc(setc(s, "A:Billmen", morale=30.0, fleeing=False), "A:Arbalestiers", morale=-5.0), "A:Longbowmen")
    assert "rally" not in kinds(s)


def test_rally_function_gives_the_generals_leadership():
    """"Generals can perform a Rally, which gives their Leadership to every Broken unit within range"."""
    s = _rally_position()
    s2, notes = rally(s, "A:Marrenne", tables())
    assert notes == ["A:Billmen rallies (+10 morale)"]


# -- Leadership -------------------------------------------------------------------------------


def _led():
    """A: Billmen led by a Dismounted Baneret, Longbowmen led by the General (Marrenne), Vileins and
    Soffrances alone. B: Franc Chevalers with a Marrenne (not General)."""
    return battle(
        [unit("Billmen", "A1", hero="Dismounted Baneret"), unit("Longbowmen", "A2", hero="Marrenne"),
         unit("Vileins", "A3"), unit("Soffrances", "A4")],
        [unit("Franc Chevalers", "E4", hero="Marrenne")],
        general_a="Marrenne",
    )


def test_hero_leadership_modifies_the_retinues_basic_morale():
    """"If you attach a Hero to a unit, their Leadership will modify the unit's Basic Morale." /
    "Leadership bonuses or penalties are not affected by Morale Sensitivity."."""
    s = _led()
    fc = s.unit("B:Franc Chevalers")  # Basic Morale 90, MrlS 80 %: +10 exactly
    assert (fc.leadership, fc.c.morale) == (10.0, 100.0)


def test_general_leadership_applies_to_the_whole_army():
    """"If a General is present, his/her Leadership is applied to the whole army." / "If a unit
    receives Leadership from more than one Character (Hero and General), the final Leadership
    perceived is the total of all Leaderships available."."""
    s = _led()
    assert s.unit("A:Longbowmen").leadership == 10.0  # its own Hero is the General: counted once
    assert s.unit("A:Longbowmen").c.morale == 90.0
    assert s.unit("A:Billmen").leadership == 20.0  # own Hero + General
    assert s.unit("A:Billmen").c.morale == 100.0


def test_generic_units_get_half_more_leadership():
    """"Generic: Basic Leadership of allied Heroes increases by 50%."."""
    s = _led()
    assert s.unit("A:Vileins").leadership == 15.0
    assert s.unit("A:Vileins").c.morale == 85.0


def test_soulless_units_get_no_leadership():
    """"Soulless: This unit does not receive the Basic Leadership value of allied Heroes."."""
    s = _led()
    assert leadership(s, s.unit("A:Soffrances"), tables()) == 0.0
    assert s.unit("A:Soffrances").c.morale == 70.0


def test_death_of_a_hero_turns_its_bonus_into_a_penalty():
    """"If a Hero or a General dies, their Leadership bonus is transformed into a penalty." / "A
    leader's death ... creates a permanent negative modifier equivalent to the previous Leadership
    bonus."."""
    s = _led()
    s = put(s, "A:Dismounted Baneret", status="destroyed", zone=None)
    s2, notes = after_deaths(s, tables())
    b = s2.unit("A:Billmen")
    assert b.c.morale == pytest.approx(100.0 - 20.0)  # +10 bonus becomes -10
    assert b.leadership == 10.0  # the General's is kept
    assert s2.unit("A:Longbowmen").c.morale == 90.0


def test_death_of_the_general_hits_the_whole_army():
    """"If a Hero or a General dies, their Leadership bonus is transformed into a penalty."."""
    s = put(_led(), "A:Marrenne", status="destroyed", zone=None)
    s2, _ = after_deaths(s, tables())
    assert s2.unit("A:Longbowmen").c.morale == pytest.approx(90.0 - 20.0)
    assert s2.unit("A:Billmen").c.morale == pytest.approx(100.0 - 20.0)
    assert s2.unit("A:Vileins").c.morale == pytest.approx(85.0 - 30.0)
    assert s2.unit("A:Soffrances").c.morale == 70.0
    assert s2.unit("B:Franc Chevalers").c.morale == 100.0


def test_broken_unit_losing_its_leader_flees():
    """"If a unit is already Broken and suffers any static negative morale modifiers, it will become
    Fleeing." (a leader's death is a static modifier)."""
    s = setc(_led(), "A:Billmen", morale=-1.0)
    s = put(s, "A:Dismounted Baneret", status="destroyed", zone=None)
    s2, _ = after_deaths(s, tables())
    assert s2.unit("A:Billmen").c.fleeing is True


# -- Soulless ---------------------------------------------------------------------------------


def test_soulless_with_negative_morale_is_disabled():
    """"Soulless: ... If its morale turns negative, the unit is disabled."."""
    s = battle([unit("Soffrances", "B2")], [unit("Vileins", "C2")])
    s = act(setc(s, "A:Soffrances", morale=-1.0), "A:Soffrances")
    assert [(lg.action.kind, lg.acp) for lg in legal(s)] == [("wait", 1000.0)]
    ok = act(setc(s, "A:Soffrances", morale=0.0), "A:Soffrances")
    assert "charge" in kinds(ok)


def test_disabled_unit_is_skipped_on_the_turn_bar():
    """"Soulless: ... If its morale turns negative, the unit is disabled."."""
    s = battle([unit("Billmen", "B2")], [unit("Soffrances", "E2")])
    s = nobody_acts(setc(s, "B:Soffrances", morale=-5.0))
    s = act(put(s, "B:Soffrances", acp=900.0), "A:Billmen")
    o = do(s, "wait", "A:Billmen")
    assert o.state.active == ("A:Billmen",)
    assert "B:Soffrances is disabled and cannot act" in [r["text"] for r in reports(o, "note")]
    assert o.state.unit("B:Soffrances").zone == zone(s, "E2")


# -- Enraged ----------------------------------------------------------------------------------


def test_enraged_never_routs_on_a_static_penalty():
    """"Enraged: ... If its morale falls negative, its morale state becomes Furious." (it does not
    rout)."""
    s = battle([unit("Serjants (Sword)", "A1")], [unit("Emissarius", "C2")])
    s = setc(s, "B:Emissarius", morale=-5.0)
    s2, _ = morale_in_zone(s, zone(s, "C2"), [], [StaticModifier("B:Emissarius", -10.0, "test")])
    e = s2.unit("B:Emissarius").c
    assert e.fleeing is False and e.morale == pytest.approx(-15.0)


def test_furious_gains_20_percent_initiative():
    """"While Furious, the Emissarius gains 20% Initiative and Strength, but loses 20% Accuracy and
    Toughness."."""
    s = battle([unit("Serjants (Sword)", "A1")], [unit("Emissarius", "C2")])
    assert effective_ini(s.unit("B:Emissarius"), s) == 100.0
    s = setc(s, "B:Emissarius", morale=-1.0)
    assert effective_ini(s.unit("B:Emissarius"), s) == pytest.approx(120.0)


def _enraged_melee(seed: int, morale: float):
    s = battle([unit("Franc Chevalers", "B2")], [unit("Emissarius", "C2"), unit("Vileins", "D2")], seed=seed)
    s = put(put(s, "B:Vileins", zone="C2"), "A:Franc Chevalers", zone="C2")
    s = setc(s, "B:Emissarius", morale=morale)
    return act(nobody_acts(s), "A:Franc Chevalers")


def test_enraged_never_routs_in_melee():
    """"Enraged: This unit only has a neutral morale state when its morale is positive. If its morale
    falls negative, its morale state becomes Furious." (a Furious unit does not rout)."""
    for seed in range(20):
        o = do(_enraged_melee(seed, -10.0), "fight", "A:Franc Chevalers")
        if reports(o, "melee")[0]["casualties"]:
            break
    else:
        pytest.fail("no casualty in 20 seeds")
    e = o.state.unit("B:Emissarius")
    assert e.status == "active" and e.c.fleeing is False


def test_enraged_is_only_neutral_with_positive_morale():
    """"Enraged: This unit only has a neutral morale state when its morale is positive."."""
    s = battle([unit("Emissarius", "B2")], [unit("Vileins", "C2")])
    s = act(nobody_acts(setc(put(s, "A:Emissarius", zone="C2"), "A:Emissarius", morale=150.0)), "A:Emissarius")
    roll = next(c for c in chances(do(s, "fight", "A:Emissarius"), "roll to hit") if "damage" not in c.request.label)
    assert "(Neutral)" in roll.request.explain[0]


def test_soulless_has_only_a_neutral_state():
    """"Soulless: ... Only has a basic morale state." / "The Soffrances' Morale Type, Soulless, only has a
    "Neutral" state and a "Disabled" one."."""
    s = battle([unit("Soffrances", "B2")], [unit("Vileins", "C2")])
    s = act(nobody_acts(setc(put(s, "A:Soffrances", zone="C2"), "A:Soffrances", morale=30.0)), "A:Soffrances")
    roll = next(c for c in chances(do(s, "fight", "A:Soffrances"), "roll to hit") if "damage" not in c.request.label)
    assert "(Neutral)" in roll.request.explain[0]
