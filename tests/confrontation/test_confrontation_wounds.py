"""The Wound Table as data, damage rolls on it, and the interactions the seed spells out."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.confrontation.abilities import ABILITIES, damage_hooks_of, shape_of
from rulekeeper.rulesets.confrontation.catalogue import ELSEWHERE, NOT_YET
from rulekeeper.rulesets.confrontation.effects import KeepOf2d6, compose
from rulekeeper.rulesets.confrontation.wounds import (
    WOUND_TABLE,
    damage_odds,
    damage_request,
    load_wound_table,
    parse_wound_table,
    roll_damage,
)

TABLE = load_wound_table()
DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "confrontation.md"


def test_the_shipped_table_is_marked_estimated_and_reads_its_lines() -> None:
    assert TABLE.estimated is True
    assert TABLE.lines == ("No effect", "Stunned", "Light", "Serious", "Critical", "Killed outright")
    assert [TABLE.line_of(r) for r in (-3, 1, 2, 3, 4, 7, 9, 10, 25)] == [0, 0, 1, 1, 2, 3, 4, 5, 5]


def oracle(strength: int, resilience: int, shift: int, cancel_at: int | None) -> dict[str, Fraction]:
    """Every (cancellation die, two damage dice) triple, read by hand from the table's `from` column. Third-edition
    rules: "2d6; the higher die + the attack's Strength − the target's Resilience is read on the Wound Table"."""
    out: dict[str, Fraction] = {}
    for cancel, die, other_die in itertools.product(range(1, 7), repeat=3):
        if cancel_at is not None and cancel >= cancel_at:
            line = "Cancelled (Survival instinct)"
        else:
            result = max(die, other_die) + strength - resilience
            index = max(i for i, start in enumerate((-(10**9), 2, 4, 6, 8, 10)) if result >= start)
            line = TABLE.lines[min(5, max(0, index + shift))]
        out[line] = out.get(line, Fraction(0)) + Fraction(1, 216)
    return out


def test_the_one_die_reading_is_still_loadable(tmp_path: Path) -> None:
    """`roll: "D6 + STR - RES"` reads one die (the estimate of issue 15); an unknown roll is refused."""
    text = WOUND_TABLE.read_text(encoding="utf-8").replace('roll: "2D6 highest + STR - RES"', 'roll: "D6 + STR - RES"')
    one = tmp_path / "one.yaml"
    one.write_text(text, encoding="utf-8")
    assert damage_odds(load_wound_table(one), 4, 3) == {"Stunned": Fraction(1, 3), "Light": Fraction(1, 3),
                                                        "Serious": Fraction(1, 3)}
    one.write_text(text.replace('roll: "D6 + STR - RES"', 'roll: "3D6"'), encoding="utf-8")
    with pytest.raises(DataFileError, match="`roll` must be"):
        load_wound_table(one)


@pytest.mark.parametrize(("strength", "resilience"), [(3, 3), (6, 2), (2, 7), (10, 1)])
def test_damage_odds_equal_the_oracle(strength: int, resilience: int) -> None:
    assert damage_odds(TABLE, strength, resilience) == oracle(strength, resilience, 0, None)
    bane = damage_hooks_of(["Bane/Elite", "Survival instinct"])
    assert damage_odds(TABLE, strength, resilience, bane) == oracle(strength, resilience, 1, 6)


def test_a_damage_draw_records_the_shown_odds() -> None:
    fate = Fate.from_seed(3)
    hooks = damage_hooks_of(["Bane/Acheron"])
    line = roll_damage(fate, "damage", TABLE, 5, 4, hooks)
    assert fate.records[-1].request == damage_request("damage", TABLE, 5, 4, hooks)
    assert line in ("Light", "Serious", "Critical")
    assert "wound table estimated" in fate.records[-1].request.explain


def test_bane_and_hard_boiled_cancel_each_other_out() -> None:
    """Bane: "If the targeted fighter is Hardboiled, then the effects of these two abilities on the Damage Roll
    cancel each other out" — even at the ends of the table, where either alone would be clamped."""
    both = damage_hooks_of(["Bane/Acheron", "Hard-boiled"])
    for strength, resilience in ((4, 3), (0, 9), (14, 0)):
        assert damage_odds(TABLE, strength, resilience, both) == damage_odds(TABLE, strength, resilience)
    assert damage_odds(TABLE, 0, 9, both) == {"No effect": 1}


