"""A scenario from two musters: deployment columns, zone filling, heroes, General, Named Characters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.exillis.muster import Muster, load_muster
from rulekeeper.rulesets.exillis.muster_battle import (
    BattleSetupError,
    BoardTooSmallError,
    InvalidMusterError,
    deployment_columns,
    parse_board,
    scenario_from_musters,
    zone_order,
)


def U(unit: str, miniatures: int | None = None, level: int = 1, hero: str | None = None,
      hero_level: int | None = None, label: str = "") -> dict[str, Any]:
    """One muster entry in the file's shape."""
    d: dict[str, Any] = {"unit": unit, "level": level}
    for key, value in (("miniatures", miniatures), ("hero", hero), ("hero_level", hero_level), ("label", label)):
        if value:
            d[key] = value
    return d


def M(name: str, units: list[dict[str, Any]], game_type: str = "Common", general: str | None = None,
      faction: str | None = None) -> Muster:
    """A muster built as a muster file would be read."""
    doc: dict[str, Any] = {"name": name, "game_type": game_type, "units": units}
    if general:
        doc["general"] = general
    if faction:
        doc["faction"] = faction
    return Muster.from_dict(doc)


BROKEN_WING = M("Broken Wing", [U("Billmen", 8, 3, "Decurion", 3), U("Longbowmen", level=3),
                                U("Arbalestiers", level=3), U("Ympes", level=3)], general="Decurion",
                faction="Broken Wing")
BREC = M("Brec'Helean", [U("Vileins", level=3, hero="Marrenne", hero_level=3), U("Soffrances", level=3),
                         U("Franc Chevalers", level=3), U("Hobelars", level=3)], general="Marrenne",
         faction="Brec'Helean")


def zones(sc: object, side: str) -> list[str]:
    return [u.zone for u in sc.army(side).units]  # type: ignore[attr-defined]


def test_side_a_on_the_first_two_columns_b_on_the_last_two_filled_in_muster_order() -> None:
    sc = scenario_from_musters(BROKEN_WING, BREC)
    assert (sc.board.width, sc.board.height) == (5, 4) and sc.terrain == ()
    assert sc.army("A").deployment == ("A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4")
    assert sc.army("B").deployment == ("D1", "D2", "D3", "D4", "E1", "E2", "E3", "E4")
    # front column first, middle rows first, 3 units a zone (the hero counts with his Retinue)
    assert zones(sc, "A") == ["B2", "B2", "B2", "B3"]
    assert zones(sc, "B") == ["D2", "D2", "D2", "D3"]
    assert sc.army("A").general == ("Decurion",) and sc.army("B").general == ("Marrenne",)
    assert sc.army("A").units[0].hero == "Decurion" and sc.army("A").units[0].hero_level == 3
    assert sc.army("A").units[0].miniatures == 8 and sc.army("A").units[1].level == 3
    assert sc.name == "Broken Wing vs Brec'Helean" and sc.problems() == []


def test_placement_is_deterministic() -> None:
    assert scenario_from_musters(BROKEN_WING, BREC) == scenario_from_musters(BROKEN_WING, BREC)


def test_zone_order_and_columns() -> None:
    assert zone_order((1, 0), 4) == ["B2", "B3", "B1", "B4", "A2", "A3", "A1", "A4"]
    assert zone_order((3,), 5) == ["D3", "D2", "D4", "D1", "D5"]
    assert deployment_columns(5) == ((1, 0), (3, 4))
    assert deployment_columns(4) == ((1, 0), (2, 3))
    assert deployment_columns(3) == ((0,), (2,))  # one column each: the sides never share a zone
    assert deployment_columns(2) == ((0,), (1,))
    with pytest.raises(BattleSetupError):
        deployment_columns(1)


