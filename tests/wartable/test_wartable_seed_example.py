"""The seed's worked example, number by number, and the Ruleset protocol."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.ruleset import Ruleset, find_ruleset
from rulekeeper.rulesets.wartable import CombatReport, WarTable, default_data, resolve_combat


def seed_example(**options: str) -> CombatReport:
    data = default_data()
    return resolve_combat([data.unit("Oathsworn Vanguard")], [data.unit("Bloodless Horde")], ["Ruin"], options)


def test_seed_example_oathsworn_vanguard_attacks_bloodless_horde_in_ruin() -> None:
    r = seed_example()
    oath, horde = r.totals
    assert (oath.label, horde.label) == ("Oathsworn Vanguard", "Bloodless Horde")
    # step 2: "its total Attack stat of 70", "Oathsworn ... Defense of 55", "Bloodless ... Defense of 20"
    assert (oath.health.total, oath.attack.total, oath.defense.total) == (100, 70, 55)
    assert (horde.health.total, horde.attack.total, horde.defense.total) == (150, 20, 20)
    assert [m.name for m in horde.defense.applied] == ["Ruin cover"]
    # step 3: "deals 70 hits", "deals 30 hits"
    assert [(h.label, h.hits) for h in r.hits] == [("Oathsworn Vanguard", 70), ("Bloodless Horde", 30)]
    # step 4: one unit per side, all hits to the single enemy
    assert [(a.side, a.total_hits, a.per_unit) for a in r.allocations] == [("attackers", 70, 70), ("defenders", 30, 30)]
    # step 5: "blocks 14 hits", "blocks 16.5 hits", "56 casualties", "13.5 casualties (rounded up to 14)"
    b_oath, b_horde = r.blocks
    assert (b_horde.allocated, b_horde.blocked, b_horde.unblocked) == (70, 14, 56)
    assert (b_oath.allocated, b_oath.blocked, b_oath.unblocked_exact, b_oath.unblocked) == (
        30,
        Fraction(33, 2),
        Fraction(27, 2),
        14,
    )
    # step 6: "reduced to 86 Health", "reduced to 94 Health"
    assert r.health_after("Oathsworn Vanguard") == 86
    assert r.health_after("Bloodless Horde") == 94
    assert r.stability is None and r.notes == ()


def test_seed_example_json_numbers() -> None:
    d = seed_example().to_dict()
    steps = {s["step"]: s["rows"] for s in d["steps"]}
    assert steps[2][0]["attack"]["total"] == 70 and steps[2][0]["defense"]["total"] == 55
    assert steps[2][1]["defense"]["total"] == 20
    assert [row["hits"] for row in steps[3]] == [70, 30]
    assert steps[5][0]["blocked"] == 16.5 and steps[5][0]["unblocked_exact"] == 13.5 and steps[5][0]["unblocked"] == 14
    assert steps[5][1]["blocked"] == 14 and steps[5][1]["unblocked"] == 56
    assert d["result"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}


def test_literal_step5_rounds_blocked_hits_up_giving_87() -> None:
    r = seed_example(step5="literal")
    b_oath, b_horde = r.blocks
    assert (b_oath.blocked_exact, b_oath.blocked, b_oath.unblocked) == (Fraction(33, 2), 17, 13)
    assert (b_horde.blocked, b_horde.unblocked) == (14, 56)
    assert r.health_after("Oathsworn Vanguard") == 87
    assert r.health_after("Bloodless Horde") == 94


def test_without_ruin_the_horde_blocks_only_7() -> None:
    data = default_data()
    r = resolve_combat([data.unit("Oathsworn Vanguard")], [data.unit("Bloodless Horde")])
    assert r.blocks[1].defense == 10 and r.blocks[1].blocked == 7
    assert r.health_after("Bloodless Horde") == 150 - 63


def test_wartable_is_a_ruleset_and_found_by_alias() -> None:
    wt = WarTable()
    assert isinstance(wt, Ruleset)
    for alias in ("wartable", "War Table", "war-table", "wt"):
        assert find_ruleset(alias) is WarTable
    assert {o.name for o in wt.options()} == {"step5", "stat_rounding", "enclave_loss", "bloodless_health"}
    assert {o.name: o.default for o in wt.options()}["step5"] == "example"
    names = {u["name"]: u for u in wt.roster()}
    assert names["Oathsworn Vanguard"]["traits"] == ["Oathsworn", "Vanguard", "Mortal"]
    assert (
        names["Bloodless Horde"]["health"],
        names["Bloodless Horde"]["attack"],
        names["Bloodless Horde"]["defense"],
    ) == (150, 20, 10)


def test_sample_resolution_is_the_seed_example_and_draws_nothing() -> None:
    fate = Fate.from_seed(7)
    res = WarTable().sample_resolution(fate)
    assert res.ruleset == "wartable" and res.kind == "combat"
    assert res.summary["result"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}
    assert res.chance == [] and fate.records == []
    assert res.to_dict()["summary"] == res.summary


@pytest.mark.parametrize("bad", ["Step5=Literal", "step-5=literal"])
def test_option_names_are_forgiving_about_case_but_not_spelling(bad: str) -> None:
    from rulekeeper.core.errors import UnknownNameError
    from rulekeeper.rulesets.wartable import parse_option_pairs, parse_options

    pairs = parse_option_pairs([bad])
    if bad.startswith("Step5"):
        assert parse_options(pairs).step5 == "literal"
    else:
        with pytest.raises(UnknownNameError, match="step5"):
            parse_options(pairs)
