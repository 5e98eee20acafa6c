"""Everything anyone can send has a bounded cost (issue 23, faults 4 and 5).

A 3 KB Dragon Noir export claiming a 1000×1000 map took 4.5–9.8 s and 350–480 MiB to verify
(no link needed, no rate limit); a 416-unit Battle System scenario cost 750 s of CPU per page.
Both are now refused by the documented limits (docs/limits.md) before any work.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulekeeper.core.size import BATTLE_LIMITS, BattleTooLargeError
from rulekeeper.web.api import create_app
from rulekeeper.web.ratelimit import RateLimits


def _export(client: TestClient, scenario: str) -> dict[str, Any]:
    made = client.post("/api/battles", json={"scenario": scenario, "seed": 4}).json()
    doc = client.app.state.keeper.store.export(made["id"])  # type: ignore[attr-defined]
    assert isinstance(doc, dict)
    return doc


def test_an_export_claiming_a_huge_map_is_refused_fast(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db"))
    doc = _export(client, "dragonnoir:the_ford")
    doc["initial"]["scenario"]["width"] = doc["initial"]["scenario"]["height"] = 1000
    text = json.dumps(doc)
    assert len(text) < 8_000
    started = time.process_time()  # the app's CPU (TestClient runs it in this process), not the machine's load
    r = client.post("/verify", data={"export": text})
    took = time.process_time() - started
    assert r.status_code == 413 and "too large" in r.text and "1,000,000 cells" in r.text, r.text[-800:]
    assert took < 2.0, took


def test_verify_is_rate_limited_per_address(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db", rate_limits=RateLimits(verifications=3)))
    codes = [client.post("/verify", data={"export": "{}"}).status_code for _ in range(5)]
    assert codes == [422, 422, 422, 429, 429]


def test_a_416_unit_battle_is_refused_before_it_is_imported(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db"))
    doc = _export(client, "battlesystem:hill_road")
    units = doc["initial"]["scenario"]["units"]
    doc["initial"]["scenario"]["units"] = [{**units[i % len(units)], "name": f"U{i}"} for i in range(416)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc))
    service = client.app.state.keeper.service  # type: ignore[attr-defined]
    with pytest.raises(BattleTooLargeError, match="416 units"):
        service.import_(path, new_id=True)
    assert BATTLE_LIMITS.units < 416


def test_direction_controls_and_look_alike_twins_are_refused_in_names(tmp_path: Path) -> None:
    """Issue 23, fault 10: U+202E and a Cyrillic "а" gave three units all displayed as "Bank Archers"."""
    from rulekeeper.core.names import NameError_, check_names, folded

    assert folded("Bаnk Archers") == folded("bank  archers")  # Cyrillic а, case, spacing
    with pytest.raises(NameError_, match="U\\+202E"):
        check_names({"scenario": {"units": [{"name": "Bank \u202esrehcrA"}]}}, "scenario")
    with pytest.raises(NameError_, match="look the same"):
        check_names({"scenario": {"units": [{"name": "Bank Archers"}, {"name": "Bаnk Archers"}]}}, "scenario")
    check_names({"scenario": {"units": [{"name": "Bank Archers"}, {"name": "Bank Archers II"}]}}, "scenario")
    client = TestClient(create_app(tmp_path / "w.db"))
    doc = _export(client, "battlesystem:hill_road")
    units = doc["initial"]["scenario"]["units"]
    units[1]["name"] = units[0]["name"].replace("a", "а", 1) if "a" in units[0]["name"] else "\u202e" + units[1]["name"]
    path = tmp_path / "twins.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(NameError_):
        client.app.state.keeper.service.import_(path, new_id=True)  # type: ignore[attr-defined]
