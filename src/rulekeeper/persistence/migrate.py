"""Schema migrations: every store brings its database to the newest schema when it opens.

Why: "an old database is upgraded on open, never silently broken".  The schema is the
chain of Alembic revisions in ``migrations/versions`` (``0001`` is the schema as it
was before migrations existed); nothing else creates or alters a table.  Alembic is
driven from code — no ``alembic.ini`` — on the store's own connection, inside the
write transaction :meth:`~.sqlstore.SqlStore._init_schema` already holds, so an
upgrade is all-or-nothing (SQLite and PostgreSQL both roll DDL back) and two
processes opening the same database queue instead of migrating it twice.

How a database is recognised, by what its version table says:

* the head (:data:`HEAD`): nothing to do.  This is what almost every open finds, so
  it is one read of the version table and does not even import Alembic (~70 ms of
  start-up for every CLI command);
* an older revision this rulekeeper knows: upgraded to the head;
* a revision it does not know: a newer rulekeeper wrote it; refused with a
  :class:`StoreError` naming the revision, nothing touched;
* no version table but rulekeeper tables: a database from before migrations
  ("legacy", ``rk_meta.schema_version`` = 1).  Its version markers are checked, then
  revision ``0001`` adopts it — it creates only the tables that the legacy stores had
  not created yet (each store used to create its own, so a database only ever opened
  by the battle store has no campaign tables) — and records ``0001``; the later
  revisions then run as for any database;
* nothing at all: a new database; every revision runs;
* other software's tables and none of rulekeeper's: not a rulekeeper store, refused
  with :class:`~.errors.ForeignDatabaseError` before anything is written (a ``--db``
  pointed at the wrong file must not gain three tables and a WAL journal).

Opening a database that is already at the head only *reads* (:func:`needs_upgrade`),
so read-only commands work while another process holds the write lock.

Why ``rk_alembic_version`` rather than Alembic's default ``alembic_version``: a
PostgreSQL database may be shared with other software that uses Alembic too; two
applications in one version table would each see the other's revision as unknown.
Every rulekeeper table is prefixed ``rk_``, the version table included.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, String, Text, column, inspect, select, table, text

from .errors import ForeignDatabaseError, StoreError

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

__all__ = [
    "HEAD", "MIGRATIONS", "VERSION_TABLE", "alembic_config", "current_revision", "needs_upgrade", "upgrade_to_head",
]

#: The newest revision in ``migrations/versions``: what an up-to-date database records.
#: Spelled out so that opening such a database needs no Alembic; a test checks it.
HEAD = "0006"

#: The Alembic environment shipped inside the package (``env.py`` and ``versions/``).
MIGRATIONS = Path(__file__).with_name("migrations")

#: Where the database records its Alembic revision (see the module docstring for the name).
VERSION_TABLE = "rk_alembic_version"

#: ``rk_meta``/``rk_campaign_meta`` ``schema_version`` written by rulekeeper before migrations.
LEGACY_SCHEMA_VERSION = 1

#: Tables whose ``schema_version`` row marks a legacy database, and what to call them in errors.
_LEGACY_MARKERS = (("rk_meta", "the database"), ("rk_campaign_meta", "the campaign tables"))

#: PostgreSQL advisory lock taken for the migration transaction ("rk_schem" in ASCII).
_PG_LOCK_KEY = 0x726B5F736368656D

# Alembic installs its ``alembic.context``/``alembic.op`` proxies process-wide while it
# runs; two threads migrating two different databases at once must not interleave.
# Only held after the database's own lock has been taken, so it cannot deadlock.
_ALEMBIC_LOCK = threading.Lock()

log = logging.getLogger(__name__)


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for the shipped migrations, optionally bound to ``connection``.

    ``env.py`` runs the migrations on ``cfg.attributes["connection"]``; developers use
    the config as is, e.g. ``command.revision(alembic_config(), "message", rev_id="0003")``.
    """
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))  # ConfigParser interpolates %
    cfg.set_main_option("path_separator", "os")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@cache
