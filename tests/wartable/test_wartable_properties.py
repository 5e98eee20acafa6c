"""Hypothesis properties of the combat arithmetic."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulekeeper.rulesets.wartable import (
    EnclaveState,
    UnitDef,
    allocate,
    block,
    hits_dealt,
    resolve_combat,
)

F = Fraction
TRAITS = ["Oathsworn", "Vanguard", "Bloodless", "Mortal"]
tenths = st.decimals(min_value=0, max_value=1000, places=1, allow_nan=False, allow_infinity=False)
pct = st.decimals(min_value=0, max_value=150, places=1, allow_nan=False, allow_infinity=False)


@st.composite
def units(draw: st.DrawFn) -> UnitDef:
    return UnitDef.make(
        "U",
        draw(tenths),
        draw(pct),
        draw(pct),
        draw(st.lists(st.sampled_from(TRAITS), unique=True)),
    )


sides = st.lists(units(), min_size=1, max_size=4)
options = st.fixed_dictionaries(
    {"step5": st.sampled_from(["example", "literal"]), "stat_rounding": st.sampled_from(["tenth", "whole"])}
)
regions = st.lists(st.sampled_from(["Ruin", "Forest"]), unique=True)


@settings(max_examples=200, deadline=None)
@given(sides, st.lists(units(), max_size=4), regions, options, st.none() | st.integers(0, 100))
def test_health_never_increases_and_never_goes_negative(
    attackers: list[UnitDef], defenders: list[UnitDef], region: list[str], opts: dict[str, str], stab: int | None
) -> None:
    assume(any(u.health > 0 for u in attackers))
    enclave = EnclaveState("E", None if stab is None else F(stab))
    r = resolve_combat(attackers, defenders, region, opts, enclave=enclave)
    for line, t, b in zip(r.health, r.totals, r.blocks, strict=True):
        assert 0 <= line.after <= line.before <= t.health.total
        assert line.after <= t.health.base  # the shipped data has no Health modifiers
        assert 0 <= b.blocked <= b.allocated and 0 <= b.unblocked <= b.allocated
    st_ = r.stability
    assert st_ is not None
    if st_.fallen:
        assert st_.after == 0
    if st_.after is not None and st_.before is not None:
        assert 0 <= st_.after <= st_.before


@settings(max_examples=300, deadline=None)
@given(tenths, pct, pct)
def test_hits_are_monotone_in_attack(health: Decimal, a1: Decimal, a2: Decimal) -> None:
    lo, hi = sorted((F(a1), F(a2)))
    assert hits_dealt(F(health), lo) <= hits_dealt(F(health), hi)
    assert hits_dealt(F(health), lo) >= 0


@settings(max_examples=150, deadline=None)
@given(sides, sides, st.integers(0, 3), st.decimals(0, 60, places=1), options)
def test_more_attack_never_leaves_a_defender_healthier(
    attackers: list[UnitDef], defenders: list[UnitDef], which: int, extra: Decimal, opts: dict[str, str]
) -> None:
    assume(any(u.health > 0 for u in attackers))
    i = which % len(attackers)
    u = attackers[i]
    stronger = attackers.copy()
    stronger[i] = UnitDef.make(u.name, u.health, u.attack + F(extra), u.defense, u.traits)
    weak = resolve_combat(attackers, defenders, (), opts)
    strong = resolve_combat(stronger, defenders, (), opts)
    for w, s in zip(weak.health, strong.health, strict=True):
        if w.side == "defenders":
            assert s.after <= w.after


@given(st.integers(0, 10_000), st.integers(1, 12))
def test_allocation_rounds_up_by_less_than_one_hit(total: int, n: int) -> None:
    per = allocate(F(total), n)
    assert per.denominator == 1
    assert total <= per * n < total + n


@given(st.integers(0, 500), pct)
def test_readings_of_step5_differ_by_at_most_one_hit(allocated: int, defense: Decimal) -> None:
    _, _, _, ex = block(F(allocated), F(defense), "example")
    _, _, _, lit = block(F(allocated), F(defense), "literal")
    assert 0 <= ex - lit <= 1


@settings(max_examples=50, deadline=None)
@given(sides, sides, regions, options)
def test_resolution_is_deterministic_and_json_able(
    attackers: list[UnitDef], defenders: list[UnitDef], region: list[str], opts: dict[str, str]
) -> None:
    import json

    assume(any(u.health > 0 for u in attackers))
    a = resolve_combat(attackers, defenders, region, opts).to_dict()
    b = resolve_combat(attackers, defenders, region, opts).to_dict()
    assert a == b
    assert json.loads(json.dumps(a)) == a
