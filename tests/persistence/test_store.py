"""The battle store: records, the log, optimistic concurrency, export/import, location.

Every test taking ``db`` runs twice: on a SQLite file and on a new database of a real
PostgreSQL server (``conftest.py``), and must give the same results on both.

The concurrency tests race real writers (threads and spawned processes, each with its
own BattleStore on one database) at the same log position and demand exactly one
winner per position — the guarantee that keeps two windows from forking a battle.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import multiprocessing
import sqlite3
import threading
from pathlib import Path
from typing import Any

import platformdirs
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.persistence import (
    BattleNotFoundError,
    BattleRecord,
    BattleStore,
    LogEntry,
    StaleStateError,
    StoreError,
    default_db_url,
    normalise_url,
)
from rulekeeper.persistence.schema import Base

INITIAL = {"units": [{"key": "u1", "hp": 12}, {"key": "u2", "hp": 7}], "rng": {"state": 2**127 + 5, "inc": 3}}


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store's database: a SQLite file path, then a PostgreSQL URL (same tests, same answers)."""
    if request.param == "sqlite":
        return str(tmp_path / "battles.db")
    return str(request.getfixturevalue("url"))


def _sql(db: str, statement: str, **params: Any) -> Any:
    """Run one SQL statement behind the store's back (on either database); the first value it returns."""
    engine = create_engine(normalise_url(db))
    try:
        with engine.begin() as conn:
            found = conn.execute(text(statement), params)
            return found.scalar() if found.returns_rows else None
    finally:
        engine.dispose()


@pytest.fixture
def store(db: str) -> Any:
    s = BattleStore(db)
    yield s
    s.close()


def _new(store: BattleStore, **kw: Any) -> str:
    args: dict[str, Any] = {"ruleset": "exillis", "scenario": "skirmish", "seed": 42, "initial": INITIAL}
    args.update(kw)
    return store.create(**args)


def _fill(store: BattleStore, bid: str, n: int) -> None:
    for i in range(n):
        assert store.append(bid, i, {"do": "move", "i": i}, {"rolled": [i, i + 1]}) == i + 1


def _log_rows(db: str, bid: str) -> int:
    return int(_sql(db, "SELECT count(*) FROM rk_log WHERE battle_id = :bid", bid=bid))


# ------------------------------------------------------------------------ battles


def test_create_and_get(store: BattleStore) -> None:
    seed = 2**100 + 7  # beyond BIGINT: must come back exactly
    bid = _new(store, seed=seed, title="Hill fight", meta={"players": ["ann", "bo"]})
    assert bid.startswith("b-") and len(bid) == 18
    rec = store.get(bid)
    assert isinstance(rec, BattleRecord)
    assert (rec.id, rec.ruleset, rec.scenario, rec.seed) == (bid, "exillis", "skirmish", seed)
    assert (rec.position, rec.status, rec.turn, rec.title) == (0, "active", 0, "Hill fight")
    assert rec.meta == {"players": ["ann", "bo"]}
    assert rec.created == rec.updated and rec.created.endswith("+00:00")
    assert store.initial(bid) == INITIAL
    assert store.entries(bid) == []
    assert store.snapshot(bid) is None


def test_create_with_given_id_refuses_duplicate(store: BattleStore) -> None:
    assert _new(store, battle_id="tonight") == "tonight"
    with pytest.raises(StoreError, match="already exists"):
        _new(store, battle_id="tonight")
    assert [r.id for r in store.list()] == ["tonight"]


def test_list_newest_updated_first(store: BattleStore) -> None:
    a, b, c = _new(store), _new(store), _new(store)
    assert [r.id for r in store.list()] == [c, b, a]
    store.append(a, 0, {"do": "x"}, {})
    assert [r.id for r in store.list()] == [a, c, b]
    store.set_status(b, "finished", turn=6)
    records = store.list()
    assert [r.id for r in records] == [b, a, c]
    assert (records[0].status, records[0].turn) == ("finished", 6)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.get("b-missing"),
        lambda s: s.initial("b-missing"),
        lambda s: s.entries("b-missing"),
        lambda s: s.append("b-missing", 0, {}, {}),
        lambda s: s.pop_last("b-missing", 1),
        lambda s: s.mark_shown("b-missing", 0),
        lambda s: s.snapshot("b-missing"),
        lambda s: s.entry("b-missing", 0),
        lambda s: s.checkpoint("b-missing", 0),
        lambda s: s.nearest_checkpoint("b-missing", 0),
        lambda s: s.set_checkpoint("b-missing", 1, {}),
        lambda s: s.revision("b-missing"),
        lambda s: s.set_status("b-missing", "finished"),
        lambda s: s.delete("b-missing"),
        lambda s: s.export("b-missing"),
    ],
)
def test_unknown_battle_is_not_found(store: BattleStore, call: Any) -> None:
    _new(store)
    with pytest.raises(BattleNotFoundError, match="b-missing") as info:
        call(store)
    assert info.value.code == "not_found" and info.value.details == {"battle_id": "b-missing"}


