"""Confrontation skirmishes through the generic ``battle`` commands, in-process (typed errors exit 2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_kit import run

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"


def _id(out: str) -> str:
    doc = json.loads(out)
    bid = doc.get("id") or doc.get("battle", {}).get("id")
    assert bid, doc
    return str(bid)


def test_a_skirmish_in_the_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                              tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    code, out, _ = run(monkeypatch, capsys, "battle", "new", str(FORD), "--seed", "3", "--db", db, "--json")
    assert code == 0, out
    bid = _id(out)
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", db)
    assert code == 0 and "Hunters at the ford — round 1 of 4" in out
    assert "Distances (cm" in out and "24.8" in out and "|" in out  # the map and the distance table
    assert "##" in out and "··3" in out and "a··" in out  # the boulder, the guard (3), the hunter (a)
    code, out, _ = run(monkeypatch, capsys, "battle", "actions", bid, "--db", db)
    assert code == 0 and "roll the Tactical" in out and "Tactical roll" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "tactical", "--db", db)
    assert code == 0 and "Tactical roll: Lions of Alahan" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "lead", "A", "--db", db)
    assert code == 0 and "Lions of Alahan act first" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "actions", bid, "--db", db)
    assert code == 0 and re.search(r"Alahan guard walks [\d.]+ cm", out) and "Pass: Wolfen" in out and "holds" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "move", "Alahan", "guard", "14.5,15", "--db", db)
    assert code == 0 and "Alahan guard walks 7.5 cm to (14.5, 15)" in out
    code, _, err = run(monkeypatch, capsys, "battle", "act", bid, "move", "Wolfen hunter", "10,22", "--db", db)
    assert code == 2 and "beyond his MOV of 15 cm" in err
    code, _, err = run(monkeypatch, capsys, "battle", "act", bid, "charge", "Wolfen hunter", "Nobody", "--db", db)
    assert code == 2
    code, out, _ = run(monkeypatch, capsys, "battle", "undo", bid, "--db", db)
    assert code == 0
    code, out, _ = run(monkeypatch, capsys, "battle", "autoplay", bid, "--db", db)
    assert code == 0
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", db)
    assert code == 0 and "The skirmish is over" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "replay", bid, "--db", db, "--json")
    assert code == 0 and json.loads(out)["identical"] is True


def test_odds_and_resolve_of_a_fray(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """"each combatant gets 1 combat die, and another 1 per opponent the model is fighting": one Wolfen hunter
    against two Alahan swordsmen has 3 dice, each swordsman 2; the odds of every end sum to 1."""
    args = ("Wolfen hunter", "Alahan swordsman", "Alahan swordsman", "--camp-a", "1")
    code, out, _ = run(monkeypatch, capsys, "odds", "confrontation", "combat", *args, "--json")
    assert code == 0, out
    doc = json.loads(out)
    assert doc["kind"] == "fray" and doc["method"] == "exact"
    assert doc["fighters"] == ["Wolfen hunter", "Alahan swordsman", "Alahan swordsman 2"]
    assert doc["dice"] == {"Wolfen hunter": 3, "Alahan swordsman": 2, "Alahan swordsman 2": 2}
    assert abs(sum(o["p"] for o in doc["outcomes"]) - 1) < 1e-9
    code, out, _ = run(monkeypatch, capsys, "resolve", "confrontation", "combat", *args, "--seed", "4", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["kind"] == "fray" and len(doc["end"]) == 3
    assert doc["chance"][0]["label"].startswith("INI test: ")
    code, _, err = run(monkeypatch, capsys, "odds", "confrontation", "combat", *args[:3], "--camp-a", "3")
    assert code == 2 and "--camp-a" in err
