"""An append on a current SQLite file goes through the standard library, and writes what the store's SQLAlchemy
statements write, with the same guarantees (issue 22: War Table campaign stored ÷ engine at most 2×).

Each comparison plays the same battle into two files, one store appending through
:mod:`rulekeeper.persistence.sqlite_writes` and one with ``fast_sqlite = False`` (SQLAlchemy), on a
fixed clock and fixed ids, and compares every column of every row as SQLite's ``quote()`` prints it (the
type and the bytes).
"""

from __future__ import annotations

import itertools
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from rulekeeper.core import ids
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.persistence import sqlite_writes
from rulekeeper.persistence import store as store_module
from rulekeeper.persistence.errors import BattleNotFoundError, StaleStateError, StoreError
from rulekeeper.persistence.sqlite_writes import SqliteAppends, open_appends
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService, game_of
from toygame.game import SCENARIO_DIR, ToyGame

RULESETS = Path(__file__).resolve().parents[2] / "src" / "rulekeeper" / "rulesets"
BATTLES = {
    "wartable-campaign": None,  # its first shipped campaign: the bench's
    "exillis": RULESETS / "exillis" / "data" / "scenarios" / "starter.yaml",
    "toy": SCENARIO_DIR / "race.yaml",
}


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests("toy")


@pytest.fixture()
def fixed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The same times and ids on every run (the chain seals the times)."""

    def restart() -> None:
        ticks, names = itertools.count(), itertools.count()
        monkeypatch.setattr(store_module, "_now", lambda: f"2026-12-02T05:00:00.{next(ticks):06d}+00:00")
        monkeypatch.setattr(ids, "new_id", lambda prefix: f"{prefix}-{next(names)}")

    monkeypatch.setattr(ids, "restart", restart, raising=False)
    restart()
    yield


def _rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the battle and log tables, each column as ``quote()`` prints it (its type and bytes)."""
    out = {}
    con = sqlite3.connect(db)
    try:
        for table in ("rk_battles", "rk_log"):
            names = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            quoted = ", ".join(f"quote({n})" for n in names)
            out[table] = con.execute(f"SELECT {quoted} FROM {table} ORDER BY rowid").fetchall()
    finally:
        con.close()
    return out


def _sql(db: Path, statement: str) -> None:
    con = sqlite3.connect(db, isolation_level=None)
    try:
        con.execute(statement)
    finally:
        con.close()


def _store(db: Path, fast: bool) -> BattleStore:
    store = BattleStore(db)
    store.fast_sqlite = fast
    return store


def _played(db: Path, fast: bool, ruleset: str, actions: int) -> str:
    ids.restart()  # type: ignore[attr-defined]
    with _store(db, fast) as store:
        svc = BattleService(store)
        scenario = BATTLES[ruleset] or sorted(game_of(ruleset).scenarios(), key=lambda i: i.key)[0].path
        bid = svc.new(scenario, seed=5, ruleset=ruleset)
        svc.autoplay(bid, max_actions=actions)
        assert isinstance(store._fast, SqliteAppends) is fast  # the path the test meant
        assert store.get(bid).position > 0
    return bid


@pytest.mark.parametrize("ruleset", list(BATTLES))
def test_a_battle_autoplayed_both_ways_is_stored_byte_for_byte_the_same(tmp_path: Path, fixed: None,
                                                                        ruleset: str) -> None:
    _played(tmp_path / "fast.db", True, ruleset, actions=8)
    _played(tmp_path / "slow.db", False, ruleset, actions=8)
    fast, slow = _rows(tmp_path / "fast.db"), _rows(tmp_path / "slow.db")
    assert len(fast["rk_log"]) >= 1
    assert fast == slow