def test_delete_removes_log(store: BattleStore, db: str) -> None:
    keep, gone = _new(store), _new(store)
    _fill(store, keep, 2)
    _fill(store, gone, 3)
    store.delete(gone)
    assert [r.id for r in store.list()] == [keep]
    assert _log_rows(db, gone) == 0 and _log_rows(db, keep) == 2
    with pytest.raises(BattleNotFoundError):
        store.get(gone)


# -------------------------------------------------------------------------- the log


def test_append_and_entries(store: BattleStore) -> None:
    bid = _new(store)
    assert store.append(bid, 0, {"do": "move"}, {"ok": True}, turn=1) == 1
    assert store.append(bid, 1, {"do": "shoot"}, {"hits": 2}, status="fate_screen") == 2
    assert store.append(bid, 2, {"do": "end"}, {}, status="finished", turn=2) == 3
    rec = store.get(bid)
    assert (rec.position, rec.status, rec.turn) == (3, "finished", 2)
    log = store.entries(bid)
    assert [e.index for e in log] == [0, 1, 2]
    assert [e.action["do"] for e in log] == ["move", "shoot", "end"]
    assert log[1] == LogEntry(1, {"do": "shoot"}, {"hits": 2}, False, log[1].created)
    assert [e.index for e in store.entries(bid, start=2)] == [2]
    assert store.entries(bid, start=3) == []


def test_stale_append_writes_nothing(store: BattleStore, db: str) -> None:
    bid = _new(store)
    _fill(store, bid, 2)
    before = store.get(bid)
    for stale in (0, 1, 3, 7):
        with pytest.raises(StaleStateError) as info:
            store.append(bid, stale, {"do": "late"}, {}, status="finished", turn=9, snapshot={"x": 1})
        err = info.value
        assert (err.code, err.expected, err.actual) == ("stale_state", stale, 2)
        assert f"position {stale}" in err.message and "position 2" in err.message
    assert store.get(bid) == before
    assert _log_rows(db, bid) == 2
    assert store.snapshot(bid) is None


def test_unique_index_is_a_second_guard(store: BattleStore, db: str) -> None:
    """If the position were ever wrong, UNIQUE(battle_id, index) still refuses a duplicate."""
    bid = _new(store)
    _fill(store, bid, 1)
    _sql(db, "UPDATE rk_battles SET position = 0 WHERE id = :bid", bid=bid)  # behind the store's back
    with pytest.raises(StaleStateError):
        store.append(bid, 0, {"do": "dup"}, {})
    assert store.get(bid).position == 0  # the UPDATE was rolled back with the failed INSERT
    assert [e.action for e in store.entries(bid)] == [{"do": "move", "i": 0}]


def test_mark_shown(store: BattleStore) -> None:
    bid = _new(store)
    _fill(store, bid, 3)
    store.mark_shown(bid, 1)
    assert [e.shown for e in store.entries(bid)] == [False, True, False]
    with pytest.raises(StoreError, match="no log entry 3"):
        store.mark_shown(bid, 3)


