"""Ex illis scenarios: shipped files, points, deployment order, every validation rule, round trip."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.core.errors import DataFileError, RulekeeperError
from rulekeeper.rulesets.exillis.profiles import Roster, load_profiles
from rulekeeper.rulesets.exillis.rules_data import load_rules_data
from rulekeeper.rulesets.exillis.scenario import (
    HUGE,
    Scenario,
    load_scenario,
    minimum_miniatures,
    parse_zone,
    unit_cost,
    zone_name,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "exillis"
SHIPPED = ["starter.yaml", "hastings.yaml", "forest_fence.yaml", "skirmish.yaml"]
ROSTER = load_profiles()
RULES = load_rules_data()

LEFT = ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
RIGHT = ["D1", "D2", "D3", "D4", "E1", "E2", "E3", "E4"]
BASE: dict[str, Any] = {
    "name": "Test",
    "board": {"width": 5, "height": 4},
    "armies": [
        {
            "side": "A",
            "name": "Broken Wing",
            "deployment": LEFT,
            "general": "Decurion",
            "units": [
                {"unit": "Billmen", "zone": "B2", "hero": "Decurion"},
                {"unit": "Longbowmen", "zone": "A2"},
            ],
        },
        {
            "side": "B",
            "name": "Brec'Helean",
            "deployment": RIGHT,
            "general": "Marrenne",
            "units": [
                {"unit": "Vileins", "zone": "D2", "hero": "Marrenne"},
                {"unit": "Hobelars", "zone": "E3"},
            ],
        },
    ],
}


def base() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def write(tmp_path: Path, data: dict[str, Any], name: str = "battle.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def failure(path: Path, roster: Roster | None = None) -> DataFileError:
    with pytest.raises(DataFileError) as info:
        load_scenario(path, roster=roster)
    assert str(path) in str(info.value)  # every error names the file
    return info.value


def fails(tmp_path: Path, data: dict[str, Any], *words: str, roster: Roster | None = None) -> DataFileError:
    """The file fails with exactly one problem mentioning every word."""
    err = failure(write(tmp_path, data), roster)
    assert len(err.problems) == 1, err.problems
    for word in words:
        assert word in err.problems[0], (word, err.problems[0])
    return err


# -- shipped scenarios -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenarios_load_and_validate(name: str) -> None:
    scenario = load_scenario(EXAMPLES / name)
    assert scenario.problems(ROSTER, RULES) == []
    assert scenario.description.strip()
    assert {a.side for a in scenario.armies} == {"A", "B"}
    assert scenario == scenario.normalised()


def test_starter_splits_the_starter_box_into_two_250_point_halves() -> None:
    scenario = load_scenario(EXAMPLES / "starter.yaml")
    points = scenario.points(ROSTER)
    assert all(230 <= p <= 270 for p in points.values()), points
    assert abs(points["A"] - points["B"]) <= 5
    box = Counter({"Vileins": 1, "Billmen": 1, "Longbowmen": 1, "Arbalestiers": 1, "Franc Chevalers": 1,
                   "Hobelars": 1, "Ympes": 1, "Soffrances": 1, "Decurion": 1, "Marrenne": 1})
    fielded = Counter(u.unit for a in scenario.armies for u in a.units)
    fielded.update(u.hero for a in scenario.armies for u in a.units if u.hero)
    assert fielded == box
    assert (scenario.board.width, scenario.board.height) == (5, 4)
    assert {scenario.feature_at(t.zone) for t in scenario.terrain} >= {"forests", "fences"}
    assert {u.zone[0] for u in scenario.army("A").units} <= {"A", "B"}
    assert {u.zone[0] for u in scenario.army("B").units} <= {"D", "E"}
    assert (scenario.army("A").general, scenario.army("B").general) == (("Decurion",), ("Marrenne",))


def test_hastings_pairs_cavalry_with_missile_troops_against_infantry() -> None:
    scenario = load_scenario(EXAMPLES / "hastings.yaml")
    by_zone: dict[str, list[str]] = {}
    for u in scenario.army("A").units:
        by_zone.setdefault(u.zone, []).append(u.unit)
    for zone, names in by_zone.items():
        profiles = [ROSTER.get(n) for n in names]
        assert any(p.movement == "cavalry" for p in profiles), zone
        assert any("Sh" in p.categories for p in profiles), zone
    assert all(ROSTER.get(u.unit).movement == "infantry" for u in scenario.army("B").units)
    assert scenario.terrain == () and (scenario.board.width, scenario.board.height) == (5, 4)


def test_forest_fence_has_forests_and_fence_lines_in_the_middle() -> None:
    scenario = load_scenario(EXAMPLES / "forest_fence.yaml")
    middle = Counter(t.feature for t in scenario.terrain if t.zone[0] == "C")
    assert middle["forests"] >= 2 and middle["fences"] >= 2
    forest_units = Counter(u.zone for a in scenario.armies for u in a.units if scenario.feature_at(u.zone) == "forests")
    assert forest_units and max(forest_units.values()) == 2


# -- points and deployment order -------------------------------------------------------------


def test_unit_cost_follows_the_seed_formula_and_examples() -> None:
    assert unit_cost(40, 8, 6, 8) == 52  # "6 Billmen at level 8 ... Unit's Cost = 52"
    assert unit_cost(40, 0, 5, 8) == 25  # "if 8 Longbowmen cost 40 points, ... 5 miniatures costs 25"
    assert unit_cost(56, 1, 8, 8) == 60  # level 1 is 2^(1/10), read literally
    assert unit_cost(1, 0, 1, 2) == 1  # 0.5 rounds half up


def test_points_include_heroes_and_partial_units() -> None:
    data = base()
    data["armies"][0]["units"][1]["miniatures"] = 5
    scenario = Scenario.from_dict(data)
    assert scenario.points(ROSTER)["A"] == unit_cost(40, 1, 8, 8) + unit_cost(36, 1, 1, 1) + unit_cost(56, 1, 5, 8)


def test_minimum_miniatures_is_the_majority() -> None:
    assert [minimum_miniatures(n) for n in (1, 2, 4, 8, 10)] == [1, 2, 3, 5, 6]


def test_zone_names() -> None:
    assert parse_zone("A1") == (0, 0) and parse_zone("c4") == (2, 3) and zone_name(25, 98) == "Z99"
    for bad in ("11", "AA1", "A0", "", "A-1"):
        with pytest.raises(ValueError):
            parse_zone(bad)


def test_deployment_order_alternates_from_the_first_side() -> None:
    scenario = load_scenario(EXAMPLES / "hastings.yaml")  # first = "B", 4 units against 5
    order = scenario.deployment_order()
    assert order == [("B", 0), ("A", 0), ("B", 1), ("A", 1), ("B", 2), ("A", 2), ("B", 3), ("A", 3), ("B", 4)]
    starter = load_scenario(EXAMPLES / "starter.yaml").deployment_order()
    assert [side for side, _ in starter] == ["A", "B"] * 4


def test_deployment_order_lets_the_longer_army_finish() -> None:
    data = base()
    data["armies"][0]["units"] += [{"unit": "Ympes", "zone": "A3"}, {"unit": "Arbalestiers", "zone": "A4"}]
    order = Scenario.from_dict(data).deployment_order()
    assert order == [("A", 0), ("B", 0), ("A", 1), ("B", 1), ("A", 2), ("A", 3)]


# -- syntax and shape --------------------------------------------------------------------------


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\n[board]\nwidth = = 5\n', encoding="utf-8")
    err = failure(path)
    assert "TOML syntax error" in str(err) and "line 3" in str(err)


def test_yaml_syntax_error_and_duplicate_key_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yml"
    path.write_text("name: x\nboard: [1, 2\n", encoding="utf-8")
    assert "line" in str(failure(path))
    path.write_text("name: x\nname: y\n", encoding="utf-8")
    assert "duplicate key 'name'" in str(failure(path)) and "line 2" in str(failure(path))


def test_unsupported_extension_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    path.write_text("{}", encoding="utf-8")
    assert "unsupported file type '.json'" in str(failure(path))
    assert "file not found" in str(failure(tmp_path / "nope.toml"))


def test_shape_errors_name_army_unit_and_field(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["minatures"] = 6
    data["armies"][1]["units"][0]["level"] = "3"
    del data["armies"][1]["units"][1]["zone"]
    data["first"] = "C"
    err = failure(write(tmp_path, data))
    text = "\n".join(err.problems)
    assert len(err.problems) == 4, err.problems
    assert "army 'Broken Wing' (side A), unit 2 ('Longbowmen'), field minatures: unknown field" in text
    assert "did you mean 'miniatures'?" in text
    assert "army \"Brec'Helean\" (side B), unit 1 ('Vileins'), field level: expected a whole number, got '3'" in text
    assert "unit 2 ('Hobelars'), field zone: required field is missing" in text
    assert "field first: expected 'A' or 'B', got 'C'" in text


def test_errors_are_rulekeeper_errors_with_a_stable_code(tmp_path: Path) -> None:
    data = base()
    data["board"]["width"] = 0
    err = failure(write(tmp_path, data))
    assert isinstance(err, RulekeeperError) and err.to_dict()["error"] == "data_file"


# -- one failing file per rule -----------------------------------------------------------------


def test_unknown_unit_suggests_the_closest(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["unit"] = "Longbowmn"
    fails(tmp_path, data, "unit 2 ('Longbowmn')", "field unit", "Did you mean 'Longbowmen'")


def test_unknown_hero_suggests_the_closest(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][0]["hero"] = "Decurio"
    data["armies"][0]["general"] = None
    fails(tmp_path, data, "unit 1 ('Billmen')", "field hero", "Unknown hero 'Decurio'", "Did you mean 'Decurion'")


def test_hero_listed_as_a_unit(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["units"][1] = {"unit": "Knight Baneret", "zone": "E3"}
    fails(tmp_path, data, "unit 2 ('Knight Baneret')", "field unit", "is a hero, not a unit", "hero = 'Knight Baneret'")
    data = base()  # the misplaced hero is still the army's hero: no second error about its General
    data["armies"][0]["units"][0].pop("hero")
    data["armies"][0]["units"].append({"unit": "Decurion", "zone": "A3"})
    fails(tmp_path, data, "unit 3 ('Decurion')", "field unit", "Decurion is a hero, not a unit")


def test_unit_listed_as_a_hero(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["hero"] = "Ympes"
    fails(tmp_path, data, "unit 2 ('Longbowmen')", "field hero", "Ympes is a unit, not a hero")


def test_hero_attached_to_two_units(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["hero"] = "Centurion"  # an alias of the Decurion
    fails(tmp_path, data, "unit 2 ('Longbowmen')", "field hero", "Decurion is already with unit 1 ('Billmen')")


def test_lucifer_cannot_join_a_unit(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["hero"] = "Lucifer"
    fails(tmp_path, data, "unit 2 ('Longbowmen')", "field hero", "Lucifer is a Loner", "unit = 'Lucifer'")


def test_lucifer_is_a_unit_of_his_own_and_may_be_general_but_has_no_retinue(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["units"][1] = {"unit": "Lucifer", "zone": "E3"}
    data["armies"][1]["units"][0].pop("hero")
    data["armies"][1]["general"] = "Lucifer"
    assert load_scenario(write(tmp_path, data)).points(ROSTER)["B"] == unit_cost(24, 1, 8, 8) + unit_cost(150, 1, 1, 1)
    data["armies"][1]["units"][1]["hero"] = "Marrenne"
    fails(tmp_path, data, "unit 2 ('Lucifer')", "field hero", "Lucifer is a Loner and has no Retinue")


@pytest.mark.parametrize("zone", ["F1", "A5", "Z9"])
def test_zone_off_the_board(tmp_path: Path, zone: str) -> None:
    data = base()
    data["armies"][0]["deployment"] = [*LEFT, zone]
    data["armies"][0]["units"][1]["zone"] = zone
    err = failure(write(tmp_path, data))
    assert len(err.problems) == 2
    assert "field deployment: zone" in err.problems[0] and "off the 5 x 4 board" in err.problems[0]
    assert f"unit 2 ('Longbowmen'), field zone: zone {zone!r} is off the 5 x 4 board" in err.problems[1]


@pytest.mark.parametrize("zone", ["11", "AA1", "B0", "B 2"])
def test_malformed_zone(tmp_path: Path, zone: str) -> None:
    data = base()
    data["armies"][0]["units"][1]["zone"] = zone
    fails(tmp_path, data, "unit 2 ('Longbowmen'), field zone", f"malformed zone name {zone!r}")


def test_unit_outside_its_deployment_zones(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["zone"] = "C2"
    fails(tmp_path, data, "unit 2 ('Longbowmen'), field zone", "'C2' is not one of the army's deployment zones")


@pytest.mark.parametrize("feature", ["lake", "obstacles", "obstacle"])
def test_unit_in_impassable_terrain(tmp_path: Path, feature: str) -> None:
    data = base()
    data["terrain"] = [{"zone": "A2", "feature": feature}]
    fails(tmp_path, data, "unit 2 ('Longbowmen'), field zone", f"'A2' is {feature}, impassable")


def test_four_units_in_an_open_zone(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"] += [{"unit": u, "zone": "B2"} for u in ("Ympes", "Arbalestiers", "Vileins")]
    fails(tmp_path, data, "army 'Broken Wing' (side A), zone 'B2' (fields)", "4 units' space", "at most 3")


def test_three_units_in_a_forest(tmp_path: Path) -> None:
    data = base()
    data["terrain"] = [{"zone": "B2", "feature": "forest"}]
    data["armies"][0]["units"] += [{"unit": u, "zone": "B2"} for u in ("Ympes", "Arbalestiers")]
    fails(tmp_path, data, "zone 'B2' (forest)", "3 units' space", "a forest zone holds at most 2 units per side")
    data["armies"][0]["units"].pop()  # two units (one with its hero) fit
    assert load_scenario(write(tmp_path, data)).feature_at("B2") == "forests"


def test_a_hero_counts_with_its_retinue_and_sides_count_apart(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"] += [{"unit": u, "zone": "B2"} for u in ("Ympes", "Arbalestiers")]
    assert len(load_scenario(write(tmp_path, data)).army("A").units) == 4  # 3 units + the Decurion


def test_a_huge_unit_takes_two_spaces(tmp_path: Path) -> None:
    huge = [p.model_copy(update={"special_rules": (*p.special_rules, HUGE)}) if p.name == "Soffrances" else p
            for p in ROSTER]
    roster = Roster(huge)
    data = base()
    data["armies"][0]["units"] += [{"unit": "Soffrances", "zone": "B2"}, {"unit": "Ympes", "zone": "B2"}]
    fails(tmp_path, data, "zone 'B2'", "4 units' space", "Soffrances (Huge: 2 spaces)", roster=roster)
    data["armies"][0]["units"].pop()
    assert load_scenario(write(tmp_path, data), roster=roster)


@pytest.mark.parametrize("count", [4, 9])
def test_miniatures_outside_the_majority_rule(tmp_path: Path, count: int) -> None:
    data = base()
    data["armies"][0]["units"][1]["miniatures"] = count
    fails(tmp_path, data, "unit 2 ('Longbowmen'), field miniatures", "expected 5 to 8", f"got {count}")


def test_soffrances_cannot_be_a_partial_unit(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["units"][1] = {"unit": "Soffrances", "zone": "E3", "miniatures": 1}
    fails(tmp_path, data, "unit 2 ('Soffrances'), field miniatures", "expected 2 to 2")


@pytest.mark.parametrize("level", [0, 31])
def test_level_out_of_range(tmp_path: Path, level: int) -> None:
    data = base()
    data["armies"][0]["units"][0]["level"] = level
    fails(tmp_path, data, "unit 1 ('Billmen'), field level", "from 1 to 30", f"got {level}")


def test_hero_level_out_of_range_or_without_hero(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][0]["hero_level"] = 41
    fails(tmp_path, data, "unit 1 ('Billmen'), field hero_level", "from 1 to 40 (Decurion's maximum)", "got 41")
    data["armies"][0]["units"][0]["hero_level"] = 1
    data["armies"][0]["units"][1]["hero_level"] = 5
    fails(tmp_path, data, "unit 2 ('Longbowmen'), field hero_level", "given without a hero")


def test_more_than_one_general(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][1]["hero"] = "Knight Baneret"
    data["armies"][0]["general"] = ["Decurion", "Knight Baneret"]
    fails(tmp_path, data, "army 'Broken Wing' (side A), field general", "2 Generals named", "at most one General")


@pytest.mark.parametrize(
    ("general", "words"),
    [
        ("Marrenne", ["Marrenne is not a hero of this army", "its heroes: Decurion"]),
        ("Billmen", ["Billmen is a unit"]),
        ("Decurian", ["Unknown hero 'Decurian'", "Did you mean 'Decurion'"]),
    ],
)
def test_general_must_be_a_hero_of_the_army(tmp_path: Path, general: str, words: list[str]) -> None:
    data = base()
    data["armies"][0]["general"] = general
    fails(tmp_path, data, "army 'Broken Wing' (side A), field general", *words)


def test_duplicate_sides(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["side"] = "A"
    err = failure(write(tmp_path, data))
    assert "armies: 2 armies for side 'A'" in str(err) and "armies: 0 armies for side 'B'" in str(err)


def test_duplicate_army_names(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["name"] = "broken  wing"
    fails(tmp_path, data, "army 'broken  wing' (side B), field name", "same name")


def test_both_armies_deploying_in_the_same_zone(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["deployment"] = [*RIGHT, "b4"]
    fails(tmp_path, data, "zone 'B4' is in the deployment zones of both", "'Broken Wing' (side A)", "(side B)")


@pytest.mark.parametrize(("field", "value", "words"), [
    ("width", 0, "expected 1 to 26 columns"), ("width", 27, "got 27"), ("height", 0, "expected 1 to 99 rows"),
    ("turn_limit", -1, "expected 0 (no limit) or a number of rounds"),
])
def test_board_size_and_turn_limit(tmp_path: Path, field: str, value: int, words: str) -> None:
    data = base()
    data["board"][field] = value
    err = failure(write(tmp_path, data))
    assert len(err.problems) == 1 and err.problems[0].startswith(f"board, field {field}: ")
    assert words in err.problems[0]


def test_terrain_unknown_duplicate_or_off_board(tmp_path: Path) -> None:
    data = base()
    data["terrain"] = [{"zone": "C2", "feature": "forrest"}, {"zone": "C3", "feature": "hills"},
                       {"zone": "c3", "feature": "ruins"}, {"zone": "G1", "feature": "swamp"}]
    err = failure(write(tmp_path, data))
    assert len(err.problems) == 3, err.problems
    assert "terrain 1 (zone 'C2'), field feature: Unknown terrain feature 'forrest'. Did you mean 'forests'" in str(err)
    assert "terrain 3 (zone 'c3'), field zone: the zone already holds 'hills'" in str(err)
    assert "terrain 4 (zone 'G1'), field zone: zone 'G1' is off the 5 x 4 board" in str(err)


def test_empty_army(tmp_path: Path) -> None:
    data = base()
    data["armies"][1]["units"] = []
    data["armies"][1]["general"] = None
    fails(tmp_path, data, "army \"Brec'Helean\" (side B), field units", "at least one unit")


def test_three_problems_are_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "three.toml"
    path.write_text(
        """name = "Three mistakes"
