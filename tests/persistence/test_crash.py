"""Crash safety: a battle killed mid-action resumes at the last committed action.

A child process appends in a loop and is killed with SIGKILL (no cleanup, no
checkpoint, the WAL left behind); a fresh store must then find a consistent battle:
position == number of entries, entries contiguous, the snapshot belonging to the
final position, ``PRAGMA integrity_check`` clean, and appending goes on from there.
A failure between the INSERT and the COMMIT must leave nothing written.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from rulekeeper.persistence import BattleStore

SRC = Path(__file__).resolve().parents[2] / "src"

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")

# Appends with a fat payload (so a kill often lands inside a transaction) and prints
# each position only after append() has returned, i.e. after COMMIT.
LOOP_CHILD = """
import sys
from rulekeeper.persistence import BattleStore
store = BattleStore(sys.argv[1])
bid = sys.argv[2]
pos = store.get(bid).position
pad = "x" * 50_000
while True:
    pos = store.append(bid, pos, {"n": pos, "pad": pad}, {"ok": True, "pad": pad},
                       turn=pos, snapshot={"at": pos + 1, "pad": pad})
    print(pos, flush=True)
"""

# Stops inside the transaction of its second append, after the UPDATE and INSERT,
# right before COMMIT, and tells the parent so it can be killed exactly there.
MID_TX_CHILD = """
import sys, time
from sqlalchemy import text
from rulekeeper.persistence import BattleStore
from rulekeeper.persistence.store import BattleStore as Cls
real_commit = Cls._commit
def stuck_commit(self, conn):
    if conn.execute(text("SELECT position FROM rk_battles")).scalar() == 2:
        print("in-transaction", flush=True)
        time.sleep(600)
    real_commit(self, conn)
Cls._commit = stuck_commit
store = BattleStore(sys.argv[1])
store.append(sys.argv[2], 0, {"n": 0}, {}, status="active", turn=1, snapshot={"at": 1})
print("committed", flush=True)
store.append(sys.argv[2], 1, {"n": 1}, {}, status="finished", turn=2, snapshot={"at": 2})
"""


def _spawn(script: str, db: Path, bid: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-c", script, str(db), bid], stdout=subprocess.PIPE, text=True, env=env)


def _kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=30) == -signal.SIGKILL
    assert child.stdout is not None
    child.stdout.close()


def _integrity(db: Path) -> None:
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []


def _consistent(store: BattleStore, bid: str) -> int:
    rec = store.get(bid)
    log = store.entries(bid)
    assert [e.index for e in log] == list(range(rec.position)), "contiguous, one entry per position"
    assert [e.action["n"] for e in log] == list(range(rec.position))
    if rec.position:
        assert rec.turn == rec.position - 1
        snap = store.snapshot(bid)
        assert snap is not None and snap[0] == rec.position and snap[1]["at"] == rec.position
    return rec.position


@pytest.mark.parametrize("delay", [0.0, 0.011, 0.037])
def test_sigkill_in_append_loop_resumes_at_last_commit(tmp_path: Path, delay: float) -> None:
    db = tmp_path / "crash.db"
    with BattleStore(db) as setup:
        bid = setup.create(ruleset="exillis", scenario="crash", seed=1, initial={"units": []})
    reported = 0
    for _round in range(2):  # kill it twice: the second run resumes a crashed file
        # each run must write 15 appends of its own (appends are fast: after the first kill the
        # log may already be past any fixed target, and a child killed before it writes proves nothing)
        round_target = reported + 15
        child = _spawn(LOOP_CHILD, db, bid)
        assert child.stdout is not None
        while reported < round_target:
            line = child.stdout.readline()
            assert line, "child died before being killed"
            reported = int(line)
        time.sleep(delay)
        _kill(child)
        assert Path(f"{db}-wal").exists(), "killed without a clean close: the WAL is still there"
        _integrity(db)
        with BattleStore(db) as fresh:
            position = _consistent(fresh, bid)
            assert position >= reported, "every reported (committed) append survived"
            reported = position
    with BattleStore(db) as fresh:
        assert fresh.append(bid, reported, {"n": reported}, {}, turn=reported, snapshot={"at": reported + 1}) == (
            reported + 1
        )
        assert _consistent(fresh, bid) == reported + 1
    _integrity(db)


def test_sigkill_inside_a_transaction_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "midtx.db"
    with BattleStore(db) as setup:
        bid = setup.create(ruleset="exillis", scenario="crash", seed=1, initial={})
    child = _spawn(MID_TX_CHILD, db, bid)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "committed"
    assert child.stdout.readline().strip() == "in-transaction"
    _kill(child)
    _integrity(db)
    with BattleStore(db) as fresh:
        rec = fresh.get(bid)
        assert (rec.position, rec.status, rec.turn) == (1, "active", 1)
        assert [e.action for e in fresh.entries(bid)] == [{"n": 0}]
        assert fresh.snapshot(bid) == (1, {"at": 1})
        # the dead writer's lock is gone: the next append succeeds at once
        started = time.monotonic()
        assert fresh.append(bid, 1, {"n": 1}, {}) == 2
        assert time.monotonic() - started < 4.0  # under the 5 s busy timeout: no wait for a lock, even when loaded


def test_failure_after_insert_before_commit_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "fail.db"
    store = BattleStore(db)
    bid = store.create(ruleset="exillis", scenario="fail", seed=1, initial={})
    store.append(bid, 0, {"n": 0}, {}, snapshot={"at": 1})
    seen: dict[str, Any] = {}

    def failing_commit(self: BattleStore, conn: Any) -> None:
        # inside the transaction the INSERT and UPDATE are visible...
        seen["rows"] = conn.execute(text("SELECT count(*) FROM rk_log")).scalar()
        seen["position"] = conn.execute(text("SELECT position FROM rk_battles")).scalar()
        raise RuntimeError("power cut")

    monkeypatch.setattr(BattleStore, "_commit", failing_commit)
    with pytest.raises(RuntimeError, match="power cut"):
        store.append(bid, 1, {"n": 1}, {}, status="finished", turn=5, snapshot={"at": 2})
    assert seen == {"rows": 2, "position": 2}
    monkeypatch.undo()
    # ...but none of it was committed, and no lock is left behind
    with BattleStore(db) as fresh:
        rec = fresh.get(bid)
        assert (rec.position, rec.status, rec.turn) == (1, "active", 0)
        assert [e.action for e in fresh.entries(bid)] == [{"n": 0}]
        assert fresh.snapshot(bid) == (1, {"at": 1})
    assert store.append(bid, 1, {"n": 1}, {}) == 2
    store.close()


def test_failing_driver_commit_rolls_back(tmp_path: Path) -> None:
    """Same, with the failure raised from SQLAlchemy's own commit machinery (the stdlib appends have their own
    test: tests/service/test_fast_appends.py)."""
    db = tmp_path / "fail2.db"
    store = BattleStore(db)
    store.fast_sqlite = False  # this append goes through SQLAlchemy
    bid = store.create(ruleset="exillis", scenario="fail", seed=1, initial={})
    engine = store._engine
    assert engine is not None

    def boom(conn: Any) -> None:
        raise RuntimeError("disk vanished")

    event.listen(engine, "commit", boom)
    with pytest.raises(RuntimeError, match="disk vanished"):
        store.append(bid, 0, {"n": 0}, {})
    event.remove(engine, "commit", boom)
    assert store.get(bid).position == 0 and store.entries(bid) == []
    assert store.append(bid, 0, {"n": 0}, {}) == 1
    store.close()
    _integrity(db)
