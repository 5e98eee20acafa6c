"""Which of a battle store's statements go through the standard library's ``sqlite3`` rather than SQLAlchemy.

Why: on the default SQLite file an append through SQLAlchemy cost about four times the statements
themselves (issue 22: the War Table campaign's stored ÷ engine was 3.7×, the goal 2×). The battle
store (:class:`~.store.BattleStore`) sends its appends through :mod:`.sqlite_writes` when the
database allows it: a plain ``sqlite:///`` file in WAL mode at the schema revision those statements
are written for. Everything else (PostgreSQL, ``:memory:``, another revision, an append with the
old snapshot) and everything after a failure of that path keeps the store's SQLAlchemy statements.

The reads a battle's state is rebuilt from (its record, initial document, nearest checkpoint and
log entries) take the same path, with the SQL and conversions of :mod:`.sqlite_reads` that
``battle show`` already uses: inside :meth:`~.sqlstore.SqlStore.reading` on the very connection
SQLAlchemy pinned for the snapshot (so they read the same moment as its other reads), outside it on
a connection of the appends. Any failure but "no such battle" reads again through SQLAlchemy, so a
damaged file gets the store's own typed error.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Final, TypeVar

from . import location
from .errors import BattleNotFoundError
from .sqlite_reads import SqliteReads
from .sqlite_writes import SqliteAppends, open_appends
from .sqlstore import _PINNED, SqlStore

__all__ = ["Miss", "StdlibPaths"]

_LOCK = threading.Lock()
_T = TypeVar("_T")


class Miss:
    """What :meth:`StdlibPaths._fast_read` answers when the store must read through SQLAlchemy."""


_MISS: Final = Miss()


class StdlibPaths(SqlStore):
    """The stdlib appends of one store, opened at the first append and closed with the store."""

    #: False: every append and read through SQLAlchemy (tests compare the two paths byte for byte).
    fast_sqlite = True
    _fast: SqliteAppends | None | bool = False  # False: not looked at yet

    def _fast_appends(self) -> SqliteAppends | None:
        """The stdlib appends, if this database allows them (decided once, at the first append)."""
        if self._fast is False:
            with _LOCK:
                if self._fast is False:
                    sqlite = self._engine is not None and self._engine.dialect.name == "sqlite"
                    wait = location.SQLITE_BUSY_TIMEOUT_MS / 1000  # the pool's own setting, read as it connects
                    usable = self.fast_sqlite and self._snapshots and sqlite  # _snapshots: in WAL mode
                    self._fast = open_appends(self._url, self._safe, wait) if usable else None
        return self._fast if isinstance(self._fast, SqliteAppends) else None

    def _stop_fast_appends(self) -> None:
        """From now on every append through SQLAlchemy (the stdlib path failed, or the store closes)."""
        with _LOCK:
            fast, self._fast = self._fast, None
        if isinstance(fast, SqliteAppends):
            fast.close()

    def _fast_read(self, read: Callable[[SqliteReads], _T]) -> _T | Miss:
        """``read`` through the standard library, or a :class:`Miss`: read it through SQLAlchemy."""
        fast = self._fast_appends()
        if fast is None:
            return _MISS
        pinned = (_PINNED.get() or {}).get(id(self._pin))
        try:
            if pinned is not None:  # the snapshot reading() holds: its own connection, its open transaction
                raw = pinned.connection.dbapi_connection
                return read(SqliteReads(raw, self._url, within=True)) if isinstance(raw, sqlite3.Connection) \
                    else _MISS
            with fast.borrowed() as conn:
                return read(SqliteReads(conn, self._url))
        except BattleNotFoundError:
            raise
        except Exception:  # anything odd (a damaged file): the store's read gives its own typed error
            return _MISS

    def close(self) -> None:
        self._stop_fast_appends()
        super().close()