def _every_kind_of_append(store: BattleStore, db: Path) -> list[dict[str, list[tuple[Any, ...]]]]:
    """Appends with and without each option, refusals, and the SQLAlchemy-only writes between them: the rows
    after each step."""
    seen = []
    bid = store.create(ruleset="r", scenario="s", seed=2**70, initial={"units": ["é", 1.5]}, title="T")
    store.append(bid, 0, {"do": "a"}, {"roll": [1, 2]}, status="fate_screen", turn=1, checkpoint={"at": 1})
    seen.append(_rows(db))
    rec = store.get(bid)
    store.append(bid, 1, {"do": "b", "ü": None}, {}, expected_revision=rec.revision, expected_head=rec.head,
                 checkpoint={"at": 2, "deep": {"x": [True, False]}})
    seen.append(_rows(db))
    store.append(bid, 2, {"do": "c"}, {"chance": {"d": 6}}, shown=True, turn=7, expected_revision=rec.revision + 1)
    seen.append(_rows(db))
    with pytest.raises(StaleStateError):
        store.append(bid, 2, {"do": "late"}, {})
    with pytest.raises(StaleStateError):
        store.append(bid, 3, {"do": "late"}, {}, expected_revision=rec.revision)
    seen.append(_rows(db))
    store.mark_shown(bid, 2)
    store.pop_last(bid, 3, status="active", turn=1)
    store.append(bid, 2, {"do": "c again"}, {"n": 10**30}, status="finished", turn=2, snapshot={"at": 3})
    store.append(bid, 3, {"do": "d"}, {}, status="over")
    seen.append(_rows(db))
    return seen


def test_every_kind_of_append_is_stored_byte_for_byte_the_same(tmp_path: Path, fixed: None) -> None:
    both = []
    for name, fast in (("fast.db", True), ("slow.db", False)):
        ids.restart()  # type: ignore[attr-defined]
        with _store(tmp_path / name, fast) as store:
            both.append(_every_kind_of_append(store, tmp_path / name))
            assert isinstance(store._fast, SqliteAppends) is fast
    assert both[0] == both[1]


