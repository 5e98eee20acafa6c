"""Where battles live, and how to connect to them.

``default_db_url``/``normalise_url`` (in :mod:`.urls`, which imports no SQLAlchemy) turn
what a user typed (or nothing) into a database URL; ``make_engine`` opens it with the settings the store's guarantees rely
on (for SQLite: WAL with ``synchronous = NORMAL``, foreign keys, busy timeout,
``BEGIN IMMEDIATE`` for writers).

Why a default at all: a player who types ``rulekeeper battle new`` tonight must find
the battle tomorrow without remembering a path, so the store sits in the user's data
directory (``platformdirs``: ``~/.local/share/rulekeeper`` on Linux,
``~/Library/Application Support/rulekeeper`` on macOS, ``%LOCALAPPDATA%`` on
Windows).  ``RULEKEEPER_DB`` overrides it (a URL or a plain path), which is how
tests, clubs with a shared PostgreSQL server and portable installs point elsewhere.
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import ConnectionPoolEntry

if TYPE_CHECKING:
    from sqlalchemy.engine.interfaces import DBAPIConnection

from .jsontext import Encoded, encode, json_dumps, json_loads
from .urls import DB_FILENAME, ENV_VAR, default_db_url, is_url, normalise_url, sqlite_url

__all__ = ["DB_FILENAME", "ENV_VAR", "Encoded", "default_db_url", "encode", "is_url", "json_dumps", "json_loads",
           "make_engine", "normalise_url", "safe_url", "sqlite_url", "use_wal"]

# ------------------------------------------------------------------- connecting

#: Connection execution option that makes the SQLite ``begin`` hook take the write lock.
WRITE_OPTION = "rulekeeper_write"

#: Milliseconds a SQLite writer waits for another writer before giving up ("busy, try again").
SQLITE_BUSY_TIMEOUT_MS = 5000

#: Milliseconds a PostgreSQL statement waits for a lock before giving up (as SQLite's busy timeout).
LOCK_TIMEOUT_MS = 5000

#: Milliseconds any one PostgreSQL statement may run: the longest real one takes milliseconds.
STATEMENT_TIMEOUT_MS = 30000

#: Connections each store keeps open, and how many more it may open at a busy moment.
POOL_SIZE = 8
POOL_OVERFLOW = 16

#: Seconds to wait for a PostgreSQL server to accept the connection.
CONNECT_TIMEOUT_S = 10

def safe_url(url: str) -> str:
    """The URL with any password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _sqlite_on_connect(dbapi_connection: DBAPIConnection, connection_record: ConnectionPoolEntry) -> None:
    """Per-connection SQLite settings (they are not stored in the file, except WAL).

    ``synchronous = NORMAL`` is the setting SQLite recommends with WAL, and the one
    that keeps a write per action cheap: a commit appends to the WAL without waiting
    for the disk, and only checkpoints (WAL back into the database) are synced.  It
    is still durable across a crash of the application (the commit is in the OS page
    cache, so a killed rulekeeper loses nothing — see ``tests/persistence/test_crash.py``)
    and can never corrupt the file; only a power cut or kernel crash may roll back the
    last few commits, leaving the battle at an earlier, consistent action.  ``FULL``
    would add an fsync to every action to guard against that, which a game does not
    need.  A database not in WAL mode (``:memory:``, some network file systems, a file
    not yet known to be a rulekeeper store) keeps SQLite's default ``FULL``: with a
    rollback journal ``NORMAL`` may corrupt the file on a power cut.

    Connecting never *switches* the file to WAL: the store does that (:func:`use_wal`)
    only once it knows the file is its own, so a ``--db`` pointed at someone else's
    database leaves it exactly as it was.
    """
    # Let SQLAlchemy emit BEGIN itself (see _sqlite_on_begin); the sqlite3 module's
    # implicit transactions would otherwise start too late and too weakly.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        mode = cursor.execute("PRAGMA journal_mode").fetchone()
        if mode is not None and str(mode[0]).lower() == "wal":  # NORMAL is only safe in WAL mode
            cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def use_wal(engine: Engine) -> None:
    """Switch a SQLite store's file to WAL (a setting kept in the file); a no-op elsewhere.

    Called by the store after it has checked the file is its own (or empty).  Pooled
    connections are dropped afterwards so that every new one sees WAL and takes
    ``synchronous = NORMAL``.  Why a loop: SQLite does not always call the busy handler
    for this switch, so connections opening a brand-new file at the same moment (two
    stores, two processes) could fail at once with "database is locked"; retry until
    the busy timeout, as any other locked statement waits.
    """
    if engine.dialect.name != "sqlite":
        return
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                cursor.execute("PRAGMA journal_mode = WAL").fetchone()
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)
        cursor.close()
    finally:
        raw.close()
    engine.dispose()


def _postgresql_on_connect(dbapi_connection: DBAPIConnection, connection_record: ConnectionPoolEntry) -> None:
    """Per-connection PostgreSQL limits: no statement of rulekeeper's waits or runs unbounded.

    ``lock_timeout`` makes a writer queued behind a held lock give up after the same
    time a SQLite writer waits (the store then answers "busy, try again");
    ``statement_timeout`` bounds any one statement.  Set with ``SET`` rather than
    the connection's ``options`` so a URL that carries its own options keeps them.
    """
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"SET lock_timeout = {int(LOCK_TIMEOUT_MS)}")
        cursor.execute(f"SET statement_timeout = {int(STATEMENT_TIMEOUT_MS)}")
    finally:
        cursor.close()
    dbapi_connection.commit()


def _sqlite_on_begin(conn: Connection) -> None:
    """Write transactions take SQLite's write lock up front (``BEGIN IMMEDIATE``).

    A deferred transaction that reads and then writes cannot wait for a busy lock in
    WAL mode (SQLITE_BUSY_SNAPSHOT, "database is locked" at once); taking the lock
    first makes concurrent writers queue behind the busy timeout and then see the
    committed position.  Readers keep a plain ``BEGIN`` so they never wait.
    """
    if conn.get_execution_options().get(WRITE_OPTION):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("BEGIN")


def make_engine(url: str) -> Engine:
    """An engine for ``url``; the SQLite hooks are attached only to SQLite engines.

    Raises SQLAlchemy's ``ArgumentError``/``NoSuchModuleError`` or ``ImportError`` (a
    missing driver) for the store to translate.
    """
    connect_args: dict[str, Any] = {}
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
    pool: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql" or parsed.database not in (None, "", ":memory:"):
        # a request holds one read snapshot (SqlStore.reading) while it renders: room for the
        # web server's worker threads, yet well under PostgreSQL's 100 connections for 2 processes
        pool = {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW}
    engine = create_engine(url, json_serializer=json_dumps, json_deserializer=json_loads, connect_args=connect_args,
                           **pool)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "connect", _postgresql_on_connect)
    return engine
