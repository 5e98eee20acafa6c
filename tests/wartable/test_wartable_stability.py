"""Enclave Stability effects after a battle."""

from __future__ import annotations

from fractions import Fraction

from rulekeeper.rulesets.wartable import (
    Combatant,
    EnclaveState,
    UnitDef,
    UnitOutcome,
    default_data,
    resolve_combat,
    stability_effects,
)

F = Fraction


def horde() -> UnitDef:
    return default_data().unit("Bloodless Horde")


def militia(health: int) -> UnitDef:
    return UnitDef.make("Militia", health, 0, 0, ["Mortal"])


def test_bloodless_attack_costs_a_tenth_of_its_health() -> None:
    r = resolve_combat([horde()], [militia(200)], enclave=EnclaveState("Hearthmere", F(60)))
    st = r.stability
    assert st is not None
    assert [(e.rule, e.delta) for e in st.effects] == [("bloodless_attack", -15)]
    # militia lost 30 of 200: not more than half
    assert (st.before, st.after, st.fallen) == (60, 45, False)


def test_bloodless_tenth_rounds_half_up() -> None:
    hurt = Combatant.of(horde(), health=145)  # 14.5 -> 15 (banker's rounding would give 14)
    r = resolve_combat([hurt], [militia(500)], enclave=EnclaveState("E", F(50)))
    assert r.stability is not None and r.stability.effects[0].delta == -15
    hurt2 = Combatant.of(horde(), health=144)  # 14.4 -> 14
    r2 = resolve_combat([hurt2], [militia(500)], enclave=EnclaveState("E", F(50)))
    assert r2.stability is not None and r2.stability.effects[0].delta == -14


def test_bloodless_health_after_option() -> None:
    fighter = UnitDef.make("Guard", 100, 50, 0)
    # horde takes 50 hits at Defense 10: 45 unblocked, 150 -> 105 -> 10.5 -> 11
    r = resolve_combat([horde()], [fighter], (), {"bloodless_health": "after"}, enclave=EnclaveState("E", F(50)))
    assert r.health_after("Bloodless Horde") == 105
    assert r.stability is not None and r.stability.effects[0].delta == -11


def test_enclave_unit_losing_more_than_half_costs_10() -> None:
    # 30 unblocked hits on a 59-Health militia: 30 > 29.5
    r = resolve_combat([horde()], [militia(59)], enclave=EnclaveState("E", F(80)))
    st = r.stability
    assert st is not None
    assert [(e.rule, e.delta) for e in st.effects] == [("bloodless_attack", -15), ("enclave_losses", -10)]
    assert st.after == 55 and st.total_delta == -25


def test_losing_exactly_half_costs_nothing() -> None:
    r = resolve_combat([horde()], [militia(60)], enclave=EnclaveState("E", F(80)))
    st = r.stability
    assert st is not None
    assert [e.rule for e in st.effects] == ["bloodless_attack"]
    assert st.after == 65


def test_losses_once_per_battle_or_per_unit() -> None:
    # 30 hits over two militias: 15 each, both lose more than half of 20
    args = ([horde()], [militia(20), militia(20)])
    once = resolve_combat(*args, enclave=EnclaveState("E", F(80)))
    each = resolve_combat(*args, (), {"enclave_loss": "per_unit"}, enclave=EnclaveState("E", F(80)))
    assert once.stability is not None and each.stability is not None
    assert [e.rule for e in once.stability.effects].count("enclave_losses") == 1
    assert [e.rule for e in each.stability.effects].count("enclave_losses") == 2
    assert (once.stability.after, each.stability.after) == (55, 45)


def test_attacked_without_defenders_falls() -> None:
    r = resolve_combat([horde()], [], enclave=EnclaveState("Hearthmere", F(70)))
    st = r.stability
    assert st is not None and st.fallen and st.after == 0
    assert [e.rule for e in st.effects] == ["bloodless_attack", "fallen"]
    assert st.to_dict()["after"] == 0 and st.to_dict()["fallen"] is True


def test_fallen_even_when_stability_unknown() -> None:
    r = resolve_combat([horde()], [], enclave=EnclaveState("E"))
    assert r.stability is not None and r.stability.fallen and r.stability.after == 0


def test_stability_never_below_zero() -> None:
    r = resolve_combat([horde()], [militia(500)], enclave=EnclaveState("E", F(5)))
    assert r.stability is not None and r.stability.after == 0 and not r.stability.fallen


def test_unknown_stability_gives_changes_only() -> None:
    r = resolve_combat([horde()], [militia(500)], enclave=EnclaveState("E"))
    assert r.stability is not None and r.stability.after is None and r.stability.total_delta == -15


def test_enclave_side_attacking_out_has_no_bloodless_penalty() -> None:
    # the Enclave's own unit attacks the Horde in its region; it loses 30 of 40 (> half)
    guard = UnitDef.make("Guard", 40, 10, 0, ["Mortal"])
    r = resolve_combat([guard], [horde()], enclave=EnclaveState("E", F(50), side="attackers"))
    st = r.stability
    assert st is not None
    assert [(e.rule, e.delta) for e in st.effects] == [("enclave_losses", -10)]
    assert st.after == 40 and not st.fallen


def test_no_enclave_no_stability() -> None:
    data = default_data()
    r = resolve_combat([data.unit("Oathsworn Vanguard")], [horde()], ["Ruin"])
    assert r.stability is None and r.to_dict()["stability"] is None


def test_stability_effects_is_pure_on_outcomes() -> None:
    outcomes = [
        UnitOutcome("H", "attackers", True, F(95), F(60)),
        UnitOutcome("G", "defenders", False, F(10), F(4)),
    ]
    st = stability_effects(EnclaveState("E", F(30)), outcomes)
    assert [(e.rule, e.delta) for e in st.effects] == [("bloodless_attack", -10), ("enclave_losses", -10)]
    assert st.after == 10
