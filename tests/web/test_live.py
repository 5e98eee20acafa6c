"""Live updates pushed by the server (server-sent events), checked without a browser.

The browser test plays two devices against each other through them; here the stream itself:
a change made by this keeper is sent at once, one made by another process through the process's
one watcher (a revision check of every watched battle per interval on SQLite, not one per
stream), nothing of the battle but its version, and a bad link gets no stream.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulekeeper.persistence.store import BattleStore
from rulekeeper.web import live
from rulekeeper.web.api import create_app
from rulekeeper.web.watch import Watcher


def _battle(revision: dict[str, int]) -> tuple[Callable[[], Awaitable[str]], Callable[[], Awaitable[bool]]]:
    """A stand-in battle for the stream: its version (counting the reads), and a page that never leaves."""

    async def ver() -> str:
        revision["reads"] = revision.get("reads", 0) + 1
        return f"{revision['n']}.0"

    async def never() -> bool:
        return False

    return ver, never


def test_a_notified_change_wakes_the_stream_at_once() -> None:
    changes = live.Changes()
    revision = {"n": 0}
    ver, never = _battle(revision)

    async def run() -> list[tuple[str, float]]:
        assert changes.admit()
        stream: AsyncIterator[str] = live.version_events(changes, "b-1", "0.0", ver, never)
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


def test_a_write_from_another_process_is_seen_by_one_check_per_process_not_per_stream(tmp_path: Path) -> None:
    """Issue 23, fault 9: each stream read the store every 0.25 s; now one watcher per process does."""
    db = str(tmp_path / "w.db")
    with BattleStore(db) as store, BattleStore(db) as cli:  # the keeper's store; a command line's
        bid = store.create(ruleset="toy", scenario="s", seed=1, initial={"seed": 1})
        changes = live.Changes()
        watcher = Watcher(store, changes)
        revision = {"n": 3}
        ver, never = _battle(revision)

        async def run() -> list[str]:
            streams = []
            for i in range(20):
                assert changes.admit(bid, f"link-{i}")
                stream = live.version_events(changes, bid, "3.0", ver, never, f"link-{i}", watcher)
                await anext(stream)
                streams.append(stream)
            first = [asyncio.ensure_future(anext(s)) for s in streams]
            await asyncio.sleep(1.0)  # idle: 20 streams, one watcher
            idle_checks, idle_reads = watcher.checks, revision["reads"]
            revision["n"] = 4
            cli.set_status(bid, "active", turn=2)  # no notify: another process wrote
            events = await asyncio.wait_for(asyncio.gather(*first), 3)
            for s in streams:
                await s.aclose()  # type: ignore[attr-defined]
            assert idle_checks <= 1.0 / live.CHECK_EVERY + 3, idle_checks  # per process, not 20 x per stream
            assert idle_reads <= 2 * 20, idle_reads  # each stream read its version at the start (and once woken)
            return events

        events = asyncio.run(run())
        watcher.close()
    assert events == ["event: changed\ndata: 4.0\n\n"] * 20
    assert watcher.watched() == [] and changes.open == 0


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
