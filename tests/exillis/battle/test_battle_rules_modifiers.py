"""Modifiers with lifetimes (issue 29): every bonus and penalty ends exactly when its cause ends, and
floors never create morale. One regression test per fault of the issue, each quoting the seed.
"""

from __future__ import annotations

import math

from exillis_battle_kit import (
    act,
    battle,
    do,
    kinds,
    legal,
    nobody_acts,
    put,
    reports,
    scenario_dict,
    setc,
    tables,
    unit,
)

from rulekeeper.rulesets.exillis.battle.setup import initial_state
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.scenario import Scenario


def _vileins_under_the_floor():
    """Vileins (6) in a melee with Franc Chevalers and Soffrances; one Dark Presence drain kills a Vileins
    miniature: 20 − 17.7 (casualty) = 2.3, then Intimidation 6 vs 58 → −60 × 1.33 = −79.8: −77.5, read −60."""
    s = battle([unit("Franc Chevalers", "C2"), unit("Soffrances", "C2")],
               [unit("Vileins", "C2", miniatures=6), unit("Billmen", "E4")])
    s = setc(s, "B:Vileins", morale=20.0, hp=(0.5, 45.0, 45.0, 45.0, 45.0, 45.0))
    return do(act(nobody_acts(s), "A:Soffrances"), "wait", "A:Soffrances").state


def test_fault_1_a_routed_unit_gets_back_no_morale_it_never_lost() -> None:
    """Morale: "Each friendly casualty the unit witnesses causes a morale penalty"; Morale States: Broken is
    "between -1 and -60"; "Intimidation represents how the unit perceives its own chance of coming out of the
    melee victorious". The floor is where morale is read: when the melee ends, the Intimidation modifier is taken
    back and the casualties taken at the floor still count (it was −60 → +19.8, Shaky)."""
    s = _vileins_under_the_floor()
    v = s.unit("B:Vileins").c
    assert math.isclose(v.morale, -60.0) and math.isclose(v.intimidation_mod, -79.8)
    s = setc(s, "B:Vileins", hp=(0.0, 0.5, 45.0, 45.0, 45.0, 45.0))
    out = do(act(nobody_acts(s), "A:Soffrances"), "wait", "A:Soffrances")
    seen = next(m for m in reports(out, "morale") if m["unit"] == "B:Vileins")
    penalty = -(2 / 10) * 80 * v.stat("mrls")  # (Bulk of casualty / Total friendly bulk in the zone) x 80
    assert "Broken and witnessed a casualty: Fleeing" in seen["reasons"]
    after = out.state.unit("B:Vileins").c
    assert after.fleeing and after.intimidation_mod == 0
    assert math.isclose(after.morale, 20.0 - (2 / 12) * 80 * v.stat("mrls") + penalty, abs_tol=1e-9)
    assert after.morale < 0  # still Broken: no morale from the floor


def test_fault_1_a_penalty_at_the_floor_still_counts() -> None:
    """"Each friendly casualty the unit witnesses causes a morale penalty": at −60 the morale read cannot fall,
    but the penalty is kept, and shows once the Intimidation modifier ends."""
    s = _vileins_under_the_floor()
    v = s.unit("B:Vileins").c
    assert math.isclose(v.morale_base + v.intimidation_mod, 2.2666666666666657 - 79.8, abs_tol=1e-9)
    assert v.morale == -60.0


def _mendicum(extra_b: list | None = None):
    s = battle([unit("Mendicum", "A1"), unit("Billmen", "B2")], [unit("Vileins", "E4"), *(extra_b or [])])
    return act(nobody_acts(s), "A:Mendicum")


def _sing(s, n: int):
    for _ in range(n):
        s = act(nobody_acts(do(s, "verse", "A:Mendicum").state), "A:Mendicum")
    return s