def test_two_writers_race_for_each_position_and_the_loser_is_refused(tmp_path: Path) -> None:
    """A stdlib writer and a SQLAlchemy writer on one file: each position goes to one, the other is told stale."""
    db = tmp_path / "race.db"
    with BattleStore(db) as setup:
        bid = setup.create(ruleset="r", scenario="s", seed=1, initial={})
    stores = [_store(db, True), _store(db, False)]
    outcomes: list[list[str]] = [[], []]
    for position in range(12):
        gate = threading.Barrier(2)

        def write(i: int, at: int = position, gate: threading.Barrier = gate) -> None:
            gate.wait()
            try:
                stores[i].append(bid, at, {"by": i, "at": at}, {})
                outcomes[i].append("won")
            except StaleStateError as exc:
                assert exc.code == "stale_state" and exc.expected == at
                outcomes[i].append("stale")

        threads = [threading.Thread(target=write, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert all(sorted(pair) == ["stale", "won"] for pair in zip(*outcomes, strict=True)), outcomes
    entries = stores[1].entries(bid)
    assert [e.index for e in entries] == list(range(12)) and stores[0].get(bid).position == 12
    assert [e.action["by"] for e in entries] == [0 if o == "won" else 1 for o in outcomes[0]]
    assert stores[0].verify_chain(bid) == []
    assert isinstance(stores[0]._fast, SqliteAppends)
    for s in stores:
        s.close()


def test_a_failure_inside_the_transaction_writes_nothing_and_leaves_no_lock(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "fail.db"
    store = _store(db, True)
    bid = store.create(ruleset="r", scenario="s", seed=1, initial={})
    store.append(bid, 0, {"n": 0}, {}, checkpoint={"at": 1})
    real = SqliteAppends._write

    def failing(conn: sqlite3.Connection, a: sqlite_writes.Append) -> str:
        real(conn, a)  # the move and the entry are in...
        raise KeyboardInterrupt  # ...and then the player hits ^C before the COMMIT

    monkeypatch.setattr(SqliteAppends, "_write", staticmethod(failing))
    with pytest.raises(KeyboardInterrupt):
        store.append(bid, 1, {"n": 1}, {}, status="finished", turn=5, checkpoint={"at": 2})
    monkeypatch.undo()
    with _store(db, False) as other:  # nothing committed, and the lock is free at once
        rec = other.get(bid)
        assert (rec.position, rec.status, rec.turn) == (1, "active", 0)
        assert other.append(bid, 1, {"n": "other"}, {}) == 2
    assert store.append(bid, 2, {"n": 2}, {}) == 3
    assert [e.action["n"] for e in store.entries(bid)] == [0, "other", 2] and store.verify_chain(bid) == []
    store.close()


def test_only_a_plain_current_wal_file_is_written_without_sqlalchemy(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    BattleStore(db).close()
    url = f"sqlite:///{db}"
    assert isinstance(appends := open_appends(url, url), SqliteAppends)
    appends.close()
    assert open_appends(f"sqlite:///{tmp_path}/none.db", "") is None and open_appends("sqlite://", "") is None
    assert open_appends(f"sqlite:///{db}?mode=ro", "") is None
    _sql(db, "UPDATE rk_alembic_version SET version_num = '0005'")  # another revision: the store's to upgrade
    assert open_appends(url, url) is None
    _sql(db, "UPDATE rk_alembic_version SET version_num = '0006'")
    _sql(db, "PRAGMA journal_mode = DELETE")  # no WAL: the store's connections keep synchronous = FULL
    assert open_appends(url, url) is None
    with BattleStore(":memory:") as memory:
        bid = memory.create(ruleset="r", scenario="s", seed=1, initial={})
        assert memory.append(bid, 0, {}, {}) == 1 and memory._fast is None


def test_a_damaged_file_falls_back_to_the_stores_own_error(tmp_path: Path) -> None:
    """A log table the stdlib statements do not fit: the store appends through SQLAlchemy, which refuses it with
    its own typed error (the same as a store that never tried), and it stops trying."""
    errors = []
    for fast in (True, False):
        db = tmp_path / f"{fast}.db"
        with _store(db, fast) as store:
            bid = store.create(ruleset="r", scenario="s", seed=1, initial={}, battle_id="b-1")
            store.append(bid, 0, {}, {})
            _sql(db, "ALTER TABLE rk_log RENAME COLUMN chain TO link")
            with pytest.raises(StoreError) as info:
                store.append(bid, 1, {"n": 1}, {})
            errors.append((type(info.value), info.value.code, str(info.value).replace(str(db), "DB")))
            assert store._fast is None
            assert store.get(bid).position == 1  # nothing half-written
            with pytest.raises(BattleNotFoundError):
                store.append("b-gone", 0, {}, {})
    assert errors[0] == errors[1]
    assert "chain" in errors[0][2]


def test_the_stores_stdlib_reads_give_what_its_sqlalchemy_reads_give(tmp_path: Path, fixed: None) -> None:
    """The reads a state is rebuilt from, outside and inside a snapshot; the stdlib ones send SQLAlchemy nothing
    but the snapshot's BEGIN, and read the snapshot's moment even after another writer moved the battle on."""
    db = tmp_path / "b.db"
    bid = _played(db, True, "exillis", actions=8)

    def everything(store: BattleStore) -> tuple[Any, ...]:
        return (store.get(bid), store.initial(bid), store.entries(bid), store.entries(bid, 2, 5),
                store.nearest_checkpoint(bid, 5), store.nearest_checkpoint(bid, 0), store.nearest_checkpoint(bid, 8))

    sent: list[str] = []
    with _store(db, True) as fast, _store(db, False) as slow:
        fast.append(bid, 8, {"warm": "up"}, {})  # the stdlib path opens at the first append
        assert fast._engine is not None
        event.listen(fast._engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
        assert everything(fast) == everything(slow) and sent == []
        with fast.reading():
            inside = everything(fast)
            slow.append(bid, 9, {"late": True}, {})
            assert fast.get(bid).position == 9 and len(fast.entries(bid)) == 9  # the snapshot's moment
        assert inside[0].position == 9 and inside[2] == everything(slow)[2][:9]
        assert [s.split()[0] for s in sent] == ["BEGIN"]
        assert fast.get(bid).position == 10 and everything(fast) == everything(slow)
        with pytest.raises(BattleNotFoundError):
            fast.get("b-none")
        with pytest.raises(StoreError, match="no moment 11"):
            fast.nearest_checkpoint(bid, 11)
