"""The game sheet as data: every value sourced, the seed's numbers quoted, a player's sheet replacing ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from dn_kit import SHEET

from rulekeeper.core.errors import DataFileError, UnknownNameError
from rulekeeper.rulesets.dragonnoir.data import load_sheet

DATA = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/dragonnoir/data"


def test_every_terrain_value_says_where_it_comes_from() -> None:
    for name, t in SHEET.terrain.terrains.items():
        for field in ("cost", "mounted", "combat", "cover", "blocks"):
            value = getattr(t, field)
            assert value.source in ("seed", "estimated"), (name, field)
            if value.source == "seed":
                assert "'" in value.why, (name, field, "a seed value quotes the seed")


def test_the_seed_terrain_values() -> None:
    # "Mounted characters cannot pass through a tree hex, a house interior hex, a water hex or an underground
    # entrance hex."
    for name in ("trees", "house", "water", "entrance"):
        assert SHEET.terrain_named(name).mounted.value is False
        assert SHEET.terrain_named(name).mounted.source == "seed"
    # "A character on a tree hex benefits from light cover." / "light cover if he is on a brush hex."
    assert SHEET.terrain_named("trees").cover.value == "light"
    assert SHEET.terrain_named("brush").cover.value == "light"
    # "tree hexes are considered for them as advantageous terrain (+), the opposite of other characters"
    assert SHEET.terrain_named("trees").combat.value == "-"
    # "No character can be on a crevasse hex."
    assert SHEET.terrain_named("crevasse").cost.value is None
    # Goblins "spend only 2 movement points to cross a water hex": so water costs everyone else more
    assert (SHEET.terrain_named("water").cost.value or 0) > 2


def test_the_counters_the_seed_gives() -> None:
    laberne = SHEET.characters.characters["Laberne"]
    grast = SHEET.characters.characters["Grast"]
    # "He therefore has a potential of 15 minus 6 = 9 points left."
    assert laberne.mounted is not None and laberne.mounted["healthy"].movement == 15
    assert laberne.source("mounted.healthy.movement")[0] == "seed"
    assert laberne.source("mounted.healthy.attack")[0] == "estimated"
    # "wounded Grast ... has 12 minus 9 = 3 points left."
    assert grast.mounted is not None and grast.mounted["wounded"].movement == 12
    assert grast.horseman == "heavy" and grast.armour and laberne.horseman == "light" and not laberne.armour
    # "Only Laberne, Jon and the Elves have long bows." / Arlon's crossbow
    bows = {n for n, c in SHEET.characters.characters.items() if c.weapon == "long bow"}
    assert bows == {"Laberne", "Jon", "Elf 1", "Elf 2", "Elf 3", "Elf 4"}
    assert SHEET.characters.characters["Arlon"].weapon == "crossbow"
    # "for Thrug, instead of dividing by 2 or 4, divide by 4 or 8"
    assert SHEET.characters.characters["Thrug"].dismount_divisor == 4
    # "The body proper has only a defence potential."
    assert SHEET.characters.characters["Black Dragon body"].foot["healthy"].attack == 0


def test_every_character_names_the_seed_quote_or_the_estimate() -> None:
    for name, c in SHEET.characters.characters.items():
        assert c.why.strip(), name
        for path, quote in c.seed.items():
            assert "'" in quote, (name, path)


def test_the_tables_have_a_letter_for_every_die_and_column() -> None:
    assert SHEET.combat.columns == ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]
    # rows 1-10 (the d10, 0 = 10) and 11 (a 10 on the die + 1 for armour)
    assert sorted(SHEET.combat.tables["foot"]) == list(range(1, 12))
    # "the results C, D, E or F for shots, and E, F, G or H for combats, cause the death of the horse"
    for letter in "EFGH":
        assert SHEET.combat.keys["mounted"][letter].horse == "killed"
    for letter in "CDEF":
        assert letter in SHEET.fire.keys.mounted
    assert set(SHEET.fire.keys.foot) == set("ABCDEF")


def test_a_players_sheet_replaces_a_file(tmp_path: Path) -> None:
    text = (DATA / "terrain.yaml").read_text(encoding="utf-8").replace(
        'brush:\n    cost: {value: 2', 'brush:\n    cost: {value: 4')
    (tmp_path / "terrain.yaml").write_text(text, encoding="utf-8")
    mine = load_sheet(tmp_path)
    assert mine.terrain_named("brush").cost.value == 4
    assert mine.combat == SHEET.combat  # the other files stay the shipped ones


def test_a_bad_sheet_is_a_typed_error_naming_the_file_and_field(tmp_path: Path) -> None:
    text = (DATA / "combat.yaml").read_text(encoding="utf-8").replace('1: "DEEFFF"', '1: "DEEFFZ"')
    (tmp_path / "combat.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_sheet(tmp_path)
    assert "combat.yaml" in info.value.message and "not in the table's key" in info.value.message
    (tmp_path / "combat.yaml").write_text("columns: [\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="YAML syntax error"):
        load_sheet(tmp_path)
    with pytest.raises(DataFileError, match="not a folder"):
        load_sheet(tmp_path / "combat.yaml")


def test_names_are_found_whatever_the_case_and_unknown_ones_suggest() -> None:
    assert SHEET.character("crazy   ORK")[0] == "Crazy Ork"
    with pytest.raises(UnknownNameError) as info:
        SHEET.character("Grst")
    assert "Grast" in info.value.suggestions
