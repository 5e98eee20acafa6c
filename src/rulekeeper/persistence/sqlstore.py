"""What every rulekeeper store on a SQL database shares: opening the engine, bringing
the schema to the newest revision under the write lock, one-transaction-per-call with a
safe rollback, and driver errors translated into :class:`StoreError` (never a
SQLAlchemy exception).

:class:`~.store.BattleStore`, :class:`~.access.AccessStore` and
:class:`~.campaign.CampaignStore` subclass it.  They share one database and one chain
of migrations (:mod:`.migrate`): whichever store opens the database first upgrades
every table, the others find it at the head.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Self

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
    StatementError,
)
from sqlalchemy.pool import PoolProxiedConnection

from rulekeeper.core.errors import RulekeeperError

from .errors import StoreBusyError, StoreError
from .location import WRITE_OPTION, make_engine, normalise_url, safe_url, use_wal
from .migrate import needs_upgrade, upgrade_to_head

__all__ = ["SqlStore", "StoreBusyError", "StoreError"]

#: The read transaction each store is pinned to in this context (see :meth:`SqlStore.reading`).
_PINNED: ContextVar[dict[int, Connection] | None] = ContextVar("rulekeeper_pinned_reads", default=None)


def _make_engine(url: str) -> Engine:
    safe = safe_url(url)
    try:
        return make_engine(url)
    except (ArgumentError, NoSuchModuleError) as exc:
        raise StoreError(f"cannot use database URL {safe}: {exc}", url=safe) from exc
    except ImportError as exc:
        raise StoreError(f"cannot use database URL {safe}: its driver is not installed ({exc})", url=safe) from exc


def _discard(conn: Connection) -> None:
    """Close the DBAPI connection under ``conn`` so its transaction and locks die with it."""
    try:
        conn.invalidate()
    except Exception:  # already broken: nothing more to release
        pass


#: PostgreSQL's answers to a lock wait or a statement cut short by the store's timeouts.
_BUSY_SQLSTATES = frozenset({"55P03", "57014"})  # lock_not_available, query_canceled


def _is_busy(orig: BaseException, text: str) -> bool:
    """Whether a driver error means "another holder kept the lock too long", on either database."""
    if getattr(orig, "sqlstate", None) in _BUSY_SQLSTATES:
        return True
    return isinstance(orig, sqlite3.OperationalError) and "locked" in text.lower()


def is_text(value: str) -> bool:
    """Whether ``value`` can be stored at all: a name holding lone surrogates (the bytes of an
    argument that is not UTF-8) cannot, so no stored battle or muster can have it."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class SqlStore:
    """A store on one database URL (``None``: the default SQLite file)."""

    #: how the store calls itself in messages ("this battle store is closed")
    kind = "store"

    def __init__(self, db: str | os.PathLike[str] | None = None, *, beside: SqlStore | None = None) -> None:
        """``beside``: another store on the same database, whose engine (connections) and snapshots this one
        shares: a read inside ``beside.reading()`` is then in that same snapshot (an act reads the link's
        role and the battle in one read transaction), and closing this store leaves the engine to its owner."""
        self._engine: Engine | None = None
        self._pin: object = self if beside is None else beside._pin
        self._owner = beside is None
        self._url: str = normalise_url(db) if beside is None else beside._url
        self._safe: str = safe_url(self._url)
        self._opened: bool = beside is not None
        self._snapshots: bool = False if beside is None else beside._snapshots
        if beside is not None:
            self._engine = beside._engine
            return
        self._engine = _make_engine(self._url)
        try:
            self._init_schema()
        except BaseException:
            self.close()
            raise
        self._opened = True
        self._snapshots = self._can_pin()

    def _can_pin(self) -> bool:
        """Whether :meth:`reading` may hold a read transaction while this thread also writes.

        PostgreSQL and SQLite in WAL mode let a writer commit beside an open reader; SQLite
        with a rollback journal (``:memory:``, a file on a file system without WAL) would
        make the writer wait for the reader — its own thread — so there reads are not pinned.
        """
        assert self._engine is not None
        if self._engine.dialect.name != "sqlite":
            return True
        try:
            with self._engine.connect() as conn:
                mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
        except SQLAlchemyError:
            return False
        return str(mode).lower() == "wal"

    @property
    def url(self) -> str:
        """The database URL (password hidden)."""
        return self._safe

    def _driver_connection(self) -> PoolProxiedConnection:
        """A connection of the database driver itself, outside the pool's transactions (``notices.py``)."""
        if self._engine is None:
            raise StoreError(f"this {self.kind} is closed")
        return self._engine.raw_connection()

    def close(self) -> None:
        """Release every connection; SQLite checkpoints its WAL when the last one closes."""
        if self._engine is not None and self._owner:
            self._engine.dispose()
        self._engine = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._safe!r})"

    def _setup(self, conn: Connection) -> None:
        """Upgrade the database to the newest schema, or refuse it (inside the write lock)."""
        upgrade_to_head(conn, self._safe)

    def _init_schema(self) -> None:
        """Check the schema with a read; only when it must change, run :meth:`_setup` under the write lock.

        Reading first is what lets ``battle list`` or ``show`` work while another process
        holds the write lock, and what refuses a foreign or newer database without
        writing to it.  A SQLite file is switched to WAL only once it is known to be
        ours (or empty).  Two processes opening a fresh database at once serialise on
        the lock (SQLite) or on an advisory lock (PostgreSQL, see
        :func:`.migrate.upgrade_to_head`); the second finds the schema at the head.
        Should a CREATE race be lost anyway, the transaction rolls back whole and the
        open simply tries once more.
        """
        with self._transaction(write=False) as conn:
            if not needs_upgrade(conn, self._safe):
                return
        assert self._engine is not None
        try:
            use_wal(self._engine)
        except SQLAlchemyError as exc:
            raise self._wrap(exc) from exc
        except sqlite3.OperationalError as exc:
            raise StoreBusyError(f"the database at {self._safe} is busy; try again: {exc}", url=self._safe) from exc
        for attempt in (1, 2):
            try:
                with self._transaction(write=True) as conn:
                    self._setup(conn)
                return
            except StoreError as exc:
                if attempt == 2 or not isinstance(exc.__cause__, (IntegrityError, ProgrammingError)):
                    raise

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every read of this store inside the block comes from one snapshot of the database.

        Why: a request reads a battle several times (its record, its last entry, the
        checkpoint its state starts from); a write landing between two of those reads
        gave a reader the state after a face-down action with ``pending: false``, or an
        ``/actions`` list of one position under another position's number.  Inside
        ``reading()`` those reads share one read transaction: SQLite's WAL snapshot (a
        deferred ``BEGIN``: the snapshot is taken at the first read and kept until the
        end) or PostgreSQL's ``REPEATABLE READ``.  Writes still open their own
        transaction and check the revision they were computed from (compare-and-set),
        so a write based on this snapshot fails as stale if anyone wrote since.
        Nested blocks share the outer snapshot; the context is per thread/task.
        """
        pinned = _PINNED.get()
        if (pinned is not None and id(self._pin) in pinned) or not self._snapshots:
            yield
            return
        if self._engine is None:
            raise StoreError(f"this {self.kind} is closed", url=self._safe)
        try:
            with self._engine.connect() as conn:
                if self._engine.dialect.name == "postgresql":
                    conn.execution_options(isolation_level="REPEATABLE READ")
                token = _PINNED.set({**(pinned or {}), id(self._pin): conn})
                try:
                    conn.begin()
                    yield
                    conn.rollback()  # nothing to keep: it only read
                except RulekeeperError:
                    conn.rollback()
                    raise
                except BaseException:
                    _discard(conn)
                    raise
                finally:
                    _PINNED.reset(token)
        except SQLAlchemyError as exc:
            raise self._wrap(exc) from exc

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Connection]:
        """One database transaction; rolled back if the body raises anything.

        Our own refusals (stale position, not found...) are raised before COMMIT and
        end in an ordinary rollback.  Any other failure — above all one raised while
        committing — throws the DBAPI connection away instead: SQLAlchemy may then
        consider the transaction finished and skip the pool's reset, and a pooled
        SQLite connection still inside ``BEGIN IMMEDIATE`` would hold the write lock
        and poison the next transaction ("cannot start a transaction within a
        transaction").  Closing the connection always releases it.
        """
        if self._engine is None:
            raise StoreError(f"this {self.kind} is closed", url=self._safe)
        pinned = None if write else (_PINNED.get() or {}).get(id(self._pin))
        if pinned is not None:
            try:
                yield pinned  # inside reading(): the request's one snapshot
            except SQLAlchemyError as exc:
                raise self._wrap(exc) from exc
            return
        try:
            with self._engine.connect() as conn:
                if write:
                    conn.execution_options(**{WRITE_OPTION: True})
                elif self._engine.dialect.name == "postgresql":
                    # A read outside a snapshot without BEGIN and COMMIT: each statement is atomic on its
                    # own, and under READ COMMITTED every statement of a transaction saw a fresh snapshot
                    # anyway, so nothing changes but two round trips fewer per read (a live stream's
                    # version check, every link check: the convention-hall bench).  reading() keeps its
                    # REPEATABLE READ transaction for the reads that must share one moment.
                    conn.execution_options(isolation_level="AUTOCOMMIT")
                try:
                    conn.begin()
                    yield conn
                    self._commit(conn)
                except RulekeeperError:
                    raise
                except BaseException:
                    _discard(conn)
                    raise
        except SQLAlchemyError as exc:
            raise self._wrap(exc) from exc
        except UnicodeEncodeError as exc:  # a name or id holding lone surrogates (argv bytes that are not UTF-8)
            raise StoreError(f"cannot look up {exc.object[:80]!r}: it is not valid UTF-8 text, so nothing stored "
                             "can have that name", url=self._safe) from None

    def _commit(self, conn: Connection) -> None:
        """Commit point of every transaction (a seam: tests inject failures here)."""
        conn.commit()

    def _wrap(self, exc: SQLAlchemyError) -> StoreError:
        """Translate a SQLAlchemy/driver exception into a StoreError a player can read."""
        orig = getattr(exc, "orig", None) or exc
        text = str(orig).strip() or type(orig).__name__
        if _is_busy(orig, text):
            return StoreBusyError(
                f"the database at {self._safe} is busy (another program holds a lock on it); nothing was "
                f"changed — try again: {text[:300]}",
                url=self._safe,
            )
        if isinstance(exc, OperationalError) and not self._opened:
            return StoreError(f"cannot open database at {self._safe}: {text}", url=self._safe)
        if isinstance(exc, StatementError) and isinstance(orig, (TypeError, ValueError)):
            return StoreError(f"cannot store a document that is not plain JSON: {text}", url=self._safe)
        return StoreError(f"database error at {self._safe}: {text}", url=self._safe)
