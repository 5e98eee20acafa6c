"""Delve tables as data: exact odds equal to the draws, gaps and overlaps refused by name."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.wartable.campaign import load_table, parse_table, roll_on, shipped_table

F = Fraction


def test_the_shipped_delve_table_is_marked_as_an_example() -> None:
    t = shipped_table("delve_example")
    assert t.example and t.estimate is not None and "table such as the example provided below" in t.estimate
    assert t.sides == 100
    assert t.odds() == (("Collapse", F(3, 20)), ("Restless dead", F(3, 20)), ("Empty halls", F(1, 4)),
                        ("Forgotten shrine", F(1, 5)), ("Hoard", F(3, 20)), ("Relic", F(1, 10)))
    assert sum(p for _, p in t.odds()) == 1
    assert t.entry("Relic").effects.items == ("Warding relic",) and (t.entry("Relic").low, t.entry("Relic").high) == (91, 100)


def test_recorded_odds_are_the_tables_exact_odds() -> None:
    t = shipped_table("delve_example")
    fate = Fate.from_seed(11)
    r = roll_on(t, fate, "Delve: The Barrow")
    assert fate.records == [r.chance]
    assert r.chance.request.label == "Delve: The Barrow"
    assert [(o, F(p).limit_denominator(1000)) for o, p in r.chance.request.odds()] == list(t.odds())
    assert [p for _, p in r.chance.request.odds()] == [float(p) for _, p in t.odds()]
    assert r.odds == dict(t.odds())[r.entry.result]
    # the entry is the one the uniform number selects on the cumulative exact odds
    acc, chosen = F(0), None
    for name, p in t.odds():
        acc += p
        if r.chance.u < acc:
            chosen = name
            break
    assert chosen == r.entry.result


def test_draws_follow_the_odds() -> None:
    t = shipped_table("delve_example")
    fate = Fate.from_seed(2026)
    n = 20_000
    counts = Counter(roll_on(t, fate).entry.result for _ in range(n))
    for name, p in t.odds():
        assert abs(counts[name] / n - float(p)) < 0.015, (name, counts[name])


def test_same_seed_same_rolls() -> None:
    t = shipped_table("delve_example")
    a, b = Fate.from_seed(5), Fate.from_seed(5)
    assert [roll_on(t, a).entry.result for _ in range(30)] == [roll_on(t, b).entry.result for _ in range(30)]


def test_weighted_table() -> None:
    t = parse_table({"table": "Prayers", "entries": [
        {"result": "Answered", "weight": 1, "effects": {"stability": 10}},
        {"result": "Unanswered", "weight": 3, "effects": {"stability": -5}}]}, "prayers.yaml")
    assert t.sides is None and t.odds() == (("Answered", F(1, 4)), ("Unanswered", F(3, 4)))
    assert t.entry("Unanswered").effects.stability == -5


def test_a_gap_is_refused_naming_the_entries() -> None:
    raw = {"table": "T", "dice": "d100", "entries": [
        {"result": "Low", "roll": "01-20"}, {"result": "High", "roll": "26-00"}]}
    with pytest.raises(DataFileError) as e:
        parse_table(raw, "gappy.yaml")
    assert e.value.path == "gappy.yaml"
    assert e.value.problems == [
        "entries[1].roll: no entry covers 21-25 (a gap between entries[0] 'Low' (1-20) and entries[1] 'High' (26-100))"]


def test_an_overlap_is_refused_naming_the_entries() -> None:
    raw = {"table": "T", "dice": "d20", "entries": [
        {"result": "A", "roll": "1-10"}, {"result": "B", "roll": "8-20"}]}
    with pytest.raises(DataFileError) as e:
        parse_table(raw, "overlap.yaml")
    assert e.value.problems == ["entries[1].roll: entries[1] 'B' (8-20) overlaps entries[0] 'A' (1-10) on 8-10"]


def test_a_short_die_is_refused_at_the_end() -> None:
    raw = {"table": "T", "dice": "d6", "entries": [{"result": "A", "roll": "1-4"}]}
    with pytest.raises(DataFileError, match=r"no entry covers 5-6 \(a gap after entries\[0\] 'A' \(1-4\)\)"):
        parse_table(raw, "short.yaml")


def test_shape_errors_name_file_and_field(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("table: T\ndice: d100\nentries:\n  - result: A\n    roll: '01-00'\n    weight: 2\n"
                 "  - result: B\n    roll: 101\n", encoding="utf-8")
    with pytest.raises(DataFileError) as e:
        load_table(p)
    assert e.value.path == str(p)
    assert any(x.startswith("entries[0]") and "not both" in x for x in e.value.problems)
    p.write_text("table: T\ndice: d100\nentries:\n  - {result: A, roll: '01-50'}\n  - {result: A, roll: 51-120}\n",
                 encoding="utf-8")
    with pytest.raises(DataFileError) as e:
        load_table(p)
    assert e.value.problems == ["entries[1].result: 'A' repeats entries[0]",
                                "entries[1].roll: expected a range such as '01-20' within 1-100, got '51-120'"]


def test_a_bad_die_is_refused() -> None:
    with pytest.raises(DataFileError, match="dice: expected a die such as 'd100'"):
        parse_table({"table": "T", "dice": "2d6", "entries": [{"result": "A", "roll": "2-12"}]}, "x.yaml")