def test_pop_last(store: BattleStore, db: str) -> None:
    bid = _new(store)
    _fill(store, bid, 3)
    store.mark_shown(bid, 2)
    last = store.pop_last(bid, 3, status="active", turn=4)
    assert (last.index, last.action, last.result, last.shown) == (2, {"do": "move", "i": 2}, {"rolled": [2, 3]}, True)
    rec = store.get(bid)
    assert (rec.position, rec.turn) == (2, 4)
    assert [e.index for e in store.entries(bid)] == [0, 1] and _log_rows(db, bid) == 2
    with pytest.raises(StaleStateError) as info:
        store.pop_last(bid, 3)
    assert (info.value.expected, info.value.actual) == (3, 2)
    assert store.pop_last(bid, 2).index == 1
    assert store.pop_last(bid, 1).index == 0
    with pytest.raises(StoreError, match="nothing to undo"):
        store.pop_last(bid, 0)
    # the position is reusable after an undo
    assert store.append(bid, 0, {"do": "again"}, {}) == 1
    assert [e.action for e in store.entries(bid)] == [{"do": "again"}]


def test_snapshots_follow_the_log(store: BattleStore) -> None:
    bid = _new(store)
    store.append(bid, 0, {"do": "a"}, {}, snapshot={"at": 1})
    store.append(bid, 1, {"do": "b"}, {})
    assert store.snapshot(bid) == (1, {"at": 1})  # older snapshot stays valid
    store.append(bid, 2, {"do": "c"}, {}, snapshot={"at": 3})
    assert store.snapshot(bid) == (3, {"at": 3})
    store.pop_last(bid, 3)  # the snapshot of position 3 no longer describes the battle
    assert store.snapshot(bid) is None
    store.pop_last(bid, 2, snapshot={"at": 1, "rebuilt": True})
    assert store.snapshot(bid) == (1, {"at": 1, "rebuilt": True})


# ------------------------------------------------------------------- checkpoints


def _checkpointed(store: BattleStore, every: int, n: int) -> str:
    """A battle of ``n`` entries; after every ``every`` entries, a checkpoint ``{"after": entries so far}``."""
    bid = _new(store)
    for i in range(n):
        point = {"after": i + 1} if (i + 1) % every == 0 else None
        store.append(bid, i, {"do": "move", "i": i}, {}, checkpoint=point)
    return bid


def test_checkpoint_is_the_state_after_n_entries(store: BattleStore) -> None:
    bid = _checkpointed(store, 2, 5)
    assert [store.checkpoint(bid, n) for n in range(6)] == [None, None, {"after": 2}, None, {"after": 4}, None]
    with pytest.raises(StoreError, match="no moment 6: its log has 5 entries"):
        store.checkpoint(bid, 6)
    with pytest.raises(StoreError, match="n must be >= 0"):
        store.checkpoint(bid, -1)


def test_nearest_checkpoint_at_or_before_n(store: BattleStore) -> None:
    bid = _checkpointed(store, 3, 10)  # checkpoints after 3, 6 and 9 entries
    expected = [None, None, None, 3, 3, 3, 6, 6, 6, 9, 9]
    found = [store.nearest_checkpoint(bid, n) for n in range(11)]
    assert [None if f is None else f[0] for f in found] == expected
    assert all(f is None or f[1] == {"after": f[0]} for f in found)
    with pytest.raises(StoreError, match="no moment 11"):
        store.nearest_checkpoint(bid, 11)
    assert store.nearest_checkpoint(_new(store), 0) is None


def test_a_moment_is_its_nearest_checkpoint_plus_a_slice(store: BattleStore) -> None:
    """What the engine does to load moment n: nearest checkpoint, then fold entries k..n-1."""
    bid = _checkpointed(store, 4, 11)
    for n in range(12):
        near = store.nearest_checkpoint(bid, n)
        k, state = near if near is not None else (0, {"after": 0})
        folded = state["after"] + len(store.entries(bid, start=k, stop=n))
        assert folded == n


def test_checkpoints_go_with_undone_entries(store: BattleStore) -> None:
    bid = _checkpointed(store, 1, 3)
    assert store.pop_last(bid, 3).index == 2  # LogEntry carries no state
    assert store.nearest_checkpoint(bid, 2) == (2, {"after": 2})
    with pytest.raises(StoreError, match="no moment 3"):
        store.checkpoint(bid, 3)
    store.append(bid, 2, {"do": "again"}, {})  # re-done without a checkpoint
    assert store.checkpoint(bid, 3) is None and store.nearest_checkpoint(bid, 3) == (2, {"after": 2})
    store.pop_last(bid, 3)
    store.pop_last(bid, 2)
    store.pop_last(bid, 1)
    assert store.nearest_checkpoint(bid, 0) is None


