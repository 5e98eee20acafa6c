"""Hostile requests found by probing the web keeper: no 500, our error format, safe headers, no CDN."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.web.api import SECURITY_HEADERS, create_app


def test_every_answer_carries_the_security_headers_and_docs_need_no_cdn(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db"))
    for url in ("/", "/api/scenarios", "/openapi.json", "/b/nope?token=x"):
        r = client.get(url)
        for name, value in SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (url, name)
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200


def test_a_non_ascii_battle_id_with_a_real_token_is_the_common_404(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db"))
    made = client.post("/api/battles", json={"scenario": "duel", "seed": 1}).json()
    token = made["tokens"]["A"]
    for bid in ("bé-ü", "b-\u2603", made["id"] + "é"):
        r = client.get(f"/api/battles/{bid}", params={"token": token})
        assert r.status_code == 404 and r.json()["error"] == "not_found", (bid, r.text)
        assert client.get(f"/b/{bid}", params={"token": token}).status_code == 404
