"""Ex illis muster files: the shipped examples, YAML/TOML round trips, unreadable files with their lines."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml

from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.exillis.muster import Muster, MusterEntry, load_muster, save_muster
from rulekeeper.rulesets.exillis.musters_data import load_musters_data
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules
from rulekeeper.rulesets.exillis.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
MUSTERS = ROOT / "examples" / "exillis" / "musters"
RULES = ExIllisArmyRules()


@pytest.mark.parametrize("name", ["broken_wing.yaml", "brec_helean.toml"])
def test_the_starter_musters_are_valid_and_about_250_points(name: str) -> None:
    report = RULES.report(load_muster(MUSTERS / name).to_army_list())
    assert report.valid, report.problems
    assert 230 <= report.total <= 270 and 245 <= report.basic_total <= 255
    assert all(s.state == "green" for s in report.shape)
    assert report.game is not None and report.game.name == "Common" and report.battle_points == 1


def test_the_starter_musters_are_the_battle_scenarios_armies() -> None:
    scenario = load_scenario(ROOT / "examples" / "exillis" / "starter.yaml")
    for side, name in (("A", "broken_wing.yaml"), ("B", "brec_helean.toml")):
        muster, army = load_muster(MUSTERS / name), scenario.army(side)
        assert muster.name == army.name and muster.general == army.general[0]
        assert [(u.unit, u.level, u.hero, u.hero_level) for u in muster.units] == [
            (u.unit, u.level, u.hero, u.hero_level if u.hero else None) for u in army.units]
    assert {RULES.report(load_muster(MUSTERS / n).to_army_list()).basic_total
            for n in ("broken_wing.yaml", "brec_helean.toml")} == set(scenario.points().values())


def test_the_invalid_example_shows_many_problems_at_once() -> None:
    report = RULES.report(load_muster(MUSTERS / "invalid.yaml").to_army_list())
    rules = {p.rule for p in report.problems}
    assert len(rules) >= 8 and {"one-general", "hero-twice", "loner-retinue", "loner-joins",
                                "hero-without-retinue", "unknown-unit", "miniatures-minimum"} <= rules


def sample() -> Muster:
    return Muster(name="Épée & <Bouclier>", game_type="Grand", faction="Broken Wing", generals=("Decurion",),
                  description="Line one\nline two: 'quotes' and \"doubles\"",
                  units=(MusterEntry(unit="Billmen", miniatures=6, level=12, hero="Decurion", hero_level=15,
                                     label="The # first"),
                         MusterEntry(unit="Longbowmen", level=10), MusterEntry(unit="Ympes")))


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".toml"])
def test_round_trip_is_identical(tmp_path: Path, suffix: str) -> None:
    first = tmp_path / f"a{suffix}"
    save_muster(sample(), first)
    loaded = load_muster(first)
    assert loaded == sample()
    second = tmp_path / f"b{suffix}"
    save_muster(loaded, second)
    assert load_muster(second) == loaded and second.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")


def test_round_trip_across_formats_and_of_every_example(tmp_path: Path) -> None:
    for path in sorted(MUSTERS.iterdir()):
        muster = load_muster(path)
        for suffix in (".yaml", ".toml"):
            out = tmp_path / f"{path.stem}{suffix}"
            save_muster(muster, out)
            assert load_muster(out) == muster


def test_the_file_shape_leaves_out_absent_values() -> None:
    d = Muster(name="X", game_type="Common", units=(MusterEntry(unit="Billmen"),)).to_dict()
    assert d == {"name": "X", "game_type": "Common", "units": [{"unit": "Billmen", "level": 1}]}
    assert Muster.from_dict(d) == Muster(name="X", game_type="Common", units=(MusterEntry(unit="Billmen"),))


def test_general_reads_one_name_or_a_list() -> None:
    one = Muster.from_dict({"name": "X", "game_type": "Common", "general": "Decurion"})
    two = Muster.from_dict({"name": "X", "game_type": "Common", "general": ["Decurion", "Marrenne"]})
    assert one.general == "Decurion" and one.generals == ("Decurion",)
    assert two.generals == ("Decurion", "Marrenne") and two.to_dict()["general"] == ["Decurion", "Marrenne"]
    army = two.to_army_list()
    assert army.general == "Decurion" and army.extra["generals"] == ("Decurion", "Marrenne")
    assert Muster.from_dict({"name": "X", "game_type": "Common"}).general is None


def test_to_army_list_keeps_every_entry() -> None:
    army = sample().to_army_list()
    assert army.ruleset == "exillis" and army.game_type == "Grand" and army.faction == "Broken Wing"
    first = army.units[0]
    assert (first.unit, first.miniatures, first.level, first.attached, first.attached_level, first.label) == (
        "Billmen", 6, 12, "Decurion", 15, "The # first")
    assert army.units[2].miniatures is None and army.units[2].level == 1
    assert first.to_dict() == sample().units[0].to_dict()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(DataFileError) as info:
        load_muster(path)
    assert info.value.path == str(path)
    return info.value.problems


def test_yaml_shape_errors_all_at_once_each_with_its_line_and_field(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "name: Bad\ngame_type: Common\ngenral: Decurion\nunits:\n"
                                       "  - unit: Billmen\n    level: three\n  - unit: Vileins\n    hero_level: 3\n"
                                       "  - levl: 3\n")
    found = problems_of(path)
    assert found == [
        "line 3, field genral: unknown field (expected one of name, game_type, faction, general, description, "
        "units); did you mean 'general'?",
        "line 6, units 1 ('Billmen'), field level: expected a whole number, got 'three'",
        "line 7, units 2 ('Vileins'): hero_level is given without a hero; remove it or add hero: ...",
        "line 9, units 3, field unit: required field is missing",
        "line 9, units 3, field levl: unknown field (expected one of unit, miniatures, level, hero, hero_level, "
        "label); did you mean 'level'?",
    ]


def test_toml_shape_errors_with_their_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", 'name = "Bad"\ngame_type = 3\n\n[[units]]\nunit = "Billmen"\n\n[[units]]\n'
                                       'unit = "Vileins"\nminiatures = "8"\ncolour = "red"\n')
    found = problems_of(path)
    assert found[0] == "line 2, field game_type: expected text, got 3"
    assert found[1] == "line 9, units 2 ('Vileins'), field miniatures: expected a whole number, got '8'"
    assert found[2].startswith("line 10, units 2 ('Vileins'), field colour: unknown field")


def test_a_float_level_is_not_a_whole_number(tmp_path: Path) -> None:
    path = write(tmp_path, "f.yaml", "name: F\ngame_type: Common\nunits:\n  - unit: Billmen\n    level: 3.5\n")
    assert problems_of(path) == ["line 5, units 1 ('Billmen'), field level: expected a whole number, got 3.5"]


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("syntax.yaml", "name: x\nunits: [\n", "YAML syntax error at line 3"),
    ("syntax.toml", 'name = "x"\nunits = [\n', "TOML syntax error"),
    ("dup.yaml", "name: a\nname: b\ngame_type: Common\n", "duplicate key 'name'"),
    ("list.yaml", "- a\n- b\n", "expected a mapping"),
    ("missing.yaml", "units: []\n", "field name: required field is missing"),
    ("army.txt", "name = 'x'\n", "unsupported file type '.txt'"),
])
def test_unreadable_files(tmp_path: Path, name: str, text: str, expected: str) -> None:
    path = write(tmp_path, name, text)
    assert expected in "; ".join(problems_of(path))


def test_a_missing_file(tmp_path: Path) -> None:
    assert problems_of(tmp_path / "nope.yaml") == ["file not found"]


def test_save_refuses_an_unknown_extension(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="unsupported file type"):
        save_muster(sample(), tmp_path / "a.json")


def test_saved_files_are_plain_yaml_and_toml(tmp_path: Path) -> None:
    save_muster(sample(), tmp_path / "a.yaml")
    save_muster(sample(), tmp_path / "a.toml")
    assert yaml.safe_load((tmp_path / "a.yaml").read_text(encoding="utf-8")) == sample().to_dict()
    assert tomllib.loads((tmp_path / "a.toml").read_text(encoding="utf-8")) == sample().to_dict()


def test_the_muster_data_file_rejects_unknown_names(tmp_path: Path) -> None:
    bad = write(tmp_path, "m.yaml", (ROOT / "src/rulekeeper/rulesets/exillis/data/musters.yaml").read_text(
        encoding="utf-8").replace("tags: [Angelic], cost_factor: 0.85", "tags: [Angelik], cost_factor: 0.85"))
    with pytest.raises(DataFileError, match="unknown tag 'Angelik'"):
        load_musters_data(bad)


def test_muster_data_overrides_merge_row_by_row(tmp_path: Path) -> None:
    override = write(tmp_path, "o.yaml", "musters:\n  shortage_base: {value: army, source: user}\n"
                                         "  factions:\n    Lux Dei: {rules: [Fallen], promotion: 0.2, source: user}\n")
    data = load_musters_data(overrides=override)
    assert data.shortage_base.value == "army" and data.factions["Lux Dei"].promotion == 0.2
    assert data.factions["Broken Wing"] == load_musters_data().factions["Broken Wing"]
    with pytest.raises(DataFileError, match="musters"):
        load_musters_data(overrides=write(tmp_path, "n.yaml", "units: {}\n"))


@pytest.mark.parametrize("suffix", [".yaml", ".toml"])
@pytest.mark.parametrize("text", ["a\u2028b", "a\u2029", "tab\there", "  spaced  ",
                                  "# not a comment", "yes", "null", "3", "'quoted'", 'say "hi"', "back\\slash"])
def test_awkward_text_round_trips(tmp_path: Path, suffix: str, text: str) -> None:
    """Found by hypothesis: PyYAML writes NEL raw in single quotes and reads it back changed."""
    muster = Muster(name=text, game_type="Common", description=text, units=(MusterEntry(unit="Billmen", label=text),))
    path = tmp_path / f"m{suffix}"
    save_muster(muster, path)
    assert load_muster(path) == muster


@pytest.mark.parametrize("suffix", [".yaml", ".toml"])
@pytest.mark.parametrize("text", ["x\x85", "\x00nul", "esc\x1b[31m"])
def test_a_control_character_in_a_saved_muster_is_refused_on_reading(tmp_path: Path, suffix: str, text: str) -> None:
    """Control characters (NEL and NUL once round-tripped) are refused by the bounded reader: an ESC in a name
    reached the terminal when ``muster check`` printed it."""
    muster = Muster(name=text, game_type="Common", units=(MusterEntry(unit="Billmen"),))
    path = tmp_path / f"m{suffix}"
    save_muster(muster, path)
    with pytest.raises(DataFileError, match="control character U\\+00"):
        load_muster(path)
