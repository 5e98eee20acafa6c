"""The battle store's append on the default SQLite file, through the standard library's ``sqlite3``.

Why: every action of a battle is one append, and autoplay makes one per action. Through
SQLAlchemy an append cost about 1.25 ms of CPU, most of it the connection, transaction and
statement machinery around three short statements, which put the War Table campaign's stored ÷
engine at 3.7× (issue 22: at most 2×). The same statements sent on a connection of the standard
library cost a small part of that.

:meth:`~.store.BattleStore.append_chained` still computes everything an append needs (the checked
and encoded documents, the time, the entry's sealed bytes) and hands only the writing here, which
keeps each guarantee of the store's own append:

* **one transaction**, taken with ``BEGIN IMMEDIATE`` (writers queue on the lock for the busy
  timeout); anything raised before ``COMMIT`` has succeeded rolls it back, and a connection whose
  rollback fails is closed, so nothing is ever half-applied and no lock is left behind;
* **the compare-and-set**: the battle row moves only while it is still at the expected position
  and chain head (and revision, when given); else the store's own refusal (stale, not found);
* **the unique index** ``UNIQUE(battle_id, entry_index)``: a second entry at the same index is
  refused as stale, the move rolled back with it;
* **the hash chain**: the link is computed inside the transaction from the head it checks;
* **the very same rows** as the store's statements write (``tests/service/test_fast_appends.py``
  compares them byte for byte), with the connection settings of :mod:`.location` (WAL with
  ``synchronous = NORMAL``, foreign keys, a 5 s busy timeout).

When: only on the conditions of :mod:`.sqlite_reads` (a ``sqlite:///`` file that needs no
escaping in a URL, in WAL mode, at schema revision :data:`~.sqlite_reads.HEAD`), and only for an
append without the battle row's old snapshot. Everything else is SQLAlchemy's. Any error but a
refusal or a busy lock (a damaged file: a table or column missing) rolls back and raises
:class:`Fallback`; the store then appends through SQLAlchemy, which fails, if it must, with its
own typed error, and stops using this path.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote

from . import chain
from .errors import BattleNotFoundError, StaleStateError, StoreBusyError
from .sqlite_reads import BUSY_TIMEOUT_S, SqliteReads, plain_path

__all__ = ["Append", "Fallback", "SqliteAppends", "open_appends"]

#: Called with each statement the appends send, when set (a test counts the statements of an act).
trace: Callable[[str], None] | None = None

_HEAD = "SELECT coalesce(head, '') FROM rk_battles WHERE id = ?"
_POSITION = "SELECT position FROM rk_battles WHERE id = ?"
# the store's _MOVE and _MOVE_AT (store.py), column for column
_MOVE = ("UPDATE rk_battles SET position = ?, updated = ?, revision = (rk_battles.revision + 1), head = ?, "
         "status = coalesce(?, rk_battles.status), turn = coalesce(?, rk_battles.turn) "
         "WHERE rk_battles.id = ? AND rk_battles.position = ? AND coalesce(rk_battles.head, '') = ?")
_MOVE_AT = _MOVE + " AND rk_battles.revision = ?"
_INSERT = ("INSERT INTO rk_log (battle_id, entry_index, action, result, shown, created, state, chain) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


class Fallback(Exception):
    """This path cannot append here (nothing was written): the store appends through SQLAlchemy."""


@dataclass(frozen=True, slots=True)
class Append:
    """One append as :meth:`~.store.BattleStore.append_chained` prepared it."""

    battle_id: str
    position: int  # the position the writer expects, and the index of the new entry
    action: str  # the encoded documents (JSON text), as the store's JSON columns hold them
    result: str
    state: str | None  # the checkpoint
    shown: bool
    created: str
    sealed: bytes  # what the entry's link seals (chain.sealed_bytes)
    status: str | None  # None: keep the stored one
    turn: int | None
    revision: int | None  # the compare-and-set on the revision, when given
    previous: str | None  # the chain head read with that revision (None: read it here)


def open_appends(url: str, safe_url: str, busy_timeout_s: float = BUSY_TIMEOUT_S) -> SqliteAppends | None:
    """Appends on the store at ``url`` without SQLAlchemy, or ``None`` when only the store may write it.

    ``busy_timeout_s``: how long a writer waits for another one's lock (the store's own setting).
    """
    path = plain_path(url)
    if path is None or not os.path.isfile(path):
        return None
    appends = SqliteAppends(path, safe_url, busy_timeout_s)
    try:
        conn = appends.connect()
    except (sqlite3.Error, Fallback):
        return None
    try:
        if SqliteReads(conn, url).usable():
            appends.checkin(conn)
            return appends
    except sqlite3.Error:
        pass
    conn.close()
    return None


class SqliteAppends:
    """Appends on one SQLite file, on a few connections of the standard library (one per thread at a time)."""

    def __init__(self, path: str, safe_url: str, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self._path = path
        self._safe = safe_url
        self._timeout = busy_timeout_s
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def connect(self) -> sqlite3.Connection:
        """A new connection with the store's settings (:func:`.location._sqlite_on_connect`)."""
        conn = sqlite3.connect(f"file:{quote(self._path)}?mode=rw", uri=True, timeout=self._timeout,
                               isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            mode = conn.execute("PRAGMA journal_mode").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise Fallback("not in WAL mode")
            conn.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            conn.close()
            raise
        return conn

    def checkin(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(conn)
                return
        conn.close()

    def _checkout(self) -> sqlite3.Connection:
        with self._lock:
            if self._closed:
                raise Fallback("closed")
            if self._idle:
                return self._idle.pop()
        return self.connect()

    @contextmanager
    def borrowed(self) -> Iterator[sqlite3.Connection]:
        """A connection for a read outside any transaction (the store's reads, :mod:`.stdlib_paths`)."""
        conn = self._checkout()
        try:
            yield conn
        except BaseException:
            if _rolled_back(conn):
                self.checkin(conn)
            raise
        self.checkin(conn)

    def close(self) -> None:
        """Close every idle connection now, and each busy one when its append ends."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def append(self, a: Append) -> str:
        """Write ``a`` in one transaction and return the new chain head (or a typed refusal, nothing written)."""
        try:
            conn = self._checkout()
        except sqlite3.Error as exc:
            raise Fallback(str(exc)) from exc
        conn.set_trace_callback(trace)
        usable = True
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                head = self._write(conn, a)
                conn.execute("COMMIT")
            except BaseException:
                usable = _rolled_back(conn)
                raise
        except sqlite3.Error as exc:
            text = str(exc).strip() or type(exc).__name__
            if isinstance(exc, sqlite3.OperationalError) and "locked" in text.lower():
                raise StoreBusyError(
                    f"the database at {self._safe} is busy (another program holds a lock on it); nothing was "
                    f"changed — try again: {text[:300]}", url=self._safe) from exc
            raise Fallback(text) from exc
        finally:
            if usable:
                conn.set_trace_callback(None)
                self.checkin(conn)
        return head

    @staticmethod
    def _write(conn: sqlite3.Connection, a: Append) -> str:
        previous = a.previous
        if previous is None or a.revision is None:
            found = conn.execute(_HEAD, (a.battle_id,)).fetchone()
            if found is None:
                raise BattleNotFoundError(a.battle_id)
            previous = found[0]
        head = chain.link_bytes(previous, a.sealed)
        params = (a.position + 1, a.created, head, a.status, a.turn, a.battle_id, a.position, previous)
        moved = conn.execute(_MOVE if a.revision is None else _MOVE_AT,
                             params if a.revision is None else (*params, a.revision)).rowcount
        if moved != 1:
            found = conn.execute(_POSITION, (a.battle_id,)).fetchone()
            if found is None:
                raise BattleNotFoundError(a.battle_id)
            raise StaleStateError(a.battle_id, a.position, None if found[0] == a.position else found[0])
        try:
            conn.execute(_INSERT, (a.battle_id, a.position, a.action, a.result, int(a.shown), a.created, a.state,
                                   head))
        except sqlite3.IntegrityError as exc:  # the UNIQUE(battle_id, entry_index) guard
            raise StaleStateError(a.battle_id, a.position, None) from exc
        return head


def _rolled_back(conn: sqlite3.Connection) -> bool:
    """Roll back whatever is open; a connection that cannot is closed (its lock dies with it)."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        return True
    except BaseException:  # noqa: BLE001 - broken already: closing it releases the lock
        try:
            conn.close()
        except sqlite3.Error:
            pass
        return False
