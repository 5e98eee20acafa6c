"""Dragon Noir battles through the generic command line (in-process ``rulekeeper.cli.app.main()``) and the
JSON API: ``battle new/show/actions/act/undo/replay/autoplay``; typed refusals exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cli_kit import run
from rulekeeper.web.api import create_app

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/dragonnoir/data/scenarios"
MILL = SCENARIOS / "the_mill_house.yaml"


def _id(out: str) -> str:
    m = re.search(r"\bb-[0-9a-f]+\b", out)
    assert m, out
    return m.group(0)


def test_a_battle_in_the_command_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    code, out, _ = run(monkeypatch, capsys, "battle", "new", str(MILL), "--ruleset", "dragonnoir", "--seed", "7",
                       "--db", db)
    assert code == 0 and "The mill house" in out and "offensive fire" in out
    bid = _id(out)
    code, out, _ = run(monkeypatch, capsys, "battle", "actions", bid, "--db", db, "--json")
    assert code == 0 and "Jon shoots at Crazy Ork" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "shoot", "Jon", "crazy ork", "--db", db)
    assert code == 0 and "Jon shoots at Crazy Ork" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "end", "--db", db)
    assert code == 0 and "movement and defensive fire" in out
    code, _, err = run(monkeypatch, capsys, "battle", "act", bid, "move", "Laberne", "G5", "--db", db)
    assert code == 2 and "not legal now" in err
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "move", "Laberne", "B2", "--db", db)
    assert code == 0 and "Laberne moves A2 → B2" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "undo", bid, "--db", db)
    assert code == 0
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", db, "--json")
    doc = json.loads(out)
    state = doc.get("state", doc)
    assert "rng" not in json.dumps(doc)
    laberne = next(m for m in state["men"] if m["name"] == "Laberne")
    assert laberne["hexes"] == ["A2"] and state["phase"] == "move"
    code, out, _ = run(monkeypatch, capsys, "battle", "autoplay", bid, "--db", db)
    assert code == 0 and "The battle is over" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "replay", bid, "--db", db)
    assert code == 0 and "identical" in out


def test_a_battle_through_the_json_api(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)
    keys = [s["key"] for s in client.get("/api/scenarios").json()]
    assert {"dragonnoir:the_ford", "dragonnoir:the_mill_house"} <= set(keys)
    made = client.post("/api/battles", json={"scenario": "dragonnoir:the_mill_house", "seed": 3})
    assert made.status_code == 201, made.text
    bid, tokens = made.json()["id"], made.json()["tokens"]
    a = {"token": tokens["A"]}
    acts = client.get(f"/api/battles/{bid}/actions", params=a).json()
    assert acts["yours"] and {"shoot", "end_phase"} <= {x["kind"] for x in acts["actions"]}
    for body in ({"kind": "shoot", "unit": "jon", "target": "Crazy Ork"}, {"kind": "end"}):
        pos = client.get(f"/api/battles/{bid}", params=a).json()["position"]
        r = client.post(f"/api/battles/{bid}/actions", params=a, json={**body, "position": pos})
        assert r.status_code == 200, r.text
        assert "rng" not in json.dumps(r.json())
    bad = client.post(f"/api/battles/{bid}/actions", params=a, json={"kind": "attack", "units": "Nobody",
                                                                      "targets": "Jon"})
    assert 400 <= bad.status_code < 500
    view = client.get(f"/api/battles/{bid}", params={"token": tokens["spectator"]}).json()
    assert view["state"]["phase"] == "move" and view["state"]["to_act"] == "A"
