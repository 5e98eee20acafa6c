"""The Battle System in the command line (odds, resolve, units, battle …) and in the web keeper.

The CLI runs in-process through ``rulekeeper.cli.app.main()`` (typed errors exit 2); the web keeper
through FastAPI's TestClient. Neither the service nor the web keeper knows the Battle System: it
plays through the game protocol (its SVG board is tested in test_battlesystem_web.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cli_kit import run
from rulekeeper.web.api import create_app

RIVER = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/battlesystem/data/scenarios/river_crossing.yaml"


def test_odds_attack_light_infantry_on_heavy_infantry(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "odds", "battlesystem", "attack", "Light Infantry", "Heavy Infantry",
                       "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["formula"] == "5d10+6+0-20 (or simply 5d10-14)"
    # 5d10 - 14 < 0 when 5d10 <= 13: 1287 of the 10^5 rolls
    assert doc["p_fail"] == pytest.approx(0.01287)
    assert doc["mean_casualties"] == pytest.approx(13.53003)
    assert doc["casualties"]["24"] == pytest.approx(0.01745)  # 5d10 = 38: 1745 of the 10^5 rolls
    assert sum(doc["morale_damage"].values()) == pytest.approx(1.0)
    code, out, _ = run(monkeypatch, capsys, "odds", "battlesystem", "attack", "Light Infantry", "Heavy Infantry")
    assert code == 0 and "5d10+6+0-20 (or simply 5d10-14)" in out and "1.29%" in out


def test_resolve_and_units(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(monkeypatch, capsys, "resolve", "battlesystem", "missile", "Archers", "Light Infantry",
                       "--seed", "4", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["formula"] == "5d10+10+0-14 (or simply 5d10-4)" and doc["ammunition_spent"] == 1
    assert doc["casualties"] == max(0, doc["roll"])
    code, out, _ = run(monkeypatch, capsys, "resolve", "battlesystem", "barrage", "Artillery", "Light Infantry",
                       "--adjacent", "Military Police", "--seed", "4", "--json")
    doc = json.loads(out)
    roll = doc["roll"]
    assert [h["casualties"] for h in doc["hits"]] == [roll - 14, (roll - 12) // 2]
    code, _, err = run(monkeypatch, capsys, "resolve", "battlesystem", "missile", "Archers", "Light Infantry",
                       "--distance", "9")
    assert code == 2 and "beyond its range 6" in err
    code, _, err = run(monkeypatch, capsys, "odds", "battlesystem", "attack", "Light Infantri", "Pikemen")
    assert code == 2 and "Light Infantry" in err
    code, out, _ = run(monkeypatch, capsys, "units", "battlesystem", "--json")
    units = json.loads(out)
    assert len(units) == 18 and units[0]["movement"] == {"value": 4, "source": "seed", "why": units[0]["movement"]["why"]}
    # the guide's thirteen, then our General (data/command.yaml), every number of it estimated
    assert units[-1]["name"] == "General" and units[-1]["range"]["source"] == "estimated"
    code, out, _ = run(monkeypatch, capsys, "units", "battlesystem")
    assert code == 0 and "Battlemages" in out and "General" in out


def test_battle_new_autoplay_in_the_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    code, out, _ = run(monkeypatch, capsys, "battle", "new", str(RIVER), "--ruleset", "battlesystem", "--seed", "7",
                       "--db", db, "--autoplay", "--json")
    assert code == 0, out
    doc = json.loads(out)
    bid = doc.get("id") or doc.get("battle", {}).get("id")
    assert bid, doc
    code, out, _ = run(monkeypatch, capsys, "battle", "replay", str(bid), "--db", db, "--json")
    assert code == 0 and json.loads(out)["identical"] is True
    code, out, _ = run(monkeypatch, capsys, "battle", "new", str(RIVER), "--seed", "2", "--db", db, "--json")
    second = json.loads(out)
    bid2 = second.get("id") or second.get("battle", {}).get("id")
    code, out, _ = run(monkeypatch, capsys, "battle", "act", str(bid2), "move", "Riverguard Foot", "C2", "--db", db)
    assert code == 0 and "Riverguard Foot move B2 → C2" in out
    code, _, err = run(monkeypatch, capsys, "battle", "act", str(bid2), "attack", "Riverguard Foot", "Hill Guns",
                       "--db", db)
    assert code == 2 and "not legal now" in err


def test_a_battlesystem_battle_in_the_web_keeper(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)
    keys = [s["key"] for s in client.get("/api/scenarios").json()]
    assert {"battlesystem:river_crossing", "battlesystem:hill_road"} <= set(keys)
    made = client.post("/api/battles", json={"scenario": "battlesystem:river_crossing", "seed": 3})
    assert made.status_code == 201, made.text
    bid, tokens = made.json()["id"], made.json()["tokens"]
    a = {"token": tokens["A"]}
    acts = client.get(f"/api/battles/{bid}/actions", params=a).json()
    assert acts["yours"] and {"move", "end_turn"} <= {x["kind"] for x in acts["actions"]}
    for body in ({"kind": "move", "unit": "Riverguard Foot", "to": "C2"}, {"kind": "end_turn"}):
        pos = client.get(f"/api/battles/{bid}", params=a).json()["position"]
        r = client.post(f"/api/battles/{bid}/actions", params=a, json={**body, "position": pos})
        assert r.status_code == 200, r.text
        assert "rng" not in json.dumps(r.json())
    view = client.get(f"/api/battles/{bid}", params={"token": tokens["spectator"]}).json()
    assert view["state"]["to_act"] == "B" and view["state"]["turn"] == 2
    for role in ("A", "B", "spectator"):
        page = client.get(f"/b/{bid}", params={"token": tokens[role]})
        assert page.status_code == 200 and "River crossing" in page.text
    assert client.post("/new", data={"scenario": "battlesystem:hill_road", "seed": "4"}).status_code == 201
