"""Every Stability rule of the seed (003, "Stability Calculations"), each quoted by its test."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.rulesets.wartable import EnclaveState, UnitDef, default_data, resolve_combat
from rulekeeper.rulesets.wartable.campaign import (
    RULES,
    CampaignOptions,
    Enclave,
    FieldUnit,
    apply_change,
    attacked_directly,
    bloodless_downtime,
    bloodless_reach,
    enclave_losses,
    faith,
    from_battle,
    load_campaign,
    predetermined,
    reclaim,
)

F = Fraction
SEED = Path("/work/shared/seeds/003_6b0481bee4ea65e1.txt")
HEARTH = Enclave("Hearthmere", "Hearthmere", "Oathsworn", F(70))


def horde(health: int = 150, label: str = "Barrow Horde") -> FieldUnit:
    return FieldUnit(label, default_data().unit("Bloodless Horde"), "Bloodless", "Hearthmere", F(health))


def test_bloodless_reaching_an_enclave_costs_a_tenth_of_its_health() -> None:
    """ "Should a Bloodless unit reach or Attack an Enclave, the Stability will decrease by a tenth
    of the Bloodless unit's Health." """
    c = bloodless_reach(HEARTH, horde(150))
    assert (c.rule, c.before, c.after, c.delta) == ("bloodless_reach", 70, 55, -15)
    assert c.quote.startswith("Should a Bloodless unit reach or Attack an Enclave")
    assert bloodless_reach(HEARTH, horde(145)).after == 55  # 14.5 rounds half up to 15
    assert bloodless_reach(HEARTH, horde(144)).after == 56


def test_only_bloodless_units_reach_for_the_tenth() -> None:
    vanguard = FieldUnit("Guard", default_data().unit("Oathsworn Vanguard"), "Oathsworn", "Hearthmere", F(100))
    with pytest.raises(ImpossibleRequestError):
        bloodless_reach(HEARTH, vanguard)


def test_bloodless_present_at_the_start_of_downtime_likewise_costs_a_tenth() -> None:
    """ "If a Bloodless unit is present in an Enclave at the start of a round of Downtime, it will
    likewise decrease the Stability of the Enclave as the restless undead rampage and run amok." """
    c = bloodless_downtime(HEARTH, horde(120, "Ford Horde"))
    assert (c.rule, c.before, c.after, c.cause) == ("bloodless_downtime", 70, 58, "Ford Horde")
    assert "likewise decrease" in c.quote


def test_defender_losing_more_than_half_costs_ten() -> None:
    """ "Should the Enclave unit defending a settlement lose more than half of its current Health as
    the result of a single battle, the Stability of its Enclave will decrease by 10" """
    c = enclave_losses(HEARTH, "Hearthmere Guard", F(59), F(29))  # lost 30 > 29.5
    assert c is not None and (c.rule, c.before, c.after) == ("enclave_losses", 70, 60)
    assert enclave_losses(HEARTH, "Hearthmere Guard", F(60), F(30)) is None  # exactly half: nothing


def test_a_direct_attack_makes_the_enclave_fallen() -> None:
    """ "Should an Enclave be attacked directly, that is a Bloodless or other hostile unit is present
    in the region of an Enclave without any defenders present when it takes an action, the Stability
    of the Enclave will be reduced to 0, and the Enclave becomes "Fallen"." """
    c = attacked_directly(HEARTH, "Barrow Horde")
    assert (c.rule, c.before, c.after, c.fallen_before, c.fallen_after) == ("fallen", 70, 0, False, True)


def test_reclaim_raises_stability_by_twenty() -> None:
    """ "Likewise, the Reclaim action can raise the Stability of a region by 20 as the wards that
    safeguard it from the Shroud and the Bloodless are strengthened or renewed." """
    c = reclaim(HEARTH, "Hearthmere Guard")
    assert (c.rule, c.before, c.after) == ("reclaim", 70, 90)
    assert reclaim(replace(HEARTH, stability=F(95)), "G").after == 100  # capped at full
    assert reclaim(replace(HEARTH, stability=F(95)), "G", CampaignOptions(stability_cap="none")).after == 115


def test_reclaim_of_a_fallen_enclave_follows_the_option() -> None:
    fallen = replace(HEARTH, stability=F(0), fallen=True)
    c = reclaim(fallen, "G")
    assert (c.after, c.fallen_after) == (20, False)
    with pytest.raises(ImpossibleRequestError, match="reclaim_fallen=stays"):
        reclaim(fallen, "G", CampaignOptions(reclaim_fallen="stays"))


