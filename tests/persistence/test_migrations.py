"""Schema migrations: an old database is upgraded on open, never silently broken.

The legacy database is built here from the exact DDL that rulekeeper's stores created
with ``metadata.create_all`` before migrations existed (captured from SQLite), so
these tests keep proving the upgrade path even after the models move on.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, MetaData

from rulekeeper.persistence import migrate
from rulekeeper.persistence.access import AccessStore
from rulekeeper.persistence.access import _meta as access_meta
from rulekeeper.persistence.campaign import CampaignStore
from rulekeeper.persistence.campaign import _meta as campaign_meta
from rulekeeper.persistence.location import make_engine, sqlite_url
from rulekeeper.persistence.migrate import VERSION_TABLE, alembic_config
from rulekeeper.persistence.schema import SCHEMA_VERSION, Base
from rulekeeper.persistence.store import BattleStore, StoreError

HEAD = migrate.HEAD

# What BattleStore, AccessStore and CampaignStore created before migrations (one
# statement per table/index, in the order the stores ran create_all).
LEGACY_BATTLE_DDL = [
    """CREATE TABLE rk_meta (
	"key" VARCHAR(64) NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY ("key")
)""",
    """CREATE TABLE rk_battles (
	id VARCHAR(100) NOT NULL,
	ruleset VARCHAR(200) NOT NULL,
	scenario TEXT NOT NULL,
	seed TEXT NOT NULL,
	created VARCHAR(40) NOT NULL,
	updated VARCHAR(40) NOT NULL,
	position INTEGER NOT NULL,
	status VARCHAR(64) NOT NULL,
	turn INTEGER NOT NULL,
	title TEXT NOT NULL,
	meta JSON NOT NULL,
	initial JSON NOT NULL,
	snapshot JSON,
	snapshot_position INTEGER,
	PRIMARY KEY (id)
)""",
    "CREATE INDEX ix_rk_battles_updated ON rk_battles (updated)",
    """CREATE TABLE rk_log (
	id INTEGER NOT NULL,
	battle_id VARCHAR(100) NOT NULL,
	entry_index INTEGER NOT NULL,
	action JSON NOT NULL,
	result JSON NOT NULL,
	shown BOOLEAN NOT NULL,
	created VARCHAR(40) NOT NULL,
	PRIMARY KEY (id),
	CONSTRAINT uq_rk_log_battle_index UNIQUE (battle_id, entry_index),
	FOREIGN KEY(battle_id) REFERENCES rk_battles (id) ON DELETE CASCADE
)""",
    "INSERT INTO rk_meta VALUES ('schema_version', '1')",
]
LEGACY_ACCESS_DDL = [
    """CREATE TABLE rk_access (
	battle_id VARCHAR(100) NOT NULL,
	role VARCHAR(20) NOT NULL,
	token_hash VARCHAR(64) NOT NULL,
	created VARCHAR(40) NOT NULL,
	CONSTRAINT uq_access_battle_role UNIQUE (battle_id, role),
	UNIQUE (token_hash)
)""",
]
LEGACY_CAMPAIGN_DDL = [
    """CREATE TABLE rk_campaign_meta (
	"key" VARCHAR(64) NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY ("key")
)""",
    """CREATE TABLE rk_muster_musters (
	name VARCHAR(200) NOT NULL,
	document JSON NOT NULL,
	created VARCHAR(40) NOT NULL,
	updated VARCHAR(40) NOT NULL,
	PRIMARY KEY (name)
)""",
    """CREATE TABLE rk_campaign_units (
	muster VARCHAR(200) NOT NULL,
	slot VARCHAR(200) NOT NULL,
	kind VARCHAR(10) NOT NULL,
	entry INTEGER NOT NULL,
	unit VARCHAR(200) NOT NULL,
	label TEXT NOT NULL,
	level INTEGER NOT NULL,
	bp INTEGER NOT NULL,
	bp_total INTEGER NOT NULL,
	skill_points INTEGER NOT NULL,
	battles INTEGER NOT NULL,
	max_level INTEGER NOT NULL,
	named BOOLEAN NOT NULL,
	created VARCHAR(40) NOT NULL,
	updated VARCHAR(40) NOT NULL,
	PRIMARY KEY (muster, slot)
)""",
    """CREATE TABLE rk_campaign_players (
	name VARCHAR(200) NOT NULL,
	level INTEGER NOT NULL,
	bp INTEGER NOT NULL,
	bp_total INTEGER NOT NULL,
	renown INTEGER NOT NULL,
	battles INTEGER NOT NULL,
	created VARCHAR(40) NOT NULL,
	updated VARCHAR(40) NOT NULL,
	PRIMARY KEY (name)
)""",
    """CREATE TABLE rk_campaign_battles (
	battle_id VARCHAR(100) NOT NULL,
	recorded VARCHAR(40) NOT NULL,
	bp INTEGER NOT NULL,
	note TEXT NOT NULL,
	summary JSON NOT NULL,
	PRIMARY KEY (battle_id)
)""",
    "INSERT INTO rk_campaign_meta VALUES ('schema_version', '1')",
]
LEGACY_DDL = LEGACY_BATTLE_DDL + LEGACY_ACCESS_DDL + LEGACY_CAMPAIGN_DDL

T0 = "2024-05-01T20:00:00.000000+00:00"
LEGACY_TOKEN = "legacy-token-for-side-A"


def _child_env() -> dict[str, str]:
    src = str(Path(__file__).resolve().parents[2] / "src")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))


def _legacy(db: Path, ddl: list[str] = LEGACY_DDL) -> None:
    """A database as rulekeeper left it before migrations (WAL, like the old stores)."""
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA journal_mode = WAL")
        for statement in ddl:
            con.execute(statement)
    con.close()


def _legacy_battle(db: Path) -> None:
    """One battle with three log entries (one shown) and a snapshot, written as the old code did."""
    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO rk_battles VALUES (?, 'exillis', 'skirmish', ?, ?, ?, 3, 'active', 2, 'Old ford',"
            " '{\"club\":\"Thu\"}', '{\"units\":[1,2]}', '{\"at\":3}', 3)",
            ("b-old", str(2**100 + 7), T0, T0),
        )
        for i in range(3):
            con.execute(
                "INSERT INTO rk_log (battle_id, entry_index, action, result, shown, created) VALUES (?, ?, ?, ?, ?, ?)",
                ("b-old", i, f'{{"do":"move","i":{i}}}', f'{{"rolled":[{i}]}}', int(i == 1), T0),
            )
    con.close()


def _rows(db: Path, sql: str) -> list[Any]:
    with sqlite3.connect(db) as con:
        rows = con.execute(sql).fetchall()
    con.close()
    return rows


def _revision(db: Path) -> list[Any]:
    return _rows(db, f"SELECT version_num FROM {VERSION_TABLE}")


def _tables(db: Path) -> set[str]:
    return {name for (name,) in _rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")}


def _columns(db: Path, table: str) -> list[str]:
    return [row[1] for row in _rows(db, f"PRAGMA table_info({table})")]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rk.db"


@pytest.fixture
def conn(db: Path) -> Iterator[Connection]:
    """A connection with the store's SQLite settings, inside a write transaction."""
    engine = make_engine(sqlite_url(db))
    with engine.connect() as connection:
        connection.execution_options(rulekeeper_write=True)
        with connection.begin():
            yield connection
    engine.dispose()


