"""Stores that never hang or meddle, on SQLite and on a real PostgreSQL server alike.

Issue "Nothing hostile gets through", point 6: "on PostgreSQL there is no lock or statement
timeout (a web act waited 36 s, CLI ``list`` and ``new`` about 29 s with no message, under a
held lock); under a held SQLite lock even read-only CLI commands fail because opening a store
runs its schema set-up in a write transaction; pointing ``--db`` at someone else's SQLite file
silently adds three tables and switches it to WAL".  Every test here runs on both databases
(``any_db``) and expects the same answer.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from rulekeeper.persistence import location
from rulekeeper.persistence.errors import ForeignDatabaseError, StoreBusyError
from rulekeeper.persistence.store import BattleStore

#: How long the tests let a writer wait (the shipped value is 5 s): long enough for a loaded CI machine.
WAIT_MS = 400


@pytest.fixture(autouse=True)
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(location, "SQLITE_BUSY_TIMEOUT_MS", WAIT_MS)
    monkeypatch.setattr(location, "LOCK_TIMEOUT_MS", WAIT_MS)


def _url(db: str) -> str:
    return location.normalise_url(db)


@contextmanager
def held_write_lock(db: str, mode: str = "EXCLUSIVE") -> Iterator[None]:
    """Another program holding the write lock: SQLite ``BEGIN IMMEDIATE``, PostgreSQL ``LOCK TABLE``."""
    if not location.is_url(db):
        raw = sqlite3.connect(db, isolation_level=None)
        raw.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            raw.execute("ROLLBACK")
            raw.close()
        return
    engine = create_engine(db)
    with engine.connect() as conn:
        conn.begin()
        conn.execute(text(f"LOCK TABLE rk_battles IN {mode} MODE"))
        try:
            yield
        finally:
            conn.rollback()
    engine.dispose()


def _played(db: str) -> str:
    with BattleStore(db) as store:
        bid = store.create(ruleset="toy", scenario="s", seed=7, initial={"n": 0}, battle_id="b-held")
        for i in range(3):
            store.append(bid, i, {"i": i}, {"n": i + 1})
    return bid


def test_read_only_work_goes_on_under_a_held_write_lock(any_db: str) -> None:
    """"read-only commands work under a held write lock": opening a store at the head only reads."""
    bid = _played(any_db)
    with held_write_lock(any_db):
        with BattleStore(any_db) as store:
            assert [r.id for r in store.list()] == [bid]
            assert store.get(bid).position == 3 and len(store.entries(bid)) == 3
            assert store.export(bid)["battle"]["id"] == bid


def test_a_writer_under_a_held_lock_is_told_busy_in_bounded_time(any_db: str) -> None:
    """"Lock and statement timeouts on both stores with a clear 'busy, try again' answer"."""
    bid = _played(any_db)
    with held_write_lock(any_db), BattleStore(any_db) as store:
        started = time.monotonic()
        with pytest.raises(StoreBusyError) as info:
            store.append(bid, 3, {"i": 3}, {"n": 4})
        waited = time.monotonic() - started
    assert info.value.code == "busy" and "try again" in str(info.value) and "nothing was changed" in str(info.value)
    assert WAIT_MS / 1000 * 0.5 <= waited < 5.0
    with BattleStore(any_db) as store:
        assert store.get(bid).position == 3  # nothing half-applied


def test_a_reader_behind_an_exclusive_postgresql_lock_is_told_busy(any_db: str) -> None:
    """PostgreSQL's ``ACCESS EXCLUSIVE`` blocks even reads: they give up after the lock timeout."""
    if not location.is_url(any_db):
        pytest.skip("SQLite readers in WAL mode are never blocked by a writer")
    bid = _played(any_db)
    with BattleStore(any_db) as store, held_write_lock(any_db, "ACCESS EXCLUSIVE"):
        started = time.monotonic()
        with pytest.raises(StoreBusyError):
            store.get(bid)
        assert time.monotonic() - started < 5.0


def _foreign(db: str) -> None:
    """Someone else's database: one table of theirs, none of rulekeeper's."""
    if location.is_url(db):
        engine = create_engine(db)
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE contacts (name TEXT, phone TEXT)"))
            conn.execute(text("INSERT INTO contacts VALUES ('Ada', '555')"))
        engine.dispose()
    else:
        raw = sqlite3.connect(db)
        raw.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        raw.execute("INSERT INTO contacts VALUES ('Ada', '555')")
        raw.commit()
        raw.close()


def _tables(db: str) -> list[str]:
    engine = create_engine(_url(db))
    try:
        with engine.connect() as conn:
            return sorted(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_a_foreign_database_is_refused_and_left_untouched(any_db: str) -> None:
    """"a foreign database is refused unless it is a rulekeeper store"."""
    _foreign(any_db)
    before = None if location.is_url(any_db) else Path(any_db).read_bytes()
    with pytest.raises(ForeignDatabaseError) as info:
        BattleStore(any_db)
    assert info.value.code == "foreign_database"
    assert "not a rulekeeper store" in str(info.value) and "contacts" in str(info.value)
    assert _tables(any_db) == ["contacts"]
    if before is not None:  # SQLite: same bytes, still a rollback journal, no WAL files beside it
        assert Path(any_db).read_bytes() == before
        assert not Path(any_db + "-wal").exists()
        raw = sqlite3.connect(any_db)
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        raw.close()


def test_an_empty_database_and_a_shared_one_are_accepted(any_db: str) -> None:
    """Empty: a new store.  Rulekeeper's tables beside others (a shared server): still ours."""
    BattleStore(any_db).close()
    _foreign(any_db)
    with BattleStore(any_db) as store:
        assert store.list() == []
    assert "contacts" in _tables(any_db) and "rk_battles" in _tables(any_db)


def test_a_new_sqlite_store_is_switched_to_wal(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    BattleStore(db).close()
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()


def test_the_cli_under_a_held_lock_lists_and_refuses_writes_with_busy(
    any_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI: ``battle list`` answers; ``battle new`` says busy, exit code 2, in bounded time."""
    from rulekeeper.cli.app import main

    def run(*args: str) -> tuple[int, str]:
        monkeypatch.setattr("sys.argv", ["rulekeeper", *args, "--db", any_db])
        with pytest.raises(SystemExit) as done:
            main()
        out = capsys.readouterr()
        return int(done.value.code or 0), out.out + out.err

    bid = _played(any_db)
    scenario = Path(__file__).parents[2] / "examples/wartable/oathsworn_vs_bloodless.yaml"
    with held_write_lock(any_db):
        code, listed = run("battle", "list", "--json")
        assert code == 0 and bid in listed
        started = time.monotonic()
        code, created = run("battle", "new", str(scenario), "--ruleset", "wartable")
        assert time.monotonic() - started < 5.0
    assert code == 2 and "busy" in created and "try again" in created and "Traceback" not in created, created
