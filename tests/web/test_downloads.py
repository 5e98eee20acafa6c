"""Downloading a battle's log and export: content types and file names, face-down results withheld,
the export only once it gives nothing away, and it imports back into another keeper."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_pages import new_battle

from rulekeeper.web.api import create_app


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)


def keeper(client: TestClient) -> Any:
    return client.app.state.keeper  # type: ignore[attr-defined]


def get(client: TestClient, b: dict[str, Any], what: str, role: str = "A", **params: str) -> Any:
    return client.get(f"/b/{b['id']}/download/{what}", params={"token": b["tokens"][role], **params})


def test_the_log_as_text_and_json(client: TestClient) -> None:
    b = new_battle(client)
    keeper(client).service.autoplay(b["id"], max_actions=3)
    text = get(client, b, "log")
    assert text.status_code == 200 and text.headers["content-type"] == "text/plain; charset=utf-8"
    assert text.headers["content-disposition"] == f'attachment; filename="rulekeeper-{b["id"]}-log.txt"'
    assert text.headers["cache-control"] == "no-store"
    doc = get(client, b, "log", format="json")
    assert doc.headers["content-type"] == "application/json"
    assert doc.headers["content-disposition"] == f'attachment; filename="rulekeeper-{b["id"]}-log.json"'
    log = doc.json()
    assert log["format"] == "rulekeeper-log" and log["position"] == 3 and len(log["entries"]) == 3
    api = client.get(f"/api/battles/{b['id']}/log", params={"token": b["tokens"]["B"]}).json()
    for mine, theirs in zip(log["entries"], api["entries"], strict=True):  # what the API's log gives, no more
        assert mine["action"] == theirs["action"] and mine["report"] == theirs["report"]
        assert mine["text"] in text.text
        assert "chance" not in mine and "rng" not in json.dumps(mine)
    page = client.get(f"/b/{b['id']}/log", params={"token": b["tokens"]["A"]}).text
    assert "download/log?token=" in page and "download/log?token=" in html.unescape(page)
    assert 'hx-boost="false" download' in page  # htmx must not swap a file into the page


def test_face_down_results_are_withheld_from_every_download(client: TestClient) -> None:
    b = new_battle(client)
    k = keeper(client)
    state = k.service.autoplay(b["id"])  # to the end: the last blow's results are still face down
    assert k.service.game(b["id"]).status(state).over
    rec = k.store.get(b["id"])
    last = k.store.entry(b["id"], rec.position - 1)
    assert not last.shown and last.result["chance"]
    secret = [line for line in k.service.game(b["id"]).web_presenter().log_lines(last.result["report"])
              if line.strip()]
    for role in ("A", "B", "spectator"):
        log = get(client, b, "log", role, format="json").json()
        hidden = log["entries"][-1]
        assert hidden["hidden"] and hidden["report"] == [] and hidden["lines"] == []
        assert not log["over"] and log["winner"] is None and log["fingerprint"] is None  # the end is not told
        assert all(not e["hidden"] for e in log["entries"][:-1])
        text = get(client, b, "log", role).text
        assert text.rstrip().endswith("Results not revealed yet.") and "Fingerprint" not in text and "over:" not in text
        assert not any(line in text for line in secret if len(line) > 25)
        refused = get(client, b, "export", role)
        assert refused.status_code == 409 and "export_not_ready" in refused.text
        assert "text/html" in refused.headers["content-type"]
    side = k.service.game(b["id"]).side_of(last.action)
    r = client.post(f"/b/{b['id']}/reveal", data={"token": b["tokens"][side], "position": str(rec.position)})
    assert r.status_code == 303
    log = get(client, b, "log", "spectator", format="json").json()
    assert not log["entries"][-1]["hidden"] and log["entries"][-1]["report"] and log["over"]
    assert log["fingerprint"] and "Fingerprint" in get(client, b, "log", "spectator").text


def test_the_export_of_a_finished_battle_imports_into_another_keeper(client: TestClient, tmp_path: Path) -> None:
    b = new_battle(client, seed=8)
    assert get(client, b, "export").status_code == 409  # not over: the seed would foretell every roll
    k = keeper(client)
    k.service.autoplay(b["id"])
    rec = k.store.get(b["id"])
    k.store.mark_shown(b["id"], rec.position - 1)
    r = get(client, b, "export", "spectator")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.headers["content-disposition"] == f'attachment; filename="rulekeeper-{b["id"]}.json"'
    log_page = client.get(f"/b/{b['id']}/log", params={"token": b["tokens"]["B"]}).text
    assert "download/export?token=" in log_page
    path = tmp_path / "battle.json"
    path.write_bytes(r.content)
    other = create_app(tmp_path / "other.db").state.keeper
    assert other.service.import_(path) == b["id"]
    assert other.service.replay(b["id"]).identical and other.store.get(b["id"]).position == rec.position
    assert json.loads(r.content)["log"][-1]["action"] == k.store.entry(b["id"], rec.position - 1).action


def test_no_link_no_download(client: TestClient) -> None:
    b = new_battle(client)
    for what in ("log", "export"):
        for params in ({}, {"token": "wrong"}, {"token": "x" * 300}):
            r = client.get(f"/b/{b['id']}/download/{what}", params=params)
            assert r.status_code == 404 and "not_found" in r.text
        assert client.get(f"/b/nope/download/{what}", params={"token": b["tokens"]["A"]}).status_code == 404
    by_header = client.get(f"/b/{b['id']}/download/log", headers={"X-Rulekeeper-Token": b["tokens"]["B"]})
    assert by_header.status_code == 200 and by_header.headers["content-type"].startswith("text/plain")