# ---------------------------------------------------------------------- new databases


def test_new_database_is_made_by_the_migrations(db: Path) -> None:
    BattleStore(db).close()
    assert _revision(db) == [(HEAD,)] == [("0006",)]
    assert _tables(db) == {
        VERSION_TABLE, "rk_meta", "rk_battles", "rk_log", "rk_access",
        "rk_campaign_meta", "rk_dice", "rk_muster_musters", "rk_campaign_units", "rk_campaign_players", "rk_campaign_battles",
    }  # fmt: skip
    assert "state" in _columns(db, "rk_log") and "revision" in _columns(db, "rk_battles")
    assert _rows(db, "SELECT value FROM rk_meta") == [(str(SCHEMA_VERSION),)] == [("3",)]
    assert _rows(db, "SELECT value FROM rk_campaign_meta") == [("1",)]


def test_every_store_opens_the_same_migrated_database(db: Path) -> None:
    """One chain of migrations for all tables: whichever store opens first makes them all."""
    with CampaignStore(db) as campaign:
        assert campaign.players() == []
    with BattleStore(db) as battles, AccessStore(db) as access:
        bid = battles.create(ruleset="exillis", scenario="s", seed=1, initial={})
        assert access.role(bid, access.issue(bid)["A"]) == "A"
    assert _revision(db) == [(HEAD,)]


def test_migrated_schema_matches_the_models(conn: Connection) -> None:
    """Nothing but the migrations makes tables, so they must agree with the code's tables."""
    migrate.upgrade_to_head(conn, "test")
    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE, "compare_type": True})
    models: Any = [Base.metadata, access_meta, campaign_meta]  # a list of MetaData is accepted at run time
    assert compare_metadata(context, models) == []


def _schema(db: Path) -> dict[str, str]:
    """Every table and index but the version table, with its SQL with whitespace normalised."""
    rows = _rows(db, f"SELECT name, sql FROM sqlite_master WHERE name != '{VERSION_TABLE}' AND sql IS NOT NULL")
    return {name: re.sub(r"\s+", " ", sql).replace("( ", "(").replace(" )", ")") for name, sql in rows}