def test_set_checkpoint_fills_in_a_log_without_them(store: BattleStore) -> None:
    bid = _checkpointed(store, 99, 3)  # no checkpoints
    store.set_status(bid, "active")
    revision, updated = store.revision(bid), store.get(bid).updated
    store.set_checkpoint(bid, 2, {"after": 2})
    assert store.checkpoint(bid, 2) == {"after": 2} and store.nearest_checkpoint(bid, 3) == (2, {"after": 2})
    store.set_checkpoint(bid, 2, {"after": 2, "again": True})  # replaces
    assert store.checkpoint(bid, 2) == {"after": 2, "again": True}
    assert (store.revision(bid), store.get(bid).updated) == (revision, updated)  # a cache, not a game fact
    with pytest.raises(StoreError, match="no moment 4"):
        store.set_checkpoint(bid, 4, {})
    with pytest.raises(StoreError, match="n must be >= 1"):
        store.set_checkpoint(bid, 0, {})
    with pytest.raises(StoreError, match="state is not plain JSON"):
        store.set_checkpoint(bid, 1, {"x": math.nan})
    with pytest.raises(BattleNotFoundError):
        store.set_checkpoint("b-missing", 1, {})


def test_checkpoint_must_be_plain_json(store: BattleStore) -> None:
    bid = _new(store)
    with pytest.raises(StoreError, match="checkpoint is not plain JSON: checkpoint.hp.0") as info:
        store.append(bid, 0, {"do": "x"}, {}, checkpoint={"hp": [math.inf]})
    assert info.value.details["field"] == "checkpoint.hp.0"
    with pytest.raises(StoreError, match="checkpoint must be a JSON object"):
        store.append(bid, 0, {"do": "x"}, {}, checkpoint=[1])  # type: ignore[arg-type]
    assert store.get(bid).position == 0 and store.revision(bid) == 0


def test_export_and_import_leave_checkpoints_out(store: BattleStore, tmp_path: Path) -> None:
    bid = _checkpointed(store, 1, 3)
    doc = store.export(bid)
    assert "revision" not in doc["battle"]
    assert all(set(e) == {"action", "result", "shown", "created", "chain"} for e in doc["log"])
    with BattleStore(tmp_path / "copy.db") as other:
        assert other.import_(doc) == bid
        assert other.nearest_checkpoint(bid, 3) is None and other.revision(bid) == 0
        assert other.entries(bid) == store.entries(bid)


# --------------------------------------------------------------- slices and entries


def test_entries_slice(store: BattleStore) -> None:
    bid = _new(store)
    _fill(store, bid, 5)
    assert [e.index for e in store.entries(bid, 1, 3)] == [1, 2]
    assert [e.index for e in store.entries(bid, stop=2)] == [0, 1]
    assert [e.index for e in store.entries(bid, 3, 99)] == [3, 4]
    assert store.entries(bid, 3, 3) == [] and store.entries(bid, 4, 2) == []
    assert store.entries(bid, 0, None) == store.entries(bid)
    with pytest.raises(StoreError, match="stop must be >= 0"):
        store.entries(bid, 0, -1)


def test_entry(store: BattleStore) -> None:
    bid = _new(store)
    _fill(store, bid, 3)
    store.mark_shown(bid, 1)
    assert store.entry(bid, 1) == store.entries(bid)[1]
    assert (store.entry(bid, 1).shown, store.entry(bid, 2).action) == (True, {"do": "move", "i": 2})
    with pytest.raises(StoreError, match="no log entry 3 \\(its log has 3 entries\\)"):
        store.entry(bid, 3)
    store.pop_last(bid, 3)
    with pytest.raises(StoreError, match="no log entry 2"):
        store.entry(bid, 2)


# ---------------------------------------------------------------------- revisions


def test_every_write_bumps_the_revision(store: BattleStore, tmp_path: Path) -> None:
    bid = _new(store)
    seen = [store.revision(bid)]
    store.append(bid, 0, {"do": "a"}, {})
    seen.append(store.revision(bid))
    store.append(bid, 1, {"do": "b"}, {}, checkpoint={"x": 1})
    seen.append(store.revision(bid))
    store.mark_shown(bid, 0)
    seen.append(store.revision(bid))
    store.set_status(bid, "fate_screen")
    seen.append(store.revision(bid))
    store.pop_last(bid, 2)
    seen.append(store.revision(bid))
    assert seen == [0, 1, 2, 3, 4, 5] and store.get(bid).revision == 5


