"""Steps 1–6 beyond the seed example: several units, roundings, clamps, modifiers."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.rulesets.wartable import (
    Combatant,
    ModifierDef,
    UnitDef,
    allocate,
    block,
    default_data,
    hits_dealt,
    resolve_combat,
    round_half_up,
)

F = Fraction


def horde() -> UnitDef:
    return default_data().unit("Bloodless Horde")


def vanguard() -> UnitDef:
    return default_data().unit("Oathsworn Vanguard")


def test_round_half_up_is_not_bankers_rounding() -> None:
    assert round(2.5) == 2 and round(0.5) == 0  # what we must not use
    assert round_half_up(F(5, 2)) == 3
    assert round_half_up(F(1, 2)) == 1
    assert round_half_up(F(49, 10)) == 5 and round_half_up(F(44, 10)) == 4
    assert round_half_up(F(125, 100), 1) == F(13, 10)  # 1.25 -> 1.3 (banker's gives 1.2)
    assert round_half_up(F(1, 3), 1) == F(3, 10)
    assert round_half_up(F(-5, 2)) == -2  # halves go toward +infinity


def test_step3_hits_round_half_up() -> None:
    assert hits_dealt(F(25), F(10)) == 3  # 2.5 -> 3
    assert hits_dealt(F(24), F(10)) == 2  # 2.4 -> 2
    assert hits_dealt(F(100), F(70)) == 70


def test_step4_allocation_rounds_up() -> None:
    assert allocate(F(70), 3) == 24  # 23.33 -> 24
    assert allocate(F(90), 3) == 30
    assert allocate(F(1), 2) == 1
    assert allocate(F(50), 0) == 0


def test_step5_readings() -> None:
    assert block(F(30), F(55), "example") == (F(33, 2), F(33, 2), F(27, 2), F(14))
    assert block(F(30), F(55), "literal") == (F(33, 2), F(17), F(13), F(13))
    # Defense above 100 cannot block more than was allocated
    assert block(F(30), F(150), "example") == (F(30), F(30), F(0), F(0))


def test_one_vanguard_against_three_hordes_rounds_allocation_up() -> None:
    r = resolve_combat([vanguard()], [horde(), horde(), horde()])
    assert [c.label for c in r.combatants] == [
        "Oathsworn Vanguard",
        "Bloodless Horde #1",
        "Bloodless Horde #2",
        "Bloodless Horde #3",
    ]
    att, dfn = r.allocations
    assert (att.total_hits, att.share, att.per_unit) == (70, F(70, 3), 24)
    assert "-> 24 (rounded up)" in att.arithmetic()
    assert (dfn.total_hits, dfn.per_unit) == (90, 90)
    by = {b.label: b for b in r.blocks}
    # each Horde: 24 × 10/100 = 2.4 blocked, 21.6 -> 22 unblocked
    assert (by["Bloodless Horde #2"].blocked, by["Bloodless Horde #2"].unblocked) == (F(12, 5), 22)
    # Vanguard: 90 × 55/100 = 49.5 blocked, 40.5 -> 41 unblocked
    assert (by["Oathsworn Vanguard"].blocked, by["Oathsworn Vanguard"].unblocked) == (F(99, 2), 41)
    assert r.health_after("Oathsworn Vanguard") == 59
    assert all(r.health_after(f"Bloodless Horde #{i}") == 128 for i in (1, 2, 3))


def test_two_against_two_pools_each_sides_hits() -> None:
    a = UnitDef.make("Spear", 60, 45, 0)
    b = UnitDef.make("Bow", 41, 50, 0)
    t = UnitDef.make("Target", 100, 0, 0)
    r = resolve_combat([a, b], [t, t])
    assert [h.hits for h in r.hits[:2]] == [27, 21]  # 27 exactly, 20.5 -> 21
    assert r.allocations[0].total_hits == 48 and r.allocations[0].per_unit == 24
    assert r.health_after("Target #1") == 76 and r.health_after("Target #2") == 76
    assert r.allocations[1].total_hits == 0
    assert r.health_after("Spear") == 60


def test_health_clamps_at_zero() -> None:
    weak = UnitDef.make("Scouts", 10, 0, 0)
    r = resolve_combat([horde()], [weak])
    line = r.health[1]
    assert (line.before, line.unblocked, line.after, line.destroyed) == (10, 30, 0, True)
    assert "clamped at 0" in line.arithmetic()


def test_zero_health_units_do_not_fight() -> None:
    r = resolve_combat([vanguard()], [Combatant.of(horde(), health=0), horde()])
    assert r.excluded == ("Bloodless Horde #1",)
    assert [c.label for c in r.combatants] == ["Oathsworn Vanguard", "Bloodless Horde #2"]
    assert r.allocations[0].per_unit == 70
    with pytest.raises(ImpossibleRequestError):
        resolve_combat([Combatant.of(vanguard(), health=0)], [horde()])


def test_no_defenders_means_no_hits_taken() -> None:
    r = resolve_combat([vanguard()], [])
    assert r.allocations[0].targets == () and r.health_after("Oathsworn Vanguard") == 100
    assert any("No defending unit" in n for n in r.notes)


def test_current_health_marks_curses_and_actions_apply() -> None:
    mods = [
        ModifierDef("Blessed", "mark", "Blessed", "attack", F(15)),
        ModifierDef("Ash", "curse", "Ash", "defense", F(-30)),
        ModifierDef("Charge", "action", "charge", "attack", F(5), role="attacker"),
        ModifierDef("Ruin cover", "region_trait", "Ruin", "defense", F(10), role="defender", action="attack"),
    ]
    me = Combatant.of(vanguard(), health=86, marks=["blessed"], curses=["ASH"])
    r = resolve_combat([me], [horde()], ["Ruin"], modifiers=mods, action="charge")
    t = r.totals[0]
    assert t.health.total == 86
    assert t.attack.total == 50 + 15 + 5
    assert t.defense.total == 20 and t.defense.raw == 20
    # the Ruin modifier is for attack actions only: a charge does not get it
    assert r.totals[1].defense.total == 10


def test_curse_cannot_make_a_stat_negative() -> None:
    mods = [ModifierDef("Rot", "curse", "Rot", "defense", F(-80))]
    r = resolve_combat([horde()], [Combatant.of(vanguard(), curses=["Rot"])], modifiers=mods)
    d = r.totals[1].defense
    assert d.raw == -30 and d.total == 0 and "clamped at 0" in d.arithmetic()
    assert r.blocks[1].blocked == 0 and r.blocks[1].unblocked == 30


def test_stat_totals_round_to_a_tenth_or_whole() -> None:
    mods = [ModifierDef("Fatigue", "unit_trait", "Bloodless", "attack", F(-125, 100))]
    tenth = resolve_combat([horde()], [vanguard()], modifiers=mods)
    assert tenth.totals[0].attack.raw == F(1875, 100) and tenth.totals[0].attack.total == F(188, 10)
    assert tenth.hits[0].hits == 28  # 150 × 18.8/100 = 28.2 -> 28
    whole = resolve_combat([horde()], [vanguard()], (), {"stat_rounding": "whole"}, modifiers=mods)
    assert whole.totals[0].attack.total == 19 and whole.hits[0].hits == 29  # 28.5 -> 29


def test_unknown_region_trait_is_noted() -> None:
    r = resolve_combat([vanguard()], [horde()], ["Ruins"])
    assert r.totals[1].defense.total == 10
    assert any("'Ruins'" in n and "Ruin" in n for n in r.notes)


def test_negative_stats_are_refused() -> None:
    with pytest.raises(InvalidStatError, match="health"):
        UnitDef.make("Ghost", -1, 10, 10)
    with pytest.raises(InvalidStatError, match="defense"):
        UnitDef.make("Ghost", 1, 10, -10)
    with pytest.raises(InvalidStatError):
        Combatant.of(horde(), health=-5)


def test_exact_arithmetic_matches_decimal_half_up() -> None:
    for h in range(0, 200, 7):
        for a in range(0, 120, 3):
            expect = (Decimal(h) * Decimal(a) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)
            assert hits_dealt(F(h), F(a)) == int(expect)


def test_region_traits_must_be_a_list_not_options() -> None:
    with pytest.raises(TypeError):
        resolve_combat([horde()], [vanguard()], {"step5": "literal"})  # type: ignore[arg-type]
    r = resolve_combat([vanguard()], [horde()], "Ruin")
    assert r.region_traits == ("Ruin",) and r.totals[1].defense.total == 20


def test_rounding_health_up_never_heals() -> None:
    tiny = Combatant.of(UnitDef.make("Remnant", 50, 10, 0), health=F(1, 2))
    r = resolve_combat([tiny], [], (), {"stat_rounding": "whole"})
    assert r.totals[0].health.total == 1 and r.hits[0].hits == 0  # 1 × 10/100 = 0.1 -> 0
    assert (r.health[0].before, r.health[0].after) == (F(1, 2), F(1, 2))
    assert any("never adds Health" in n for n in r.notes)
