"""Live updates pushed by the server (server-sent events), checked without a browser.

The browser test plays two devices against each other through them; here the stream itself:
a change made by this keeper is sent at once, one made by another process within a revision
check, nothing of the battle but its version, and a bad link gets no stream.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulekeeper.web import live
from rulekeeper.web.api import create_app


def _battle(revision: dict[str, int]) -> tuple[Callable[[], Awaitable[int]], Callable[[], Awaitable[str]],
                                                Callable[[], Awaitable[bool]]]:
    """A stand-in battle for the stream: its revision, its version, and a page that never leaves."""

    async def rev() -> int:
        return revision["n"]

    async def ver() -> str:
        return f"{revision['n']}.0"

    async def never() -> bool:
        return False

    return rev, ver, never


def test_a_notified_change_wakes_the_stream_at_once() -> None:
    changes = live.Changes()
    revision = {"n": 0}
    rev, ver, never = _battle(revision)

    async def run() -> list[tuple[str, float]]:
        assert changes.admit()
        stream: AsyncIterator[str] = live.version_events(changes, "b-1", "0.0", rev, ver, never)
        got: list[tuple[str, float]] = []
        assert await anext(stream) == "retry: 1000\n\n"
        loop = asyncio.get_running_loop()

        def write_elsewhere() -> None:  # a worker thread of the keeper writes, then notifies
            time.sleep(0.05)
            revision["n"] = 1
            changes.notify("b-1")

        started = time.monotonic()
        loop.run_in_executor(None, write_elsewhere)
        event = await asyncio.wait_for(anext(stream), 2)
        got.append((event, time.monotonic() - started))
        await stream.aclose()  # type: ignore[attr-defined]
        return got

    (event, waited), = asyncio.run(run())
    assert event == "event: changed\ndata: 1.0\n\n"
    assert waited < 0.05 + live.CHECK_EVERY  # woken by the notification, not the next check
    assert changes.open == 0


def test_a_write_from_another_process_is_seen_by_the_revision_check(monkeypatch: pytest.MonkeyPatch) -> None:
    changes = live.Changes()
    revision = {"n": 3}
    rev, ver, never = _battle(revision)

    async def run() -> str:
        changes.admit()
        stream = live.version_events(changes, "b-1", "3.0", rev, ver, never)
        await anext(stream)
        threading.Timer(0.1, lambda: revision.__setitem__("n", 4)).start()  # no notify: the CLI wrote
        event = await asyncio.wait_for(anext(stream), 2)
        await stream.aclose()  # type: ignore[attr-defined]
        return event

    assert asyncio.run(run()) == "event: changed\ndata: 4.0\n\n"


def test_the_stream_needs_a_valid_link_and_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.db"
    client = TestClient(create_app(db))
    made = client.post("/api/battles", json={"scenario": "wartable:oathsworn_vs_bloodless", "seed": 1}).json()
    bid, tokens = made["id"], made["tokens"]
    assert client.get(f"/b/{bid}/events", params={"token": "guess"}).status_code == 404
    monkeypatch.setattr(live, "LIFETIME", 0.6)
    with client.stream("GET", f"/b/{bid}/events", params={"token": tokens["spectator"], "v": "stale"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        body = "".join(r.iter_text())
    assert body.startswith("retry: 1000") and "event: changed\ndata: 0.0" in body  # the version, nothing else
    assert client.app.state.keeper.changes.open == 0  # type: ignore[attr-defined]
    monkeypatch.setattr(live, "MAX_STREAMS", 0)
    full = client.get(f"/b/{bid}/events", params={"token": tokens["spectator"]})
    assert full.status_code == 503 and full.json()["error"] == "busy"


def test_one_link_or_one_battle_cannot_hold_every_live_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23, fault 9: the cap was global, so one spectator link could hold all 256 streams."""
    changes = live.Changes()
    admitted = [changes.admit("b-1", "spectator-link") for _ in range(10)]
    assert admitted.count(True) == live.MAX_PER_LINK and not admitted[-1]
    others = [changes.admit("b-1", f"link-{i}") for i in range(60)]
    assert others.count(True) == live.MAX_PER_BATTLE - live.MAX_PER_LINK
    assert changes.admit("b-2", "spectator-link")  # another battle still gets its streams
    assert changes.open == live.MAX_PER_BATTLE + 1
    changes.leave("b-1", "link-0")  # a stream of the full battle closes: one more may open, not two
    assert changes.admit("b-1", "new-link") and not changes.admit("b-1", "another-link")