def test_fault_2_a_verse_ends_when_the_singer_stops_singing() -> None:
    """Chant: "Verses' effects are continuous, as long as the unit does not perform any action other than a
    Verse, or becomes engaged." Two Verses: an ally 80 → 90; the singer waits: back to 80 (it stayed at 90)."""
    s = _mendicum()
    assert s.unit("A:Billmen").c.morale == 80.0
    s = _sing(s, 2)
    assert s.unit("A:Billmen").c.morale == 90.0
    after = do(s, "wait", "A:Mendicum").state
    assert after.unit("A:Mendicum").verses == 0
    assert after.unit("A:Billmen").c.morale == 80.0
    assert not after.unit("A:Billmen").c.modifiers


def test_fault_2_a_finale_ends_the_verses_and_adds_its_own_power() -> None:
    """Chant: "A Finale's power is proportional to the number of Verses used by this unit, but ends all active
    Verses." Two Verses then a Finale: 80 + 10 (the Finale, static) = 90, not 100."""
    out = do(_sing(_mendicum(), 2), "finale", "A:Mendicum").state
    assert out.unit("A:Billmen").c.morale == 90.0
    assert out.unit("A:Billmen").c.morale_base == 90.0 and not out.unit("A:Billmen").c.modifiers


def test_a_verse_ends_when_the_singer_becomes_engaged() -> None:
    """Chant: "... or becomes engaged." An enemy charges the singer: its Verses end, and their bonus with them."""
    s = _sing(_mendicum([unit("Hobelars", "C1")]), 2)
    s = put(s, "B:Hobelars", zone="B1")
    out = do(act(nobody_acts(s), "B:Hobelars"), "charge", "B:Hobelars", "A1")
    assert out.state.unit("A:Mendicum").verses == 0
    assert all(m.cause != "verse" for u in out.state.units for m in u.c.modifiers)
    assert out.state.unit("A:Billmen").c.morale == 80.0


def test_a_verse_reaches_only_allies_within_two_zones() -> None:
    """Chant: "Verses affect every allied unit within a range of 2 zones." An ally that moves 3 zones away loses it."""
    s = _sing(_mendicum(), 1)
    assert s.unit("A:Billmen").c.morale == 85.0
    s = put(s, "A:Billmen", zone="D2")
    out = do(act(nobody_acts(s), "A:Billmen"), "move", "A:Billmen", "D3")
    assert out.state.unit("A:Mendicum").verses == 1
    assert out.state.unit("A:Billmen").c.morale == 80.0


def test_two_singers_verses_stack() -> None:
    """Chant: "The same Verse cast by 2 different units has a cumulative effect."."""
    s = battle([unit("Mendicum", "A1"), unit("Mendicum", "A2"), unit("Billmen", "B2")], [unit("Vileins", "E4")])
    s = act(nobody_acts(s), "A:Mendicum")
    s = do(s, "verse", "A:Mendicum").state
    s = do(act(nobody_acts(s), "A:Mendicum (2)"), "verse", "A:Mendicum (2)").state
    assert s.unit("A:Billmen").c.morale == 90.0
    assert {m.source for m in s.unit("A:Billmen").c.modifiers} == {"A:Mendicum", "A:Mendicum (2)"}


def test_no_verse_is_offered_while_engaged() -> None:
    """A Verse sung in a melee would end at once ("... or becomes engaged"): it is not offered there."""
    s = battle([unit("Mendicum", "B2")], [unit("Vileins", "B2")])
    assert "verse" not in kinds(act(nobody_acts(s), "A:Mendicum"))


def _charge_vileins(reading: str | None = None):
    sc = Scenario.from_dict(scenario_dict([unit("Franc Chevalers", "B2")],
                                          [unit("Vileins", "C2"), unit("Soffrances", "E4")]), check=False)
    opts = ExIllisOptions.parse([f"charge_intimidation={reading}"] if reading else [])
    s = initial_state(sc, 1, tables(), options=opts)
    return do(act(nobody_acts(s), "A:Franc Chevalers"), "charge", "A:Franc Chevalers", "C2")