def test_baseline_revision_mirrors_the_legacy_schema(tmp_path: Path, db: Path) -> None:
    engine = make_engine(sqlite_url(db))
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
    engine.dispose()
    legacy = tmp_path / "legacy.db"
    _legacy(legacy)
    assert _schema(db) == _schema(legacy) and len(_schema(db)) == 10
    assert _rows(db, "SELECT * FROM rk_meta") == _rows(legacy, "SELECT * FROM rk_meta")
    assert _rows(db, "SELECT * FROM rk_campaign_meta") == _rows(legacy, "SELECT * FROM rk_campaign_meta")


def test_head_is_the_newest_revision() -> None:
    """``migrate.HEAD`` is spelled out (so opening needs no Alembic): it must name the real head."""
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [HEAD]
    assert [s.revision for s in script.walk_revisions()] == [HEAD, "0005", "0004", "0003", "0002", "0001"]


def test_opening_a_current_database_does_not_import_alembic(db: Path) -> None:
    BattleStore(db).close()
    code = (
        "import sys; from rulekeeper.persistence.store import BattleStore; "
        f"BattleStore({str(db)!r}).close(); print(sorted(m for m in sys.modules if m.startswith('alembic')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=_child_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_reopening_at_head_runs_no_migration(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    BattleStore(db).close()

    def fail(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a database at the head must not be migrated again")

    monkeypatch.setattr(command, "upgrade", fail)
    with BattleStore(db) as again:
        assert again.list() == []


# ------------------------------------------------------------------ legacy databases


def test_legacy_database_is_upgraded_with_its_data(db: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="rulekeeper.persistence.migrate")
    _legacy(db)
    _legacy_battle(db)
    with sqlite3.connect(db) as con:
        token_hash = hashlib.sha256(LEGACY_TOKEN.encode()).hexdigest()
        con.execute("INSERT INTO rk_access VALUES ('b-old', 'A', ?, ?)", (token_hash, T0))
        con.execute("INSERT INTO rk_campaign_players VALUES ('ann', 2, 5, 15, 1, 3, ?, ?)", (T0, T0))
    con.close()
    assert VERSION_TABLE not in _tables(db)

    with BattleStore(db) as store:
        rec = store.get("b-old")
        assert (rec.position, rec.status, rec.turn, rec.title, rec.seed) == (3, "active", 2, "Old ford", 2**100 + 7)
        assert (rec.meta, rec.revision, rec.created) == ({"club": "Thu"}, 0, T0)
        assert store.initial("b-old") == {"units": [1, 2]}
        assert store.snapshot("b-old") == (3, {"at": 3})
        log = store.entries("b-old")
        assert [(e.index, e.action, e.result, e.shown) for e in log] == [
            (i, {"do": "move", "i": i}, {"rolled": [i]}, i == 1) for i in range(3)
        ]
        assert [store.checkpoint("b-old", n) for n in range(4)] == [None] * 4
        assert store.nearest_checkpoint("b-old", 3) is None  # old entries: fold from the initial document
        assert store.append("b-old", 3, {"do": "new"}, {}, checkpoint={"at": 4}) == 4
        assert store.nearest_checkpoint("b-old", 4) == (4, {"at": 4}) and store.revision("b-old") == 1
        assert store.verify_chain("b-old") == []  # revision 0003 sealed the old battle as it was
        assert store.get("b-old").head == store.export("b-old")["log"][-1]["chain"]
    assert _revision(db) == [(HEAD,)]
    assert "from the schema from before migrations to 0006" in caplog.text
    assert _rows(db, "SELECT value FROM rk_meta") == [("3",)]  # old rulekeepers now refuse it
    assert "state" in _columns(db, "rk_log") and "revision" in _columns(db, "rk_battles")
    with CampaignStore(db) as campaign:
        assert [(p.name, p.level, p.bp_total) for p in campaign.players()] == [("ann", 2, 15)]
    with AccessStore(db) as access:
        assert access.role("b-old", LEGACY_TOKEN) == "A"
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    con.close()


def test_partial_legacy_database_gets_its_missing_tables(db: Path) -> None:
    """Before migrations each store made its own tables: a battles-only database is common."""
    _legacy(db, LEGACY_BATTLE_DDL)
    _legacy_battle(db)
    with CampaignStore(db) as campaign:
        assert campaign.players() == []
    assert {"rk_access", "rk_campaign_meta", "rk_campaign_units"} <= _tables(db)
    assert _rows(db, "SELECT value FROM rk_campaign_meta") == [("1",)]
    with BattleStore(db) as store:
        assert store.get("b-old").position == 3 and len(store.entries("b-old")) == 3


def test_legacy_database_of_a_newer_rulekeeper_is_refused(db: Path) -> None:
    _legacy(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE rk_meta SET value = '99' WHERE key = 'schema_version'")
    con.close()
    with pytest.raises(StoreError, match="schema version '99'.*upgrade rulekeeper"):
        BattleStore(db)
    assert VERSION_TABLE not in _tables(db) and "revision" not in _columns(db, "rk_battles")


def test_a_failed_upgrade_changes_nothing(db: Path) -> None:
    """The whole upgrade is one transaction: a revision failing half-way leaves the old schema."""
    _legacy(db)
    _legacy_battle(db)
    with sqlite3.connect(db) as con:  # makes revision 0002's CREATE INDEX fail after its ADD COLUMNs
        con.execute("CREATE INDEX ix_rk_log_checkpoints ON rk_log (entry_index)")
    con.close()
    with pytest.raises(StoreError, match="ix_rk_log_checkpoints"):
        BattleStore(db)
    assert VERSION_TABLE not in _tables(db)
    assert "state" not in _columns(db, "rk_log") and "revision" not in _columns(db, "rk_battles")
    assert _rows(db, "SELECT value FROM rk_meta") == [("1",)]
    assert _rows(db, "SELECT count(*) FROM rk_log") == [(3,)]


# ----------------------------------------------------------------- newer databases


def test_unknown_revision_is_refused(db: Path) -> None:
    BattleStore(db).close()
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE {VERSION_TABLE} SET version_num = '0042'")
    con.close()
    with pytest.raises(StoreError, match=r"schema revision '0042'.*upgrade rulekeeper to open it") as info:
        CampaignStore(db)
    assert info.value.details["revision"] == "0042"
    assert _revision(db) == [("0042",)]


# ------------------------------------------------------------------------- downgrade


def test_downgrade_to_baseline_and_up_again(db: Path) -> None:
    with BattleStore(db) as store:
        bid = store.create(ruleset="exillis", scenario="s", seed=1, initial={"n": 0})
        store.append(bid, 0, {"do": "x"}, {}, checkpoint={"n": 1})
    engine = make_engine(sqlite_url(db))
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0001")
    engine.dispose()
    assert _revision(db) == [("0001",)] and _rows(db, "SELECT value FROM rk_meta") == [("1",)]
    assert "state" not in _columns(db, "rk_log") and "revision" not in _columns(db, "rk_battles")
    with BattleStore(db) as store:
        assert store.entries(bid)[0].action == {"do": "x"} and store.checkpoint(bid, 1) is None
    assert _revision(db) == [(HEAD,)]


# ----------------------------------------------------------------------- concurrency


def _open_all_at_once(db: Path, stores: list[type[Any]]) -> list[BaseException]:
    barrier = threading.Barrier(len(stores))
    errors: list[BaseException] = []

    def worker(cls: type[Any]) -> None:
        try:
            barrier.wait(timeout=30)
            cls(db).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(cls,)) for cls in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


@pytest.mark.parametrize("legacy", [False, True], ids=["new", "legacy"])
def test_concurrent_first_open_from_threads(tmp_path: Path, legacy: bool) -> None:
    for attempt in range(10):  # new files: the WAL switch itself used to race ("database is locked")
        db = tmp_path / f"rk{attempt}.db"
        if legacy:
            _legacy(db)
            _legacy_battle(db)
        assert _open_all_at_once(db, [BattleStore, CampaignStore, BattleStore, AccessStore]) == []
        assert _revision(db) == [(HEAD,)]
        with BattleStore(db) as store:
            assert [r.id for r in store.list()] == (["b-old"] if legacy else [])


def _open_in_process(db: str, barrier: Any, queue: Any) -> None:
    try:
        barrier.wait(timeout=60)
        BattleStore(db).close()
        queue.put(None)
    except BaseException as exc:
        queue.put(repr(exc))


def test_concurrent_first_open_from_processes(db: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier, queue = ctx.Barrier(3), ctx.Queue()
    procs = [ctx.Process(target=_open_in_process, args=(str(db), barrier, queue)) for _ in range(3)]
    for p in procs:
        p.start()
    problems = [queue.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert problems == [None, None, None]
    assert _revision(db) == [(HEAD,)]


def test_models_metadata_is_not_used_to_create_tables(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new database is made by the migrations, never by create_all."""

    def fail(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("create_all must not be used")

    monkeypatch.setattr(MetaData, "create_all", fail)
    BattleStore(db).close()
    AccessStore(db).close()
    CampaignStore(db).close()
    assert _revision(db) == [(HEAD,)]
