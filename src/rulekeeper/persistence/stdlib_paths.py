"""Which of a battle store's statements go through the standard library's ``sqlite3`` rather than SQLAlchemy.

Why: on the default SQLite file an append through SQLAlchemy cost about four times the statements
themselves (issue 22: the War Table campaign's stored ÷ engine was 3.7×, the goal 2×). The battle
store (:class:`~.store.BattleStore`) sends its appends through :mod:`.sqlite_writes` when the
database allows it: a plain ``sqlite:///`` file in WAL mode at the schema revision those statements
are written for. Everything else (PostgreSQL, ``:memory:``, another revision, an append with the
old snapshot) and everything after a failure of that path keeps the store's SQLAlchemy statements.
"""

from __future__ import annotations

import threading

from . import location
from .sqlite_writes import SqliteAppends, open_appends
from .sqlstore import SqlStore

__all__ = ["StdlibPaths"]

_LOCK = threading.Lock()


class StdlibPaths(SqlStore):
    """The stdlib appends of one store, opened at the first append and closed with the store."""

    #: False: every append through SQLAlchemy (a test compares the two paths byte for byte).
    fast_appends = True
    _fast: SqliteAppends | None | bool = False  # False: not looked at yet

    def _fast_appends(self) -> SqliteAppends | None:
        """The stdlib appends, if this database allows them (decided once, at the first append)."""
        if self._fast is False:
            with _LOCK:
                if self._fast is False:
                    sqlite = self._engine is not None and self._engine.dialect.name == "sqlite"
                    wait = location.SQLITE_BUSY_TIMEOUT_MS / 1000  # the pool's own setting, read as it connects
                    usable = self.fast_appends and self._snapshots and sqlite  # _snapshots: in WAL mode
                    self._fast = open_appends(self._url, self._safe, wait) if usable else None
        return self._fast if isinstance(self._fast, SqliteAppends) else None

    def _stop_fast_appends(self) -> None:
        """From now on every append through SQLAlchemy (the stdlib path failed, or the store closes)."""
        with _LOCK:
            fast, self._fast = self._fast, None
        if isinstance(fast, SqliteAppends):
            fast.close()

    def close(self) -> None:
        self._stop_fast_appends()
        super().close()
