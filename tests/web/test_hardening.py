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


def test_a_body_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from rulekeeper.web.bodylimit import MAX_BODY

    client = TestClient(create_app(tmp_path / "w.db"))
    big = b"x" * (MAX_BODY + 1)
    for url in ("/new", "/api/battles"):
        r = client.post(url, content=big, headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 413 and r.json()["error"] == "too_large", (url, r.text[:200])

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(4):
            yield b"y" * (MAX_BODY // 2)

    r = client.post("/api/battles", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    ok = client.post("/api/battles", json={"scenario": "duel", "seed": 1})
    assert ok.status_code == 201


def test_starlette_refusals_use_the_project_error_format(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db"))
    for method, url, status in (("GET", "/api/nowhere", 404), ("DELETE", "/api/battles", 405),
                                ("PUT", "/api/scenarios", 405), ("GET", "/static/nothing.css", 404)):
        r = client.request(method, url)
        assert r.status_code == status, (method, url)
        body = r.json()
        assert set(body) == {"error", "message"} and "detail" not in body, (method, url, body)


def test_guessing_links_and_mass_creation_are_rate_limited_per_client(tmp_path: Path) -> None:
    from rulekeeper.web.ratelimit import RateLimits

    client = TestClient(create_app(tmp_path / "w.db", rate_limits=RateLimits(window=60, guesses=5, creations=3)))
    made = client.post("/api/battles", json={"scenario": "duel", "seed": 1}).json()
    for i in range(5):
        assert client.get(f"/api/battles/{made['id']}", params={"token": f"guess{i}"}).status_code == 404
    r = client.get(f"/api/battles/{made['id']}", params={"token": "guess5"})
    assert r.status_code == 429 and r.json()["error"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
    assert r.headers["X-Frame-Options"] == "DENY"
    assert client.get(f"/b/{made['id']}", params={"token": "x"}).status_code == 429
    # issue 23, fault 6: the holder of a real link behind the same address is never locked out
    assert client.get(f"/api/battles/{made['id']}", params={"token": made["tokens"]["A"]}).status_code == 200
    assert client.get(f"/b/{made['id']}", params={"token": made["tokens"]["B"]}).status_code == 200
    assert client.get("/api/scenarios").status_code == 200  # the rest of the keeper still answers
    for _ in range(2):
        assert client.post("/api/battles", json={"scenario": "duel", "seed": 1}).status_code == 201
    assert client.post("/api/battles", json={"scenario": "duel", "seed": 1}).status_code == 429
    assert client.post("/new", data={"scenario": "duel"}).status_code == 429
