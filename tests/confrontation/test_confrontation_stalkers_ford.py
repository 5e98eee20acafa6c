"""*The stalker's ford* (issue 24: "Ship at least two more Confrontation scenarios that use shooting, terrain and
fleeing"): marksmen on both sides, water, a ford, a wood and a hedge that cover, a routed swordsman, and a stalker
whose Leap carries him over the stream; played from the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_kit import run

STALKERS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/" \
    "the_stalkers_ford.yaml"


def test_the_stalkers_ford_plays_shooting_terrain_fleeing_and_a_leap_in_the_cli(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    code, out, _ = run(monkeypatch, capsys, "battle", "new", str(STALKERS), "--seed", "1", "--db", db, "--json")
    assert code == 0, out
    bid = str(json.loads(out).get("id") or json.loads(out)["battle"]["id"])
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", db)
    assert code == 0 and "The stalker's ford" in out and "~" in out and "%" in out and "#" in out
    for words in (["ready"], ["ready"], ["tactical"], ["lead", "B"]):  # no move under cover
        code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, *words, "--db", db)
        assert code == 0, out
    code, out, _ = run(monkeypatch, capsys, "battle", "actions", bid, "--db", db, "--json")
    texts = [a["text"] for a in json.loads(out)["actions"]]
    assert code == 0 and "Wolfen stalker leaps over the south stream (15.0 cm)" in texts
    assert any(t.startswith("Wolfen tracker shoots") for t in texts)  # the marksman across the stream
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "leap", "Wolfen", "stalker", "25,8", "--db", db)
    assert code == 0 and "leaps over the south stream" in out, out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "move", "Swordsman", "Berto", "6,20", "--db", db)
    assert code == 2 and "in rout" in out + _  # his activation is his flight
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "flee", "Swordsman", "Berto", "--db", db)
    assert code == 0 and "Swordsman Berto flees" in out, out