def test_faith_restores_a_non_fallen_enclave_to_full() -> None:
    """ "Spending Faith can also increase a non-Fallen Enclave's stability to full, please see Faith
    under Resources for more information." """
    c = faith(replace(HEARTH, stability=F(35), full=F(80)), "Oathsworn")
    assert (c.rule, c.before, c.after) == ("faith", 35, 80)
    with pytest.raises(ImpossibleRequestError, match="non-Fallen"):
        faith(replace(HEARTH, stability=F(0), fallen=True), "Oathsworn")


def test_predetermined_amounts_of_quests_and_events() -> None:
    """ "The consequences of some quests, battles, prayers, bounties, and world events may also
    directly reduce the Stability of a given Enclave by a predetermined amount" and "The rewards of
    many quests, prayers, bounties, and world events may increase the Stability of one or more
    Enclaves by a predetermined amount." """
    down = predetermined(HEARTH, F(-80), "Plague bounty failed")
    assert (down.after, down.quote.startswith("The consequences")) == (0, True)  # never below 0
    up = predetermined(HEARTH, F(5), "Hoard")
    assert (up.after, up.quote.startswith("The rewards")) == (75, True)


def test_a_battle_report_becomes_chained_campaign_changes() -> None:
    """The one-battle rules are reused: a Horde (150 / 10 = −15) hits a 59-Health militia for 30 (> 29.5: −10)."""
    d = default_data()
    militia = UnitDef.make("Militia", 59, 0, 0, ["Mortal"])
    r = resolve_combat([d.unit("Bloodless Horde")], [militia],
                       enclave=EnclaveState("Hearthmere", F(70)))
    assert r.stability is not None
    changes = from_battle(HEARTH, r.stability)
    assert [(c.rule, c.before, c.after) for c in changes] == [
        ("bloodless_reach", 70, 55), ("enclave_losses", 55, 45)]
    assert changes[-1].after == r.stability.after


def test_apply_change_puts_it_in_the_campaign() -> None:
    state = load_campaign("examples/wartable/shroudfall.yaml")
    after = apply_change(state, attacked_directly(state.enclave("Lantern Hill"), "Ford Horde"))
    lantern = after.enclave("Lantern Hill")
    assert (lantern.stability, lantern.fallen, after.enclave("Hearthmere").stability) == (0, True, 70)


@pytest.mark.skipif(not SEED.exists(), reason="the seed text is not on this machine")
def test_every_quote_is_the_seeds_own_words() -> None:
    from rulekeeper.rulesets.wartable.campaign import stability as st

    text = " ".join(SEED.read_text(encoding="utf-8").split())
    quotes = [st.QUOTE_BLOODLESS, st.QUOTE_DOWNTIME, st.QUOTE_LOSSES, st.QUOTE_FALLEN, st.QUOTE_RECLAIM,
              st.QUOTE_FAITH, st.QUOTE_DECREASE, st.QUOTE_INCREASE]
    for q in quotes:
        assert " ".join(q.split()) in text, q
    assert len(RULES) == 7


def test_downtime_actions_raise_the_targeted_enclave() -> None:
    """ "Some rituals and Downtime Actions can also increase the Stability of a targeted Enclave."
    The Downtime actions are Reclaim (the Enclave where the unit stands) and spending Faith (the Enclave
    named): each raises its target and no other."""
    from rulekeeper.core.chance import Fate
    from rulekeeper.rulesets.wartable.campaign import FaithOrder, Order, resolve_round

    state = load_campaign(Path(__file__).resolve().parents[3] / "examples" / "wartable" / "shroudfall.yaml")
    reclaimed = resolve_round(state, [Order("Hearthmere Guard", "reclaim")], Fate.from_seed(1))
    assert [(c.rule, c.enclave, c.before, c.after) for c in reclaimed.changes] == [("reclaim", "Hearthmere", 70, 90)]
    prayed = resolve_round(state, [], Fate.from_seed(1), faith_orders=[FaithOrder("Oathsworn", "Lantern Hill")])
    assert [(c.rule, c.enclave, c.before, c.after) for c in prayed.changes] == [("faith", "Lantern Hill", 55, 100)]
    assert prayed.state.enclave("Hearthmere").stability == 70
