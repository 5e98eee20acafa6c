"""The migrations and the new store API on a real PostgreSQL server.

The module starts a throw-away server of its own (``initdb`` into a temp directory,
Unix socket only, no TCP port, fsync off) and stops it at the end.  It is skipped
cleanly when the PostgreSQL binaries or the ``psycopg`` driver are missing, or when
the server does not start; it never depends on a server running on the machine.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from rulekeeper.persistence import migrate
from rulekeeper.persistence.access import AccessStore
from rulekeeper.persistence.access import _meta as access_meta
from rulekeeper.persistence.campaign import CampaignStore
from rulekeeper.persistence.campaign import _meta as campaign_meta
from rulekeeper.persistence.location import make_engine
from rulekeeper.persistence.schema import Base
from rulekeeper.persistence.store import BattleStore, StoreError

pytest.importorskip("psycopg", reason="the psycopg driver is not installed")


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
    assert _scalar(url, "SELECT value FROM rk_meta") == "3"


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
