"""No public list of battles; the host link lists them and issues new links (revoking the old).

Issue "Nothing hostile gets through", point 5: "the home page lists every battle ID to anyone,
though ``docs/web.md`` says nobody can probe which battles exist".
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.web.api import create_app
from rulekeeper.web.ratelimit import RateLimits

SCENARIO = "wartable:oathsworn_vs_bloodless"


def _client(tmp_path: Path, **kw: object) -> TestClient:
    return TestClient(create_app(tmp_path / "w.db", host_key="the-host-key", **kw))  # type: ignore[arg-type]


def test_the_home_page_lists_no_battle_and_the_host_page_lists_them_all(tmp_path: Path) -> None:
    client = _client(tmp_path)
    made = client.post("/api/battles", json={"scenario": SCENARIO, "seed": 3}).json()
    home = client.get("/").text
    assert made["id"] not in home and "host link" in home
    host = client.get("/host?key=the-host-key")
    assert host.status_code == 200 and made["id"] in host.text
    for wrong in ("/host", "/host?key=guess", "/host?key=th%C3%A9-host-key"):
        refused = client.get(wrong)
        assert refused.status_code == 404 and made["id"] not in refused.text


def test_new_links_revoke_the_old_ones(tmp_path: Path) -> None:
    client = _client(tmp_path)
    made = client.post("/api/battles", json={"scenario": SCENARIO, "seed": 3}).json()
    bid, old = made["id"], made["tokens"]
    assert client.get(f"/api/battles/{bid}", headers={"X-Rulekeeper-Token": old["spectator"]}).status_code == 200
    assert client.post("/host/links", data={"key": "nope", "battle": bid}).status_code == 404
    page = client.post("/host/links", data={"key": "the-host-key", "battle": bid})
    assert page.status_code == 201 and "old links no longer open it" in page.text
    new = dict(re.findall(r'id="link-(\w+)" type="text" readonly value="[^"]*token=([\w-]+)"', page.text))
    assert set(new) == set(old) and not set(new.values()) & set(old.values())
    for role in old:
        assert client.get(f"/api/battles/{bid}", headers={"X-Rulekeeper-Token": old[role]}).status_code == 404
        seen = client.get(f"/api/battles/{bid}", headers={"X-Rulekeeper-Token": new[role]})
        assert seen.status_code == 200 and seen.json()["role"] == role
    assert client.post("/host/links", data={"key": "the-host-key", "battle": "b-none"}).status_code == 404


def test_guessing_the_host_key_is_rate_limited(tmp_path: Path) -> None:
    client = _client(tmp_path, rate_limits=RateLimits(guesses=5))
    codes = [client.get(f"/host?key=guess{i}").status_code for i in range(8)]
    assert codes[:5] == [404] * 5 and codes[-1] == 429
