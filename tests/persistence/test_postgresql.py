"""The migrations and the new store API on a real PostgreSQL server.

The module starts a throw-away server of its own (``initdb`` into a temp directory,
Unix socket only, no TCP port, fsync off) and stops it at the end.  It is skipped
cleanly when the PostgreSQL binaries or the ``psycopg`` driver are missing, or when
the server does not start; it never depends on a server running on the machine.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from rulekeeper.persistence import migrate
from rulekeeper.persistence.access import AccessStore
from rulekeeper.persistence.access import _meta as access_meta
from rulekeeper.persistence.campaign import CampaignStore
from rulekeeper.persistence.campaign import _meta as campaign_meta
from rulekeeper.persistence.location import make_engine
from rulekeeper.persistence.schema import Base
from rulekeeper.persistence.store import BattleStore, StoreError

pytest.importorskip("psycopg", reason="the psycopg driver is not installed")


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    return candidates[-1] if candidates else None


def _as_server_user() -> list[str]:
    """PostgreSQL refuses to run as root: run its binaries as ``postgres`` then."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and there is no 'postgres' user to run the server")
    if runuser is None:
        pytest.skip("running as root without runuser")
    return [runuser, "-u", "postgres", "--"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The URL prefix of a private PostgreSQL server (``...@/{database}?host=...``)."""
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) not found")
    prefix = _as_server_user()
    home = Path(tempfile.mkdtemp(prefix="rkpg"))  # short: a socket path must fit 107 bytes
    data = home / "data"
    if prefix:
        shutil.chown(home, "postgres")
    run: dict[str, Any] = {"capture_output": True, "text": True, "timeout": 120}
    try:
        done = subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"], **run)
        if done.returncode != 0:
            pytest.skip(f"initdb failed: {done.stderr[-500:]}")
        options = f"-k {home} -c listen_addresses='' -F"
        done = subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(home / "log"), "-w", "-t", "60", "start"], **run
        )
        if done.returncode != 0:
            pytest.skip(f"PostgreSQL did not start: {done.stderr[-500:]}")
        try:
            yield f"postgresql+psycopg://postgres@/{{}}?host={home}"
        finally:
            subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], **run)
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def url(server: str) -> Iterator[str]:
    """A new, empty database on the private server."""
    name = f"rk_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server.format("postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    yield server.format(name)


def _scalar(url: str, sql: str) -> Any:
    engine = make_engine(url)
    with engine.connect() as conn:
        found = conn.execute(text(sql)).scalar()
    engine.dispose()
    return found


def test_new_database_at_head_and_the_store_api(url: str) -> None:
    with BattleStore(url) as store, AccessStore(url) as access:
        bid = store.create(ruleset="exillis", scenario="s", seed=2**100, initial={"n": 0})
        for i in range(6):
            store.append(bid, i, {"i": i}, {}, checkpoint={"n": i + 1} if i % 2 else None)
        assert [store.checkpoint(bid, n) for n in range(7)] == [None, None, {"n": 2}, None, {"n": 4}, None, {"n": 6}]
        assert [store.nearest_checkpoint(bid, n) for n in (0, 1, 3, 6)] == [None, None, (2, {"n": 2}), (6, {"n": 6})]
        store.pop_last(bid, 6)
        assert store.nearest_checkpoint(bid, 5) == (4, {"n": 4}) and store.revision(bid) == 7
        assert [e.index for e in store.entries(bid, 1, 4)] == [1, 2, 3] and store.entry(bid, 2).action == {"i": 2}
        tokens = access.issue(bid, ["red", "blue", "spectator"])
        assert access.role(bid, tokens["blue"]) == "blue"
    assert _scalar(url, f"SELECT version_num FROM {migrate.VERSION_TABLE}") == migrate.HEAD


def test_migrated_schema_matches_the_models(url: str) -> None:
    BattleStore(url).close()
    engine = make_engine(url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": migrate.VERSION_TABLE, "compare_type": True})
        models: Any = [Base.metadata, access_meta, campaign_meta]
        assert compare_metadata(context, models) == []
    engine.dispose()


def test_legacy_database_is_adopted(url: str) -> None:
    """Revision 0001 is the legacy schema (checked on SQLite): without its version table it is legacy."""
    engine = make_engine(url)
    with engine.begin() as conn:
        command.upgrade(migrate.alembic_config(conn), "0001")
        conn.execute(text(f"DROP TABLE {migrate.VERSION_TABLE}"))
        conn.execute(
            text(
                "INSERT INTO rk_battles VALUES ('b-old', 'x', 's', '7', 't0', 't0', 1, 'active', 1, '', '{}', '{}',"
                " NULL, NULL)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO rk_log (battle_id, entry_index, action, result, shown, created)"
                """ VALUES ('b-old', 0, '{"do": 1}', '{}', true, 't0')"""
            )
        )
    engine.dispose()
    with BattleStore(url) as store:
        assert store.get("b-old").position == 1 and store.entry("b-old", 0).action == {"do": 1}
        assert store.append("b-old", 1, {"do": 2}, {}, checkpoint={"at": 2}) == 2
        assert store.nearest_checkpoint("b-old", 2) == (2, {"at": 2})
    assert _scalar(url, "SELECT value FROM rk_meta") == "2"


def test_unknown_revision_is_refused(url: str) -> None:
    BattleStore(url).close()
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"UPDATE {migrate.VERSION_TABLE} SET version_num = '0042'"))
    engine.dispose()
    with pytest.raises(StoreError, match="schema revision '0042'.*upgrade rulekeeper"):
        CampaignStore(url)


def test_concurrent_first_open(url: str) -> None:
    """Without the advisory lock, two first opens race to CREATE the same tables."""
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def worker(cls: type[Any]) -> None:
        try:
            barrier.wait(timeout=30)
            cls(url).close()
        except BaseException as exc:
            errors.append(exc)

    stores = (BattleStore, CampaignStore, AccessStore, BattleStore)
    threads = [threading.Thread(target=worker, args=(cls,)) for cls in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert _scalar(url, f"SELECT count(*) FROM {migrate.VERSION_TABLE}") == 1