def _script() -> ScriptDirectory:
    """The revision graph, read once per process (parsing ``versions/`` costs milliseconds)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def current_revision(conn: Connection) -> str | None:
    """The revision recorded in the database (``None``: new or legacy database)."""
    found = _recorded(conn)
    return found[0] if found else None


def _recorded(conn: Connection) -> tuple[str, ...]:
    """The version table's rows, read with plain SQL (no Alembic needed for the common case)."""
    if not inspect(conn).has_table(VERSION_TABLE):
        return ()
    version = column("version_num", String)
    return tuple(conn.execute(select(version).select_from(table(VERSION_TABLE, version))).scalars())


def needs_upgrade(conn: Connection, where: str) -> bool:
    """Whether the database must be written to before use (read-only check, no lock taken).

    False for a database at the head, which is what almost every open finds; a
    revision from a newer rulekeeper and a foreign database are refused here already,
    so the caller never takes the write lock for them.
    """
    current = _recorded(conn)
    if current == (HEAD,):
        return False
    _refuse_unknown(current, where)
    if not current:
        refuse_foreign(conn, where)
    return True


def refuse_foreign(conn: Connection, where: str) -> None:
    """Refuse a database with tables of which none is rulekeeper's (``rk_`` prefixed)."""
    names = sorted(inspect(conn).get_table_names())
    if not names or any(name.startswith("rk_") for name in names):
        return
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    raise ForeignDatabaseError(
        f"the database at {where} is not a rulekeeper store: it holds other tables ({shown}) and none of "
        "rulekeeper's; it was left untouched — give a new file, or an empty database or schema",
        url=where,
        tables=names[:20],
    )


def upgrade_to_head(conn: Connection, where: str) -> None:
    """Bring the database behind ``conn`` to :data:`HEAD`, or refuse it (see module docstring).

    ``conn`` must be inside a write transaction: the caller commits (or rolls back)
    everything done here together.  ``where`` is the database URL for messages.
    """
    _serialise(conn)
    current = _recorded(conn)
    if current == (HEAD,):
        return
    _refuse_unknown(current, where)
    if not current:
        refuse_foreign(conn, where)
    legacy = not current and _check_legacy(conn, where)
    _upgrade(conn, where)
    before = "/".join(current) or ("the schema from before migrations" if legacy else "an empty database")
    log.info("upgraded the rulekeeper schema at %s from %s to %s", where, before, HEAD)


def _serialise(conn: Connection) -> None:
    """Make concurrent first opens of one database queue rather than race.

    SQLite writers already hold the write lock (``BEGIN IMMEDIATE``).  PostgreSQL
    takes no lock at ``BEGIN``, so two processes could both find no tables and both
    create them; a transaction-scoped advisory lock orders them, and the second one
    then finds the database at the head.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})


def _refuse_unknown(current: Collection[str], where: str) -> None:
    known = {script.revision for script in _script().walk_revisions()}
    for revision in current:
        if revision not in known:
            raise StoreError(
                f"the database at {where} is at schema revision {revision!r}, which this rulekeeper does "
                f"not know (it knows up to {HEAD!r}): a newer rulekeeper wrote it — upgrade rulekeeper to open it",
                url=where,
                revision=revision,
            )


def _check_legacy(conn: Connection, where: str) -> bool:
    """Whether a database without a version table is legacy; refused if we cannot adopt it.

    Legacy means rulekeeper (``rk_``) tables are there; the ``schema_version`` of
    ``rk_meta`` and ``rk_campaign_meta``, where present, must be 1.
    """
    names = set(inspect(conn).get_table_names())
    for name, what in _LEGACY_MARKERS:
        if name not in names:
            continue
        key, value = column("key", String), column("value", Text)
        found = conn.execute(select(value).select_from(table(name, key, value)).where(key == "schema_version")).scalar()
        if found is not None and (not str(found).isdigit() or int(found) > LEGACY_SCHEMA_VERSION):
            raise StoreError(
                f"{what} at {where} has schema version {found!r}; this rulekeeper understands version "
                f"{LEGACY_SCHEMA_VERSION} — upgrade rulekeeper to open it",
                url=where,
            )
    return any(name.startswith("rk_") for name in names)


def _upgrade(conn: Connection, where: str) -> None:
    """Run the revisions from the database's to the head, through Alembic, on ``conn``."""
    from alembic import command
    from alembic.util import CommandError

    with _ALEMBIC_LOCK:
        try:
            command.upgrade(alembic_config(conn), "head")
        except CommandError as exc:
            raise StoreError(f"cannot upgrade the database at {where}: {exc}", url=where) from exc
