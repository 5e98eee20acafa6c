"""The battle store's reads on the default SQLite file, through the standard library's ``sqlite3``.

Why: ``battle show`` only reads, yet importing SQLAlchemy alone took 2.8 times as long as
``python -c "import numpy"`` (issue 22: the goal for the whole command is 3 times). A SQLite file
that is already a rulekeeper store at the newest schema revision is read here with the very same
SQL the :class:`~.store.BattleStore` sends, and the same conversions of the column values (a seed
kept as decimal text, JSON columns, booleans as integers), so the records, entries and
checkpoints are equal to the store's.

What is *not* read here, on purpose, so that nothing can differ from the store:

* anything but a ``sqlite:///`` URL naming an existing file whose path needs no escaping in a URL
  (PostgreSQL, ``:memory:``, a query string, a name SQLAlchemy would spell differently);
* a file not in WAL mode (the store reads it without a pinned snapshot), or at another schema
  revision than :data:`~.migrate.HEAD` (the store upgrades or refuses it, which writes or
  explains): :func:`open_reads` answers ``None`` and the caller opens the store.

Past that, the caller treats *any* exception from these reads as a reason to read again through
the store (``cli/battle_cmds.py``): a damaged or hand-edited database then fails with the store's
own typed error and message, never with one of this module's.
"""

from __future__ import annotations

import builtins
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Self
from urllib.parse import quote

from rulekeeper.core.wording import counted

from .errors import BattleNotFoundError, DamagedStoreError, StoreError
from .jsontext import json_loads
from .records import BattleRecord, LogEntry, checked_entry, stored_object
from .urls import normalise_url

__all__ = ["SqliteReads", "open_reads"]

#: The schema revision these reads are written for (:data:`.migrate.HEAD`; a test checks they agree).
HEAD = "0006"
VERSION_TABLE = "rk_alembic_version"

#: Seconds a read waits on a lock (the store's busy timeout; a WAL reader almost never waits).
BUSY_TIMEOUT_S = 5.0

_RECORD = ("id, ruleset, scenario, seed, created, updated, position, status, turn, title, meta, revision, head "
           "FROM rk_battles")
_GET = f"SELECT {_RECORD} WHERE id = ?"
_LIST = f"SELECT {_RECORD} ORDER BY updated DESC, created DESC, id"
_INITIAL = "SELECT initial FROM rk_battles WHERE id = ?"
_POSITION = "SELECT position FROM rk_battles WHERE id = ?"
_NEAREST = ("SELECT b.position, c.entry_index, c.state FROM rk_battles AS b LEFT OUTER JOIN "
            "(SELECT entry_index, state FROM rk_log WHERE entry_index < ? AND state IS NOT NULL AND battle_id = ? "
            "ORDER BY entry_index DESC LIMIT 1) AS c ON 1 = 1 WHERE b.id = ?")
_ENTRIES = "SELECT entry_index, action, result, shown, created FROM rk_log WHERE battle_id = ? AND entry_index >= ?"


def _json(value: str | bytes | None) -> object:
    """A JSON column as SQLAlchemy's ``JSON(none_as_null=True)`` reads it."""
    return None if value is None else json_loads(value)


def _seed(value: object) -> int:
    """The seed column as :class:`~.schema.BigIntText` reads it (decimal text of any size)."""
    text = str(value).strip()
    if not (text.lstrip("-").isdigit() and len(text) <= 60):
        raise DamagedStoreError(f"the database holds a seed that is not a whole number: {text[:40]!r}")
    return int(text)


#: A row of :data:`_RECORD` as ``sqlite3`` gives it: the seed as decimal text, ``meta`` as JSON text.
RecordRow = tuple[str, str, str, object, str, str, int, str, int, str, str | None, int, str | None]


def _record(row: RecordRow) -> BattleRecord:
    (bid, ruleset, scenario, seed, created, updated, position, status, turn, title, meta, revision, head) = row
    return BattleRecord(id=bid, ruleset=ruleset, scenario=scenario, seed=_seed(seed), created=created,
                        updated=updated, position=position, status=status, turn=turn, title=title,
                        meta=stored_object(_json(meta), bid, "its meta"),
                        revision=revision, head=head)


