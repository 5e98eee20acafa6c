"""Rounds: orders given at once, resolved in the documented phase order, on the Shroudfall map."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.wartable.campaign import (
    CampaignOptions,
    CampaignState,
    FaithOrder,
    Order,
    OrderError,
    load_campaign,
    resolve_round,
    shipped_table,
)

SHROUDFALL = Path(__file__).resolve().parents[3] / "examples" / "wartable" / "shroudfall.yaml"


def shroudfall() -> CampaignState:
    return load_campaign(SHROUDFALL)


def stabilities(state: CampaignState) -> dict[str, int]:
    return {e.name: int(e.stability) for e in state.enclaves}


def test_three_rounds_of_shroudfall() -> None:
    fate = Fate.from_seed(7)
    r1 = resolve_round(shroudfall(), [
        Order("Lantern Wardens", "move", "Lantern Hill"), Order("Barrow Horde", "delve"),
        Order("Hearthmere Guard", "reclaim"), Order("Ford Horde", "move", "Old Watch"),
    ], fate, faith_orders=[FaithOrder("Oathsworn", "Lantern Hill")])
    # Reclaim +20 (70 -> 90); Faith restores Lantern Hill to full (55 -> 100) for 1 Faith
    assert [(c.rule, c.enclave, c.before, c.after) for c in r1.changes] == [
        ("reclaim", "Hearthmere", 70, 90), ("faith", "Lantern Hill", 55, 100)]
    assert r1.state.faction("Oathsworn").faith == 0 and r1.state.round == 2
    assert r1.state.unit("Ford Horde").region == "Old Watch"
    assert [(x.entry.result, x.odds) for x in r1.rolls] == [("Forgotten shrine", shipped_table("delve_example").odds()[3][1])]
    assert [c.to_dict() for c in fate.records] == [r1.rolls[0].chance.to_dict()]

    # round 2: the Horde reaches Lantern Hill (-12); it was not present at the round's start, so
    # Downtime does not charge it again (issue 25: charged once in its arrival round)
    r2 = resolve_round(r1.state, [Order("Ford Horde", "move", "Lantern Hill")], fate)
    assert [(c.rule, c.before, c.after) for c in r2.changes] == [("bloodless_reach", 100, 88)]

    # round 3: it Attacks the Wardens: 24 hits, 12 blocked (Defense 50); 40 hits, 4 blocked (Defense 10)
    r3 = resolve_round(r2.state, [Order("Ford Horde", "attack", "Lantern Wardens")], fate)
    assert [(u.label, int(u.health)) for u in r3.state.units if u.region == "Lantern Hill"] == [
        ("Lantern Wardens", 68), ("Ford Horde", 84)]
    assert [(c.rule, c.before, c.after) for c in r3.changes] == [
        ("bloodless_reach", 88, 76), ("bloodless_downtime", 76, 68)]  # 84 / 10 = 8.4 -> 8
    assert stabilities(r3.state) == {"Hearthmere": 90, "Lantern Hill": 68} and r3.state.round == 4
    assert len(r3.battles) == 1 and r3.battles[0].health_after("Ford Horde") == 84


def test_same_orders_same_seed_same_round() -> None:
    orders = [Order("Barrow Horde", "delve")]
    a = resolve_round(shroudfall(), orders, Fate.from_seed(99))
    b = resolve_round(shroudfall(), orders, Fate.from_seed(99))
    assert a == b


def undefended_lantern_hill() -> CampaignState:
    """The Ford Horde already stands in Lantern Hill, whose Wardens are away at the Old Watch."""
    s = shroudfall()
    return replace(s, units=tuple(replace(u, region="Lantern Hill") if u.label == "Ford Horde" else u
                                  for u in s.units))


def test_a_hostile_unit_acting_in_an_undefended_enclave_makes_it_fallen() -> None:
    r = resolve_round(undefended_lantern_hill(), [], Fate.from_seed(1))
    lantern = r.state.enclave("Lantern Hill")
    assert (lantern.stability, lantern.fallen) == (0, True)
    assert [(c.rule, c.before, c.after, c.cause) for c in r.changes] == [("fallen", 55, 0, "Ford Horde")]
    # a Fallen Enclave cannot be restored by Faith, and the round says why
    r2 = resolve_round(r.state, [], Fate.from_seed(1), faith_orders=[FaithOrder("Oathsworn", "Lantern Hill")])
    assert "Oathsworn cannot restore Lantern Hill: it is Fallen" in r2.log


def test_holding_is_no_action_with_fallen_on_action() -> None:
    opts = CampaignOptions(fallen_on="action")
    r = resolve_round(undefended_lantern_hill(), [], Fate.from_seed(1), options=opts)
    lantern = r.state.enclave("Lantern Hill")
    assert (lantern.stability, lantern.fallen) == (43, False)  # only Downtime: 120 / 10 = 12
    # returning defenders stop the fall: the Wardens march back before the Horde acts
    r2 = resolve_round(undefended_lantern_hill(), [Order("Lantern Wardens", "move", "Lantern Hill")], Fate.from_seed(1))
    assert not r2.state.enclave("Lantern Hill").fallen


def test_reclaim_counts_once_per_enclave_and_lifts_a_fallen_one() -> None:
    s = shroudfall()
    s = replace(s, units=tuple(replace(u, region="Hearthmere") if u.label == "Lantern Wardens" else u for u in s.units))
    r = resolve_round(s, [Order("Hearthmere Guard", "reclaim"), Order("Lantern Wardens", "reclaim")], Fate.from_seed(1))
    assert stabilities(r.state)["Hearthmere"] == 90
    fallen = s.with_enclave(replace(s.enclave("Hearthmere"), stability=Fraction(0), fallen=True))
    r2 = resolve_round(fallen, [Order("Hearthmere Guard", "reclaim")], Fate.from_seed(1))
    assert (r2.state.enclave("Hearthmere").stability, r2.state.enclave("Hearthmere").fallen) == (20, False)


def test_downtime_every_second_round() -> None:
    opts = CampaignOptions(downtime_every=2, fallen_on="action")
    r = resolve_round(undefended_lantern_hill(), [], Fate.from_seed(1), options=opts)
    assert r.changes == ()  # round 1 has no Downtime


@pytest.mark.parametrize(("orders", "message"), [
    ([Order("Barrow Horde", "move", "Hearthmere")], "more than 1 border"),
    ([Order("Barrow Horde", "delve"), Order("barrow horde")], "two orders"),
    ([Order("Lantern Wardens", "reclaim")], "no Enclave of Oathsworn in Old Watch"),
    ([Order("Hearthmere Guard", "attack", "Lantern Wardens")], "both are Oathsworn"),
    ([Order("Hearthmere Guard", "delve")], "no Dungeon in Hearthmere"),
    ([Order("Ford Horde", "attack", "Nobody")], "got 'Nobody'"),
])
def test_refused_orders(orders: list[Order], message: str) -> None:
    with pytest.raises(OrderError, match=message):
        resolve_round(shroudfall(), orders, Fate.from_seed(1))


def test_faith_only_for_ones_own_enclave() -> None:
    with pytest.raises(OrderError, match="cannot spend Faith on Hearthmere"):
        resolve_round(shroudfall(), [], Fate.from_seed(1), faith_orders=[FaithOrder("Bloodless", "Hearthmere")])