def test_refused_writes_leave_the_revision(store: BattleStore) -> None:
    bid = _new(store)
    _fill(store, bid, 2)
    other = _new(store)
    with pytest.raises(StaleStateError):
        store.append(bid, 1, {"do": "late"}, {})
    with pytest.raises(StaleStateError):
        store.pop_last(bid, 1)
    with pytest.raises(StoreError):
        store.mark_shown(bid, 5)
    assert store.revision(bid) == 2 and store.revision(other) == 0


def test_documents_must_be_plain_json(store: BattleStore) -> None:
    bid = _new(store)
    with pytest.raises(StoreError, match="result is not plain JSON: result.p.1: nan") as info:
        store.append(bid, 0, {"do": "x"}, {"p": [1.5, math.nan]})
    assert info.value.details["field"] == "result.p.1"
    with pytest.raises(StoreError, match="key 7 is not a string"):
        store.append(bid, 0, {"by_unit": {7: "u"}}, {})
    with pytest.raises(StoreError, match="action must be a JSON object"):
        store.append(bid, 0, ["not", "a", "dict"], {})  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="initial"):
        _new(store, initial={"when": object()})
    with pytest.raises(StoreError, match="expected_position"):
        store.append(bid, -1, {}, {})
    assert store.get(bid).position == 0


def test_resume_after_reopen(db: str) -> None:
    with BattleStore(db) as first:
        bid = _new(first)
        _fill(first, bid, 4)
    with BattleStore(str(db)) as tomorrow:
        assert tomorrow.get(bid).position == 4
        assert tomorrow.append(bid, 4, {"do": "next"}, {}) == 5
        assert [e.index for e in tomorrow.entries(bid)] == list(range(5))


def test_closed_store_refuses(db: str) -> None:
    s = BattleStore(db)
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.list()


# ------------------------------------------------------------------- export/import


def _played(store: BattleStore) -> str:
    bid = _new(store, title="Ford", meta={"club": "Thursday"}, seed=2**64 + 1)
    _fill(store, bid, 3)
    store.mark_shown(bid, 1)
    store.set_status(bid, "finished", turn=3)
    return bid


def test_export_import_round_trip(store: BattleStore, tmp_path: Path) -> None:
    bid = _played(store)
    doc = store.export(bid)
    assert (doc["format"], doc["version"]) == ("rulekeeper-battle", 2)
    assert doc["battle"]["position"] == 3 and len(doc["log"]) == 3 and doc["initial"] == INITIAL
    assert [e["shown"] for e in doc["log"]] == [False, True, False]

    with BattleStore(tmp_path / "other.db") as fresh:
        assert fresh.import_(copy.deepcopy(doc)) == bid
        assert fresh.export(bid) == doc
        assert fresh.get(bid) == dataclasses.replace(store.get(bid), revision=0)  # a fresh copy: revision 0
        assert fresh.entries(bid) == store.entries(bid)
        with pytest.raises(StoreError, match="already exists") as info:
            fresh.import_(doc)
        assert info.value.details["field"] == "battle.id"

        copy_id = fresh.import_(doc, new_id=True)
        assert copy_id != bid and copy_id.startswith("b-")
        again = fresh.export(copy_id)
        assert again["battle"].pop("id") == copy_id
        expected = copy.deepcopy(doc)
        del expected["battle"]["id"]
        assert again == expected
        assert fresh.append(copy_id, 3, {"do": "more"}, {}) == 4  # an imported battle goes on


def _bad(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node: Any = out
    for p in parents:
        node = node[int(p)] if p.isdigit() else node[p]
    if value is _DELETE:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return out


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("format", "something-else", "format"),
        ("version", 3, "version"),
        ("battle.seed", "42", "battle.seed"),
        ("battle.ruleset", _DELETE, "battle.ruleset"),
        ("battle.created", "last tuesday", "battle.created"),
        ("battle.colour", "red", "battle.colour"),
        ("battle.position", 5, "battle.position"),
        ("initial", ["not", "an", "object"], "initial"),
        ("log.1.shown", "yes", "log.1.shown"),
        ("log.2.action", _DELETE, "log.2.action"),
        ("log.0.result", {"x": [1, math.inf]}, "log.0.result.x.1"),
        ("initial", {"units": {3: "u"}}, "initial.units"),
    ],
)
def test_bad_import_documents_name_the_field(store: BattleStore, path: str, value: Any, field: str) -> None:
    doc = store.export(_played(store))
    before = store.list()
    with pytest.raises(StoreError) as info:
        store.import_(_bad(doc, path, value), new_id=True)
    assert info.value.details["field"] == field
    assert field in info.value.message and info.value.code == "store"
    assert store.list() == before