[board]
width = 5
height = 4
[[armies]]
side = "A"
name = "Broken Wing"
deployment = ["A1", "A2"]
  [[armies.units]]
  unit = "Bilmen"
  zone = "A1"
  [[armies.units]]
  unit = "Longbowmen"
  zone = "A2"
  miniatures = 3
[[armies]]
side = "B"
name = "Brec'Helean"
deployment = ["E1", "E2"]
  [[armies.units]]
  unit = "Vileins"
  zone = "F2"
""",
        encoding="utf-8",
    )
    err = failure(path)
    assert len(err.problems) == 3, err.problems
    assert "unit 1 ('Bilmen'), field unit: Unknown unit 'Bilmen'. Did you mean 'Billmen'" in err.problems[0]
    assert "unit 2 ('Longbowmen'), field miniatures: expected 5 to 8" in err.problems[1]
    assert "army \"Brec'Helean\" (side B), unit 1 ('Vileins'), field zone: zone 'F2' is off" in err.problems[2]
    assert err.message.count(";") >= 2 and err.message.startswith(str(path))


# -- normalisation and round trip --------------------------------------------------------------


def test_loading_normalises_names_and_zones(tmp_path: Path) -> None:
    data = base()
    data["armies"][0]["units"][0].update(unit="billman", zone="b2", hero="centurion")
    data["armies"][0]["general"] = "Decurion/Centurion"
    data["terrain"] = [{"zone": "c2", "feature": "Wood"}]
    scenario = load_scenario(write(tmp_path, data))
    unit = scenario.army("A").units[0]
    assert (unit.unit, unit.zone, unit.hero, scenario.army("A").general) == ("Billmen", "B2", "Decurion", ("Decurion",))
    assert scenario.terrain[0].model_dump() == {"zone": "C2", "feature": "forests"}


def test_to_dict_is_json_and_in_file_shape() -> None:
    scenario = load_scenario(EXAMPLES / "starter.yaml")
    data = json.loads(json.dumps(scenario.to_dict()))
    assert data["armies"][0]["general"] == "Decurion" and "miniatures" not in data["armies"][0]["units"][0]
    assert Scenario.from_dict(data) == scenario
    skirmish = load_scenario(EXAMPLES / "skirmish.yaml").to_dict()
    assert "general" not in skirmish["armies"][0]


_PASSABLE = ["fields", "fences", "forests", "hills", "swamp", "ruins"]
_UNITS = [p.name for p in ROSTER if p.kind == "unit"]
_HEROES = [p.name for p in ROSTER if p.kind == "hero" and "Loner" not in p.special_rules]


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Valid scenarios: each side on its own half, at most 2 units a zone, passable terrain."""
    width, height = draw(st.integers(2, 8)), draw(st.integers(1, 6))
    half = width // 2
    columns = {"A": range(half), "B": range(width - half, width)}
    armies = []
    for side in draw(st.sampled_from([("A", "B"), ("B", "A")])):
        zones = [zone_name(c, r) for c in columns[side] for r in range(height)]
        places = draw(st.lists(st.sampled_from(zones), min_size=1, max_size=4))
        units: list[dict[str, Any]] = []
        for place in places:
            if sum(u["zone"] == place for u in units) == 2:
                continue
            profile = ROSTER.get(draw(st.sampled_from(_UNITS)))
            unit: dict[str, Any] = {"unit": profile.name, "zone": place,
                                    "level": draw(st.integers(1, profile.max_level))}
            if draw(st.booleans()):
                unit["miniatures"] = draw(st.integers(minimum_miniatures(profile.miniatures), profile.miniatures))
            units.append(unit)
        heroes = draw(st.lists(st.sampled_from(_HEROES), unique=True, max_size=len(units)))
        for unit, hero in zip(units, heroes, strict=False):
            unit["hero"] = hero
            unit["hero_level"] = draw(st.integers(1, ROSTER.get(hero).max_level))
        army: dict[str, Any] = {"side": side, "name": f"Army {side}", "deployment": zones, "units": units}
        if draw(st.booleans()) and heroes:
            army["general"] = draw(st.sampled_from(heroes))
        armies.append(army)
    terrain_zones = draw(st.lists(st.sampled_from([zone_name(c, r) for c in range(width) for r in range(height)]),
                                  unique=True, max_size=4))
    terrain = [{"zone": z, "feature": draw(st.sampled_from(_PASSABLE))} for z in terrain_zones]
    return {"name": draw(st.text(max_size=20)), "description": draw(st.text(max_size=40)),
            "first": draw(st.sampled_from(["A", "B"])), "terrain": terrain, "armies": armies,
            "board": {"width": width, "height": height, "turn_limit": draw(st.integers(0, 100))}}


@settings(max_examples=60, deadline=None)
@given(scenarios())
def test_round_trip_through_to_dict_and_json(data: dict[str, Any]) -> None:
    scenario = Scenario.from_dict(data, ROSTER, RULES)
    again = Scenario.from_dict(json.loads(json.dumps(scenario.to_dict())), ROSTER, RULES)
    assert again == scenario
    assert again.to_dict() == scenario.to_dict()
    order = scenario.deployment_order()
    assert sorted(order) == sorted((a.side, i) for a in scenario.armies for i in range(len(a.units)))
    sides = [side for side, _ in order]
    both = 2 * min(len(a.units) for a in scenario.armies)
    assert sides[:both] == [scenario.first, "B" if scenario.first == "A" else "A"] * (both // 2)
    assert all(p > 0 for p in scenario.points(ROSTER).values())
