"""Fighter cards as data: the shipped example warbands and a player's own cards, with typed errors.

A card's characteristics are the issue's list (MOV INI ATT STR DEF RES AIM COU/FEAR DIS POW FAI),
its size, HP and abilities with their values; a bad file names the file, the line and the field.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekeeper.core.errors import DataFileError, UnknownNameError
from rulekeeper.rulesets.confrontation.cards import (
    CHARACTERISTICS,
    WARBANDS,
    canonical_ability,
    fighter_from,
    load_warband,
    parse_warband,
    shipped_fighter,
    shipped_warbands,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "confrontation"

CARD = """\
warband: Mine
fighters:
  - name: Ser Aldo
    size: Medium
    MOV: 10
    INI: 3
    ATT: 4
    STR: 4
    DEF: 3
    RES: 4
    COU: 4
    DIS: 2
    HP: 4
    abilities: [Resolute/2, Counterattack]
"""


def test_two_shipped_warbands_are_examples_with_every_characteristic_estimated() -> None:
    bands = shipped_warbands()
    assert [b.warband for b in bands] == ["Lions of Alahan (example)", "Wolfen of Yllia (example)"]
    for band in bands:
        assert band.example and "(example)" in band.warband
        for f in band.fighters:
            present = [c for c, v in f.characteristics().items() if v is not None]
            assert set(present) <= set(f.estimated) and "HP" in f.estimated
            assert all("estimate" in why for why in f.estimated.values())
            assert (f.COU is None) != (f.FEAR is None)


def test_an_example_without_its_reasoning_is_refused() -> None:
    text = CARD.replace("warband: Mine\n", "warband: Mine\nexample: true\n")
    with pytest.raises(DataFileError) as err:
        parse_warband(text, "mine.yaml")
    assert "every characteristic must be marked `estimated`" in err.value.message
    assert "MOV, INI, ATT, STR, DEF, RES, COU, DIS" in err.value.message


def test_a_players_card_loads_with_its_abilities_and_values() -> None:
    band = parse_warband(CARD, "mine.yaml")
    aldo = band.fighter("ser aldo")
    assert aldo.characteristics() == {"MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "AIM": None,
                                      "COU": 4, "FEAR": None, "DIS": 2, "POW": None, "FAI": None}
    assert tuple(aldo.characteristics()) == CHARACTERISTICS
    assert aldo.ability_names == ("Resolute", "Counterattack") and aldo.value_of("Resolute") == "2"
    assert aldo.HP == 4 and aldo.size == "Medium" and not aldo.character


def test_the_shipped_example_files_of_the_player_load() -> None:
    a = fighter_from(str(EXAMPLES / "A.yaml"))
    b = fighter_from(str(EXAMPLES / "B.yaml"))
    assert (a.name, a.FAI, a.character) == ("Griffin inquisitor", 2, True)
    assert b.ability_names == ("Ambidextrous", "Hardened", "Desperate")
    assert fighter_from("wolfen WARLORD").value_of("Bane") == "Lions of Alahan"


def test_a_toml_card_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('warband = "Mine"\n[[fighters]]\nname = "Ser Aldo"\nMOV = 10\nINI = 3\nATT = 4\nSTR = 4\n'
                    'DEF = 3\nRES = 4\nFEAR = 4\nDIS = 2\nHP = 4\nabilities = ["Hard-boiled"]\n')
    assert load_warband(path).fighters[0].FEAR == 4


BAD = [
    (CARD.replace("    ATT: 4\n", "    ATT: four\n"), "line 7, fighter 1 ('Ser Aldo'), field ATT"),
    (CARD.replace("    HP: 4\n", ""), "line 3, fighter 1 ('Ser Aldo'), field HP: Field required"),
    (CARD.replace("Counterattack]", "Counteratack]"), "unknown ability 'Counteratack' (did you mean 'Counterattack'?)"),
    (CARD.replace("Resolute/2", "Resolute"), "Resolute/X needs a whole number X"),
    # "For that test, the Characteristic is increased by X": a negative X is a typo
    (CARD.replace("Resolute/2", "Resolute/-3"), "Resolute/X cannot be negative (X is added or counted), got "
     "'Resolute/-3'"),
    (CARD.replace("    COU: 4\n", "    COU: 4\n    FEAR: 5\n"), "either COU or FEAR"),
    (CARD.replace("    size: Medium\n", "    size: Huge\n"), "line 4, fighter 1 ('Ser Aldo'), field size"),
    (CARD.replace("    DIS: 2\n", "    DIS: 2\n    Armour: 3\n"), "line 13, fighter 1 ('Ser Aldo'), field Armour: "
     "Extra inputs are not permitted"),
    (CARD.replace("    DIS: 2\n", "    DIS: 2\n    DIS: 3\n"), "duplicate key 'DIS'"),
    (CARD + "  - name: Ser Aldo\n    MOV: 1\n    INI: 1\n    ATT: 1\n    STR: 1\n    DEF: 1\n    RES: 1\n"
            "    COU: 1\n    DIS: 1\n    HP: 1\n", "two fighters share a name"),
]


@pytest.mark.parametrize(("text", "problem"), BAD, ids=range(len(BAD)))
def test_a_bad_card_is_a_typed_error_naming_file_line_and_field(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    with pytest.raises(DataFileError) as err:
        load_warband(path)
    assert str(path) in err.value.message and problem in err.value.message


def test_a_single_card_file_names_its_lines_too(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text("name: Lone\nMOV: 10\nINI: x\nATT: 1\nSTR: 1\nDEF: 1\nRES: 1\nCOU: 1\nDIS: 1\nHP: 1\n")
    with pytest.raises(DataFileError, match=r"line 3, field INI"):
        load_warband(path)


def test_a_file_of_several_fighters_needs_a_name_and_unknown_names_suggest() -> None:
    lions = str(WARBANDS / "lions_of_alahan.yaml")
    with pytest.raises(DataFileError, match="holds 8 fighters; name one"):
        fighter_from(lions)
    assert fighter_from(lions, "alahan guard").RES == 5
    with pytest.raises(DataFileError, match="file not found"):
        fighter_from("no-such-card.yaml")
    with pytest.raises(UnknownNameError) as err:
        shipped_fighter("Wolfen hunterr")
    assert err.value.suggestions[0] == "Wolfen hunter"
    assert canonical_ability("hardboiled") == ("Hard-boiled", "")
    assert canonical_ability("Heal/4") == ("Cure", "4")
