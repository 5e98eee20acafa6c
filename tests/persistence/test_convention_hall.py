"""Issue 23, fault 9 and the convention hall: live updates pushed by PostgreSQL, several keeper processes.

* one listener per process (``LISTEN``, migration 0006's trigger) wakes the streams of a battle
  another process wrote; no stream reads the database while nothing changes;
* ``rulekeeper serve --workers 2`` starts two processes on one socket, and each of them serves
  the same battle: with one process stopped (SIGSTOP) the other answers every request, and a
  stream held by one process is told of a write the other made.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.persistence.store import BattleStore
from rulekeeper.web import live
from rulekeeper.web.watch import Watcher

ROOT = Path(__file__).resolve().parents[2]


def test_postgresql_announces_a_write_of_another_process_to_the_one_listener(url: str) -> None:
    with BattleStore(url) as store, BattleStore(url) as other:
        bid = store.create(ruleset="toy", scenario="s", seed=1, initial={"seed": 1})
        changes = live.Changes()
        watcher = Watcher(store, changes)
        reads = {"n": 0, "v": "0"}

        async def version() -> str:
            reads["n"] += 1
            return reads["v"]

        async def never() -> bool:
            return False

        async def run() -> tuple[str, float, int]:
            streams = []
            for i in range(10):
                assert changes.admit(bid, f"l{i}")
                stream = live.version_events(changes, bid, "0", version, never, f"l{i}", watcher)
                await anext(stream)
                streams.append(stream)
            pending = [asyncio.ensure_future(anext(s)) for s in streams]
            assert await asyncio.to_thread(watcher.ready.wait, 10)
            await asyncio.sleep(1.5)
            idle = reads["n"]
            reads["v"] = "1"
            started = time.monotonic()
            await asyncio.to_thread(other.set_status, bid, "active", 2)  # another process writes
            events = await asyncio.wait_for(asyncio.gather(*pending), 5)
            lag = time.monotonic() - started
            for s in streams:
                await s.aclose()  # type: ignore[attr-defined]
            assert set(events) == {"event: changed\ndata: 1\n\n"}
            return events[0], lag, idle

        _, lag, idle = asyncio.run(run())
        watcher.close()
    assert watcher.listens and lag < 2.0
    assert idle <= 10 * 2  # the start, and one wake when the listener came up: no polling while idle
    print(f"PostgreSQL notice to 10 streams in {lag * 1000:.0f} ms; {idle} version reads while idle")


def _children(pid: int) -> list[int]:
    kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(k) for k in kids if "resource_tracker" not in Path(f"/proc/{k}/cmdline").read_text(errors="replace")]


def _get(url: str, timeout: float = 5) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


def _post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


@pytest.fixture
def hall(url: str) -> Iterator[tuple[str, list[int]]]:
    """``rulekeeper serve --workers 2`` on a PostgreSQL database: its base URL and its two worker pids."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "rulekeeper", "serve", "--port", "0", "--db", url, "--workers", "2",
                             "--no-qr", "--no-demo"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", first)
        assert found, first
        base = f"http://127.0.0.1:{found.group(1)}"
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2 or not _answers(base):
            assert proc.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        yield base, _children(proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _answers(base: str) -> bool:
    try:
        _get(f"{base}/api/scenarios", timeout=2)
    except OSError:
        return False
    return True


def test_serve_workers_2_runs_two_processes_that_serve_the_same_battle(hall: tuple[str, list[int]]) -> None:
    base, workers = hall
    assert len(workers) == 2
    made = _post(f"{base}/api/battles", {"scenario": "exillis:duel", "seed": 1})
    bid, tokens = made["id"], made["tokens"]
    for stopped in workers:  # each process alone answers for the battle
        os.kill(stopped, signal.SIGSTOP)
        try:
            for _ in range(5):
                assert _get(f"{base}/api/battles/{bid}?token={tokens['spectator']}")["id"] == bid
        finally:
            os.kill(stopped, signal.SIGCONT)
    # a stream held by one process hears of a write made through the other
    os.kill(workers[1], signal.SIGSTOP)
    try:
        stream = urllib.request.urlopen(f"{base}/b/{bid}/events?token={tokens['spectator']}", timeout=20)
        assert stream.readline() == b"retry: 1000\n"  # held by workers[0]
    finally:
        os.kill(workers[1], signal.SIGCONT)
    os.kill(workers[0], signal.SIGSTOP)
    try:
        moves = _get(f"{base}/api/battles/{bid}/actions?token={tokens['A']}")
        first = {k: v for k, v in moves["actions"][0].items() if k in ("kind", "unit", "target", "option")}
        done = _post(f"{base}/api/battles/{bid}/actions?token={tokens['A']}", {**first, "position": 0})
        assert done["position"] == 1  # made by workers[1]
    finally:
        os.kill(workers[0], signal.SIGCONT)
    lines = [stream.readline() for _ in range(3)]
    stream.close()
    assert b"event: changed\n" in lines, lines