def test_dreadful_and_a_best_of_several_dice_cancel_each_other_out() -> None:
    """Dreadful: "If the fighter benefits from an effect that allows him to roll several d6 for his COU test and
    use the best result, then the two effects cancel each other out and the roll is made in the usual way with
    just 1d6"."""
    hooks = [KeepOf2d6(False, frozenset({"COU"}))]
    with_dreadful = compose("COU", [*hooks, KeepOf2d6(True, frozenset({"COU"}))])
    assert with_dreadful == compose("COU", []) and with_dreadful.dice == 1
    assert shape_of("COU", ["Dreadful"]).dice == 2


BAD = [
    ("estimated: maybe\nlines: [{line: Stunned}, {line: Light, from: 2}]\n", "`estimated` must be true or false"),
    ("estimated: true\nlines: [{line: Stunned}]\n", "at least two lines"),
    ("estimated: true\nlines: [{line: Stunned}, {line: Grazed, from: 2}]\n", "line 2: `line` must be one of"),
    ("estimated: true\nlines: [{line: Stunned}, {line: Light, from: 4}, {line: Serious, from: 4}]\n",
     "`from` must increase"),
    ("estimated: true\nlines: [{line: Stunned, from: 1}, {line: Light, from: 4}]\n", "takes no `from`"),
    ("estimated: true\nlines: [{line: Light}, {line: Light, from: 4}]\n", "listed twice"),
    ("estimated: true\nopens: [1]\nlines: [{line: Stunned}, {line: Light, from: 4}]\n", "`opens` must be"),
    ("estimated: true\ncolour: red\nlines: [{line: Stunned}, {line: Light, from: 4}]\n", "unknown key 'colour'"),
    ("estimated: true\nestimated: false\n", "duplicate key"),
    ("- just a list\n", "must be a mapping"),
    ("estimated: true\nhp_lost: {Light: -1}\nlines: [{line: Stunned}, {line: Light, from: 4}]\n", "`hp_lost` must map"),
]


@pytest.mark.parametrize(("text", "problem"), BAD, ids=range(len(BAD)))
def test_a_bad_wound_table_is_a_typed_error_naming_the_file(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "my_book.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(problem)) as err:
        load_wound_table(path)
    assert "my_book.yaml" in str(err.value)


def test_a_missing_table_and_a_good_replacement(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="file not found"):
        load_wound_table(tmp_path / "nowhere.yaml")
    mine = parse_wound_table({"estimated": False, "opens": [6], "lines": [{"line": "No effect"},
                                                                         {"line": "Light", "from": 5}]}, "mine")
    assert mine.estimated is False and damage_odds(mine, 0, 0) == {"No effect": Fraction(4, 6), "Light": Fraction(2, 6)}
    assert WOUND_TABLE.name == "wound_table.yaml"


def test_the_rules_document_lists_every_ability_of_the_seed() -> None:
    rows = {m.group(1) for m in re.finditer(r"^\| ([^|]+?) \|", DOC.read_text(encoding="utf-8"), re.M)}
    assert set(ABILITIES) | set(ELSEWHERE) | set(NOT_YET) <= rows
    # the seed's 147 and the third-edition rules' Endurance (issue 24)
    assert len(ABILITIES) == 31 and len(ABILITIES) + len(ELSEWHERE) + len(NOT_YET) == 148 and "Endurance" in ELSEWHERE


def test_the_catalogue_table_says_what_the_data_says() -> None:
    """Each ability the combat or the maintenance phase implements, and each one not yet, has the same category and
    status in docs/rules/confrontation.md as in catalogue.py (the document cannot drift from the code)."""
    rows = {m.group(1): (m.group(2), m.group(3))
            for m in re.finditer(r"^\| ([^|]+?) \| ([^|]+?) \| (.+?) \|$", DOC.read_text(encoding="utf-8"), re.M)}
    assert {n: rows.get(n) for n in {**NOT_YET, **ELSEWHERE}} == {**NOT_YET, **ELSEWHERE}