def test_import_refuses_non_document(store: BattleStore) -> None:
    with pytest.raises(StoreError, match="not a valid rulekeeper battle document"):
        store.import_([1, 2, 3])  # type: ignore[arg-type]


# ------------------------------------------------------------------ sqlite & errors


def test_sqlite_settings(store: BattleStore, db: str) -> None:
    if normalise_url(db).startswith("postgresql"):
        assert _sql(db, "SHOW lock_timeout") == "0"  # the server default: the limits are per connection of ours
        with store._engine.connect() as conn:  # type: ignore[union-attr]
            assert conn.exec_driver_sql("SHOW lock_timeout").scalar() == "5s"
            assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "30s"
        return
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    engine = store._engine
    assert engine is not None
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL: safe and fast with WAL


def test_errors_are_rulekeeper_errors_with_stable_codes() -> None:
    assert issubclass(StoreError, RulekeeperError) and StoreError.code == "store"
    assert issubclass(StaleStateError, RulekeeperError) and StaleStateError.code == "stale_state"
    assert issubclass(BattleNotFoundError, RulekeeperError) and BattleNotFoundError.code == "not_found"


def test_unopenable_database_is_a_store_error(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "x.db"
    with pytest.raises(StoreError, match=r"cannot open database at sqlite:///.*x\.db"):
        BattleStore(target)
    with pytest.raises(StoreError, match="driver is not installed|cannot use database URL"):
        BattleStore("postgresql+nosuchdriver://user:secret@localhost/rk")
    try:
        BattleStore("postgresql+nosuchdriver://user:secret@localhost/rk")
    except StoreError as exc:
        assert "secret" not in exc.message


def test_schema_compiles_for_postgresql() -> None:
    """The tables must stay portable: every DDL statement compiles for PostgreSQL."""
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    ddl = []
    for table in Base.metadata.sorted_tables:
        ddl.append(str(CreateTable(table).compile(dialect=dialect)))
        ddl.extend(str(CreateIndex(ix).compile(dialect=dialect)) for ix in table.indexes)
    text = "\n".join(ddl)
    assert "UNIQUE (battle_id, entry_index)" in text and "ON DELETE CASCADE" in text
    assert "meta JSON" in text and "seed TEXT" in text


# -------------------------------------------------------------------------- location


def test_default_location_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "nested" / "dir" / "mine.db"
    monkeypatch.setenv("RULEKEEPER_DB", str(target))
    assert default_db_url() == f"sqlite:///{target}"
    assert target.parent.is_dir()
    assert normalise_url(None) == f"sqlite:///{target}"
    with BattleStore() as s:
        _new(s)
        assert s.url == f"sqlite:///{target}"
    assert target.is_file()
    monkeypatch.setenv("RULEKEEPER_DB", "postgresql+psycopg://rk@db.example/club")
    assert default_db_url() == "postgresql+psycopg://rk@db.example/club"


def test_default_location_is_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def fake_user_data_dir(appname: str) -> str:
        asked.append(appname)
        return str(tmp_path / "data" / appname)

    monkeypatch.delenv("RULEKEEPER_DB", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_dir", fake_user_data_dir)
    assert default_db_url() == f"sqlite:///{tmp_path / 'data' / 'rulekeeper' / 'rulekeeper.db'}"
    assert asked == ["rulekeeper"] and (tmp_path / "data" / "rulekeeper").is_dir()


def test_normalise_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert normalise_url("games/x.db") == f"sqlite:///{tmp_path / 'games' / 'x.db'}"
    assert normalise_url(tmp_path / "y.db") == f"sqlite:///{tmp_path / 'y.db'}"
    assert normalise_url("sqlite:////abs/z.db") == "sqlite:////abs/z.db"
    assert normalise_url("postgresql://u:p@h:5432/rk") == "postgresql://u:p@h:5432/rk"
    assert normalise_url("postgresql+psycopg://h/rk") == "postgresql+psycopg://h/rk"
    home = Path.home()
    assert normalise_url("~/rk.db") == f"sqlite:///{home.resolve() / 'rk.db'}"


def test_memory_is_sqlites_in_memory_database_not_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--db :memory:`` means what it means to SQLite: a database in memory. It used to become a file named
    ``:memory:`` in the current directory (a test left one at the repository's root, and it was committed)."""
    monkeypatch.chdir(tmp_path)
    assert normalise_url(":memory:") == normalise_url(" :memory: ") == "sqlite://"
    with BattleStore(":memory:") as memory:
        bid = memory.create(ruleset="r", scenario="s", seed=1, initial={})
        assert memory.append(bid, 0, {"n": 1}, {}) == 1 and len(memory.entries(bid)) == 1
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------- concurrency


def _race_round(store: BattleStore, bid: str, who: int, position: int) -> bool:
    try:
        store.append(bid, position, {"by": who, "at": position}, {"won": True})
    except StaleStateError:
        return False
    return True


def _check_race(store: BattleStore, bid: str, wins: dict[int, list[int]], n: int) -> None:
    winners = sorted(p for ps in wins.values() for p in ps)
    assert winners == list(range(n)), "exactly one winner per position"
    assert store.get(bid).position == n
    log = store.entries(bid)
    assert [e.index for e in log] == list(range(n))
    for e in log:
        assert e.action["at"] == e.index and e.index in wins[e.action["by"]]


def _thread_race(db: str, bid: str, n_threads: int, positions: list[int], attempt: Any) -> dict[int, list[int]]:
    """Run ``attempt(store, who, position)`` in every thread, all at once, per position."""
    barrier = threading.Barrier(n_threads)
    wins: dict[int, list[int]] = {k: [] for k in range(n_threads)}
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        s = BattleStore(db)
        try:
            for p in positions:
                barrier.wait(timeout=60)
                if attempt(s, k, p):
                    wins[k].append(p)
        except BaseException as exc:  # report, and free the others from the barrier
            errors.append(exc)
            barrier.abort()
        finally:
            s.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    return wins


def test_threads_race_for_each_position(db: str) -> None:
    n_positions = 20
    with BattleStore(db) as setup:
        bid = _new(setup)
    wins = _thread_race(db, bid, 8, list(range(n_positions)), lambda s, k, p: _race_round(s, bid, k, p))
    with BattleStore(db) as check:
        _check_race(check, bid, wins, n_positions)


def test_threads_race_to_undo(db: str) -> None:
    """Undo reads before it writes: the write lock taken up front keeps racers queued."""
    with BattleStore(db) as setup:
        bid = _new(setup)
        _fill(setup, bid, 12)

    def undo(s: BattleStore, who: int, position: int) -> bool:
        try:
            assert s.pop_last(bid, position).index == position - 1
        except StaleStateError:
            return False
        return True

    wins = _thread_race(db, bid, 8, list(range(12, 0, -1)), undo)
    assert sorted(p for ps in wins.values() for p in ps) == list(range(1, 13))
    with BattleStore(db) as check:
        assert check.get(bid).position == 0 and check.entries(bid) == []


def _process_worker(db: str, bid: str, k: int, n_positions: int, barrier: Any, queue: Any) -> None:
    wins: list[int] = []
    problem = None
    s = BattleStore(db)
    try:
        for p in range(n_positions):
            barrier.wait(timeout=60)
            if _race_round(s, bid, k, p):
                wins.append(p)
    except BaseException as exc:
        problem = repr(exc)
        barrier.abort()
    finally:
        s.close()
        queue.put((k, wins, problem))


def test_processes_race_for_each_position(db: str) -> None:
    n_procs, n_positions = 4, 10
    with BattleStore(db) as setup:
        bid = _new(setup)
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(n_procs)
    queue = ctx.Queue()
    procs = [
        ctx.Process(target=_process_worker, args=(str(db), bid, k, n_positions, barrier, queue)) for k in range(n_procs)
    ]
    for p in procs:
        p.start()
    results = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert [problem for _, _, problem in results] == [None] * n_procs
    wins = {k: w for k, w, _ in results}
    with BattleStore(db) as check:
        _check_race(check, bid, wins, n_positions)
