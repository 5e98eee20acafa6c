"""What the page-level web tests share (the ``client`` fixture, a keeper on a fresh database, is in
``conftest.py``): a battle made through the "new battle"
form with its secret links, a page fetched with a link's token, and an action posted as the form posts it."""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi.testclient import TestClient

Links = dict[str, str]


def new(client: TestClient, scenario: str, seed: str = "7") -> tuple[str, Links, str]:
    """A battle of ``scenario`` made through the form: its id, each role's token, and the page's text."""
    r = client.post("/new", data={"scenario": scenario, "seed": seed})
    assert r.status_code == 201, r.text
    links = {k: html.unescape(v) for k, v in re.findall(r'id="link-([\w-]+)"[^>]*value="([^"]+)"', r.text)}
    bid = re.findall(r"/b/([\w-]+)\?", next(iter(links.values())))[0]
    return bid, {role: url.split("token=")[1] for role, url in links.items()}, r.text


def page(client: TestClient, bid: str, token: str, path: str = "", **q: Any) -> str:
    r = client.get(f"/b/{bid}{path}", params={"token": token, **q})
    assert r.status_code == 200, r.text
    return str(r.text)


def position(client: TestClient, bid: str, token: str) -> int:
    return int(client.get(f"/api/battles/{bid}", params={"token": token}).json()["position"])


def act(client: TestClient, bid: str, token: str, **fields: str) -> Any:
    data = {"token": token, "position": str(position(client, bid, token)), **fields}
    return client.post(f"/b/{bid}/act", data=data, follow_redirects=False)