def test_a_big_muster_fills_every_zone_and_a_larger_one_does_not_fit() -> None:
    many = M("Horde", [U("Vileins") for _ in range(24)])
    sc = scenario_from_musters(many, BREC)
    counts = {z: zones(sc, "A").count(z) for z in sc.army("A").deployment}
    assert set(counts.values()) == {3}
    too_many = M("Horde", [U("Vileins") for _ in range(25)])
    with pytest.raises(BoardTooSmallError, match=r"does not fit on a 5 x 4 board.*25 entries need 25.*24 in all"):
        scenario_from_musters(too_many, BREC)
    # a larger board takes them
    assert len(scenario_from_musters(too_many, BREC, 5, 5).army("A").units) == 25


def test_a_3x3_board_deploys_on_one_column_each() -> None:
    sc = scenario_from_musters(BROKEN_WING, BREC, 3, 3)
    assert zones(sc, "A") == ["A2", "A2", "A2", "A1"] and zones(sc, "B") == ["C2", "C2", "C2", "C1"]
    with pytest.raises(BoardTooSmallError, match="3 x 1 board"):
        scenario_from_musters(BROKEN_WING, BREC, 3, 1)


def test_named_characters_play_at_their_effective_level() -> None:
    wallace = M("Scots", [U("Billmen", level=2, hero="William Wallace", hero_level=1)], general="William Wallace")
    lucifer = M("Hell", [U("Lucifer", level=1), U("Ympes", level=15)], game_type="Grand")
    sc = scenario_from_musters(wallace, lucifer)
    assert sc.army("A").units[0].hero_level == 10    # Common: "level 10 in a Common game"
    assert sc.army("B").units[0].level == 20         # Grand: level 20 (his own maximum is 50)
    assert sc.army("B").units[1].level == 15         # ordinary units keep the muster's level
    ag = M("Scots", [U("Billmen", level=2, hero="William Wallace", hero_level=1)], game_type="Anything Goes",
           general="William Wallace")
    assert scenario_from_musters(ag, lucifer).army("A").units[0].hero_level == 40  # never above his own 40


def test_a_muster_that_breaks_muster_rules_is_refused_with_every_problem() -> None:
    bad = M("Bad", [U("Billmen", level=12, miniatures=3), U("Vilains")])
    with pytest.raises(InvalidMusterError) as err:
        scenario_from_musters(bad, BREC)
    assert err.value.code == "invalid_muster"
    text = str(err.value)
    assert "muster 'Bad'" in text and "level-range" in text and "miniatures-minimum" in text and "Vileins" in text


def test_scenario_checks_still_apply() -> None:
    with pytest.raises(DataFileError, match="same name"):
        scenario_from_musters(BREC, BREC)


def test_muster_files_yaml_and_toml(tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    a.write_text("name: Broken Wing\ngame_type: Common\nfaction: Broken Wing\ngeneral: Decurion\nunits:\n"
                 "  - {unit: Billmen, miniatures: 8, level: 3, hero: Decurion, hero_level: 3}\n"
                 "  - {unit: Longbowmen, level: 3}\n", encoding="utf-8")
    b = tmp_path / "b.toml"
    b.write_text('name = "Brec"\ngame_type = "Common"\n[[units]]\nunit = "Vileins"\nlevel = 2\n'
                 '[[units]]\nunit = "Hobelars"\n', encoding="utf-8")
    sc = scenario_from_musters(load_muster(a), load_muster(b))
    assert [(u.unit, u.zone, u.level) for u in sc.army("A").units] == [("Billmen", "B2", 3), ("Longbowmen", "B2", 3)]
    assert [(u.unit, u.zone, u.level) for u in sc.army("B").units] == [("Vileins", "D2", 2), ("Hobelars", "D2", 1)]
    assert sc.army("A").general == ("Decurion",) and sc.army("B").general == ()


@pytest.mark.parametrize(("text", "expected"), [("5x4", (5, 4)), ("6X5", (6, 5)), (" 4 x 4 ", (4, 4)), ("3×3", (3, 3))])
def test_parse_board(text: str, expected: tuple[int, int]) -> None:
    assert parse_board(text) == expected


@pytest.mark.parametrize("text", ["5", "5x", "x4", "1x4", "27x4", "5x0", "five by four"])
def test_parse_board_refuses_nonsense(text: str) -> None:
    with pytest.raises(BattleSetupError, match="--board"):
        parse_board(text)
