"""``rulekeeper odds|resolve dragonnoir …`` and ``units dragonnoir`` in-process; typed errors exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_kit import run
from rulekeeper.core.ruleset import find_ruleset

MAP = """width: 10
height: 4
terrain: {C1: trees, F3: brush}
edges: [{between: [H1, I1], feature: wall}]
characters:
  Laberne: {at: A1, side: heroes}
  Crazy Ork: {at: F1, side: foes}
  Goblin 1: {at: F3, side: foes}
"""


def test_dragonnoir_is_registered_by_its_entry_point() -> None:
    assert find_ruleset("Dragon Noir").name == "dragonnoir"


def test_odds_combat_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "combat", "--attackers", "Grast,Thrug",
                       "--defender", "Crazy Ork", "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["attack"], doc["defence"], doc["base_column"], doc["column"]) == (19, 4, "4-1", "5-1")
    assert doc["results"]["C"]["exact"] == "3/10" and doc["results"]["C"]["meaning"] == "defender retreats"
    assert [s["columns"] for s in doc["shifts"]] == [0, 1]


def test_odds_combat_screen_with_terrain(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "combat", "--attackers", "Grast@flat,Zed@trees",
                       "--defender", "Zacharie", "--terrain", "flat")
    assert code == 0
    assert "4-1" in out and "attacking together" in out and "(-)" in out


def test_odds_fire_on_a_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    m = tmp_path / "map.yaml"
    m.write_text(MAP, encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target",
                       "Goblin 1", "--map", str(m), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["line"]["possible"] and doc["line"]["cover"] == "light" and doc["odds"]["table"] == "foot"
    assert abs(sum(r["probability"] for r in doc["odds"]["results"].values()) - 1) < 1e-12
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target",
                       "Crazy Ork", "--map", str(m))
    assert code == 0 and "blocked" in out and "trees at C1" in out and "S" in out


def test_odds_fire_without_a_map(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "fire", "--shooter", "Elf 1", "--target",
                       "Grast", "--range", "10", "--cover", "light", "--json")
    assert code == 0
    odds = json.loads(out)["odds"]
    # medium range +2, Grast in armour +1, an Elf -1: die +2
    assert odds["band"] == "medium" and odds["die_modifier"] == 2


def test_resolve_is_the_same_roll_for_the_same_seed(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    args = ("resolve", "dragonnoir", "combat", "--attackers", "Troll 1", "--defender", "Zed", "--seed", "11", "--json")
    first = json.loads(run(monkeypatch, capsys, *args)[1])
    again = json.loads(run(monkeypatch, capsys, *args)[1])
    assert first == again and first["result"] == first["odds"]["rows"][str(first["die"])]


def test_units_lists_every_character(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "units", "dragonnoir", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 36
    laberne = next(r for r in rows if r["name"] == "Laberne")
    assert laberne["mounted.healthy"]["movement"] == {"value": 15, "source": "seed"}
    code, out, _ = run(monkeypatch, capsys, "units", "dragonnoir")
    assert code == 0 and "Crazy Ork" in out


@pytest.mark.parametrize("args", [
    ("odds", "dragonnoir", "combat", "--attackers", "Grastt", "--defender", "Zed"),
    ("odds", "dragonnoir", "combat", "--attackers", "Goblin 1", "--defender", "Troll 1"),
    ("odds", "dragonnoir", "combat", "--attackers", "Zed:flying", "--defender", "Goblin 1"),
    ("odds", "dragonnoir", "combat", "--attackers", "Zed@lava", "--defender", "Goblin 1"),
    ("odds", "dragonnoir", "combat", "--attackers", "Zed:mounted", "--defender", "Goblin 1"),
    ("odds", "dragonnoir", "combat", "--attackers", "Zed", "--defender", "Goblin 1", "--option", "dwarves=all"),
    ("odds", "dragonnoir", "fire", "--shooter", "Zed", "--target", "Goblin 1"),
    ("odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target", "Goblin 1", "--range", "99"),
    ("odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target", "Black Dragon head"),
    ("odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target", "Goblin 1", "--map", "/nonexistent.yaml"),
    ("resolve", "dragonnoir", "fire", "--shooter", "Laberne", "--target", "Goblin 1", "--cover", "total"),
    ("units", "dragonnoir", "--level", "2"),
])
def test_bad_input_is_a_typed_error_exit_2(args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(monkeypatch, capsys, *args, "--json")
    assert code == 2 and "Traceback" not in err
    assert json.loads(out)["error"]


def test_a_blocked_shot_cannot_be_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    m = tmp_path / "map.yaml"
    m.write_text(MAP, encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "resolve", "dragonnoir", "fire", "--shooter", "Laberne", "--target",
                       "Crazy Ork", "--map", str(m), "--json")
    assert code == 2 and "trees" in json.loads(out)["message"]


def test_a_bad_map_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    m = tmp_path / "bad.yaml"
    m.write_text(MAP.replace("F3: brush", "F3: lava"), encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target",
                       "Goblin 1", "--map", str(m), "--json")
    doc = json.loads(out)
    assert code == 2 and doc["error"] == "data_file" and "bad.yaml" in doc["message"] and "lava" in doc["message"]


def test_units_from_a_players_counter_sheet_are_marked_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    shipped = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/dragonnoir/data/characters.yaml"
    (tmp_path / "characters.yaml").write_text(shipped.read_text(encoding="utf-8").replace(
        "healthy: {attack: 5, movement: 7, defence: 5}", "healthy: {attack: 6, movement: 7, defence: 5}", 1),
        encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "units", "dragonnoir", "--data", str(tmp_path), "--json")
    laberne = next(r for r in json.loads(out) if r["name"] == "Laberne")
    assert code == 0 and laberne["foot.healthy"]["attack"] == {"value": 6, "source": "user"}


def test_odds_fire_with_errare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    m = tmp_path / "map.yaml"
    m.write_text(MAP, encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target",
                       "Goblin 1", "--map", str(m), "--option", "errare=on", "--json")
    doc = json.loads(out)
    assert code == 0 and len(doc["errare"]) == 6
    missed = doc["odds"]["results"]["A"]["probability"]
    assert all(abs(s["probability"] - missed / 10) < 1e-12 for s in doc["errare"])
    code, out, _ = run(monkeypatch, capsys, "odds", "dragonnoir", "fire", "--shooter", "Laberne", "--target",
                       "Goblin 1", "--map", str(m), "--json")
    assert "errare" not in json.loads(out)