def test_fault_3_a_charge_breaks_before_its_casualties_are_witnessed() -> None:
    """Routing: "If a unit becomes or was already Broken and witnesses a casualty in its zone, it will become
    Fleeing." The charge's Intimidation (8 vs 24: −20 × 1.33) is set as it lands: the Vileins, Broken by the
    fourth casualty of the charge, flee at the fifth — not at some later casualty."""
    out = _charge_vileins()
    melee = reports(out, "melee")[0]
    v = next(m for m in melee["morale"] if m["unit"] == "B:Vileins")
    assert v["reasons"][0].startswith("intimidation 8 vs 24")
    assert "Broken and witnessed a casualty: Fleeing" in v["reasons"]
    assert out.state.unit("B:Vileins").c.fleeing


def test_fault_3_the_other_reading_is_an_option() -> None:
    """Option ``charge_intimidation=after-casualties``: the charge's casualties are counted first (the order of
    the seed's "Dynamic Modifiers" list), then the charge's static penalty, then Intimidation: Broken, not fleeing."""
    out = _charge_vileins("after-casualties")
    v = out.state.unit("B:Vileins").c
    assert not v.fleeing and v.morale < 0
    reasons = next(m for m in reports(out, "melee")[0]["morale"] if m["unit"] == "B:Vileins")["reasons"]
    assert reasons[0].startswith("casualty") and reasons[-1].startswith("intimidation")


def _wait_note(s) -> str:
    return next(lg.note for lg in legal(s) if lg.action.kind == "wait")


def test_fault_4_wait_recovers_what_its_note_says() -> None:
    """Fatigue and Veil: "If a unit is too tired, it can Wait for a turn to reduce the accumulated Fatigue Points
    and Veil Points by 50%. This can only be done if it is not in a melee." Flying: "If the Wait action is performed
    while flying, it does not allow the unit to restore Fatigue." Meditation: "75% ... instead of 50%"."""
    free = setc(act(nobody_acts(battle([unit("Billmen", "B2")], [unit("Vileins", "E4")])), "A:Billmen"),
                "A:Billmen", fatigue=8.0)
    assert _wait_note(free) == "recovers 50% of Fatigue and Veil"
    assert do(free, "wait", "A:Billmen").state.unit("A:Billmen").c.fatigue == 4.0
    melee = setc(act(nobody_acts(battle([unit("Billmen", "B2")], [unit("Vileins", "B2")])), "A:Billmen"),
                 "A:Billmen", fatigue=8.0)
    assert _wait_note(melee) == "recovers nothing in a melee"
    assert do(melee, "wait", "A:Billmen").state.unit("A:Billmen").c.fatigue == 8.0
    sky = setc(act(nobody_acts(battle([unit("Evocati", "B2")], [unit("Vileins", "E4")])), "A:Evocati"),
               "A:Evocati", fatigue=8.0, flying=True)
    assert _wait_note(sky) == "recovers nothing while flying"
    assert do(sky, "wait", "A:Evocati").state.unit("A:Evocati").c.fatigue > 8.0  # + flying fatigue, nothing back
    ground = setc(sky, "A:Evocati", flying=False)
    assert _wait_note(ground) == "recovers 75% of Fatigue and Veil"
    assert do(ground, "wait", "A:Evocati").state.unit("A:Evocati").c.fatigue == 2.0


def _drained(reading: str | None) -> float:
    sc = Scenario.from_dict(scenario_dict([unit("Soffrances", "B2"), unit("Vileins", "B2")], [unit("Billmen", "E4")]),
                            check=False)
    opts = ExIllisOptions.parse([f"dark_presence_drain={reading}"] if reading else [])
    s = act(nobody_acts(initial_state(sc, 1, tables(), options=opts)), "A:Soffrances")
    return do(s, "wait", "A:Soffrances").state.unit("A:Vileins").c.hp[0]


def test_fault_5_dark_presence_drains_exactly_two_percent() -> None:
    """Dark Presence: "Drains 2% of every miniature's life in the same zone." A 45-HP Vileins loses 0.9 HP, not 1;
    option ``dark_presence_drain=whole-hp`` rounds to whole Hit Points (at least 1)."""
    assert math.isclose(_drained(None), 45.0 - 0.9)
    assert _drained("whole-hp") == 44.0