def _check_int(name: str, value: object, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise StoreError(f"{name} must be an integer >= {minimum}, got {value!r}", field=name)
    return value


def plain_path(url: str) -> str | None:
    """The file a ``sqlite:///`` URL names, when SQLAlchemy would spell the URL and the path the same."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return None
    path = url[len(prefix):]
    if not path.startswith("/") or "%" in path or "?" in path or quote(path, safe=" +/") != path:
        return None
    return path


def open_reads(db: str | os.PathLike[str] | None) -> SqliteReads | None:
    """Reads of the store at ``db`` without SQLAlchemy, or ``None`` when only the store may open it."""
    url = normalise_url(db)
    path = plain_path(url)
    if path is None or not os.path.isfile(path):
        return None
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_S,
                               isolation_level=None, check_same_thread=True)
    except sqlite3.Error:
        return None
    reads = SqliteReads(conn, url)
    try:
        if reads.usable():
            return reads
    except sqlite3.Error:
        pass
    reads.close()
    return None


class SqliteReads:
    """The read methods of :class:`~.store.BattleStore` that ``battle show`` uses, on one connection."""

    kind = "battle store"

    def __init__(self, conn: sqlite3.Connection, url: str, *, within: bool = False) -> None:
        """``within``: ``conn`` is inside a read transaction already (the battle store's pinned snapshot)."""
        self._conn = conn
        self._url = url
        self._depth = 1 if within else 0

    @property
    def url(self) -> str:
        return self._url

    def usable(self) -> bool:
        """In WAL mode and at the schema revision these reads know (the store would read the file alone)."""
        mode = self._conn.execute("PRAGMA journal_mode").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            return False
        with self._transaction():
            found = self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
                                       (VERSION_TABLE,)).fetchone()
            if found is None:
                return False
            versions = [r[0] for r in self._conn.execute(f"SELECT version_num FROM {VERSION_TABLE}")]
        return versions == [HEAD]

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One read transaction, or the one :meth:`reading` holds (a WAL snapshot, as the store's)."""
        if self._depth:
            yield self._conn
            return
        self._conn.execute("BEGIN")
        try:
            yield self._conn
        finally:
            self._conn.execute("ROLLBACK")

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Every read inside the block from one snapshot (see :meth:`.sqlstore.SqlStore.reading`)."""
        with self._transaction():
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1

    def get(self, battle_id: str) -> BattleRecord:
        with self._transaction() as conn:
            row = conn.execute(_GET, (battle_id,)).fetchone()
        if row is None:
            raise BattleNotFoundError(battle_id)
        return _record(row)

    def list(self) -> list[BattleRecord]:
        with self._transaction() as conn:
            rows = conn.execute(_LIST).fetchall()
        return [_record(row) for row in rows]

    def initial(self, battle_id: str) -> dict[str, Any]:
        with self._transaction() as conn:
            row = conn.execute(_INITIAL, (battle_id,)).fetchone()
        if row is None:
            raise BattleNotFoundError(battle_id)
        return stored_object(_json(row[0]), battle_id, "its initial document")

    def nearest_checkpoint(self, battle_id: str, n: int) -> tuple[int, dict[str, Any]] | None:
        _check_int("n", n, 0)
        with self._transaction() as conn:
            row = conn.execute(_NEAREST, (n, battle_id, battle_id)).fetchone()
        if row is None:
            raise BattleNotFoundError(battle_id)
        position, index, state = row
        if n > position:
            raise StoreError(f"battle {battle_id!r} has no moment {n}: its log has "
                             f"{counted(position, 'entry', 'entries')}", battle_id=battle_id, n=n)
        return None if index is None else (index + 1, stored_object(_json(state), battle_id, f"the checkpoint after entry {index}"))

    def entries(self, battle_id: str, start: int = 0, stop: int | None = None) -> builtins.list[LogEntry]:
        _check_int("start", start, 0)
        query, params = _ENTRIES, [battle_id, start]
        if stop is not None:
            query, params = query + " AND entry_index < ?", [*params, _check_int("stop", stop, 0)]
        with self._transaction() as conn:
            found = conn.execute(_POSITION, (battle_id,)).fetchone()
            if found is None or found[0] is None:
                raise BattleNotFoundError(battle_id)
            rows = conn.execute(query + " ORDER BY entry_index", params).fetchall()
        return [checked_entry(index, _json(action), _json(result), bool(shown), created)  # shown: NOT NULL
                for index, action, result, shown, created in rows]
