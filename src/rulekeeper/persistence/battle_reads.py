"""The battle store's reads: a battle's record, its log, its initial document and snapshot.

Split from :mod:`.store` (which keeps the writes: creating a battle, appending to its log, undoing,
revealing): every read here is one read transaction, or one statement inside the snapshot of
:meth:`~.sqlstore.SqlStore.reading`, and the hottest ones (a page, an act, a woken live stream) send
statements built once with bound parameters. On a plain SQLite file, the reads that ``battle show``
uses go through the standard library (:mod:`.stdlib_paths`), with the same SQL and the same results.
"""

from __future__ import annotations

import builtins
from collections.abc import Collection
from typing import Any

from sqlalchemy import bindparam, select

from .checkpoints import BattleCheckpoints, _no_entry, _with_position
from .documents import check_int
from .errors import BattleNotFoundError
from .records import stored_object
from .schema import (
    ENTRY_COLUMNS,
    RECORD_COLUMNS,
    BattleRecord,
    BattleRow,
    LogEntry,
    LogRow,
    checked_entry,
    entry_from_row,
    record_from_row,
)
from .sqlstore import is_text
from .stdlib_paths import Miss

#: A battle's record beside its last log entry (outer join on the entry's primary key: one probe).
_LAST_NAMES = ("index", "action", "result", "shown", "created")
_RECORD_WIDTH = len(RECORD_COLUMNS)
_WITH_LAST = (
    select(*RECORD_COLUMNS, *(c.label(f"last_{name}") for name, c in zip(_LAST_NAMES, ENTRY_COLUMNS, strict=True)))
    .select_from(BattleRow)
    .outerjoin(LogRow, (LogRow.battle_id == BattleRow.id) & (LogRow.entry_index == BattleRow.position - 1))
)

# The hottest reads (every page, every act, every woken live stream), built once with bound parameters.
# Why: building ``select(...).where(...)`` per call, its cache key, and SQLAlchemy adapting the cached
# compiled form to each new statement object cost about as much CPU as the rest of a version check;
# the same statement object each time skips all three (issue 23, the convention-hall bench).
_GET = select(*RECORD_COLUMNS).where(BattleRow.id == bindparam("bid"))
_GET_WITH_LAST = _WITH_LAST.where(BattleRow.id == bindparam("bid"))
_ENTRY = _with_position(bindparam("bid"), select(*ENTRY_COLUMNS).where(LogRow.entry_index == bindparam("index")))


class BattleReads(BattleCheckpoints):
    """What :class:`~.store.BattleStore` reads (it inherits these methods)."""

    # -- battles -----------------------------------------------------------------

    def get(self, battle_id: str) -> BattleRecord:
        """The battle's record; :class:`BattleNotFoundError` if there is none."""
        if not is_text(battle_id):
            raise BattleNotFoundError(battle_id)
        if not isinstance(fast := self._fast_read(lambda r: r.get(battle_id)), Miss):
            return fast
        with self._transaction(write=False) as conn:
            row = conn.execute(_GET, {"bid": battle_id}).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        return record_from_row(row)

    def get_with_last(self, battle_id: str) -> tuple[BattleRecord, LogEntry | None]:
        """The battle's record and its last log entry (None before the first action), in one statement: an act
        checks both (whose turn, and whether the last results are still face down)."""
        if not is_text(battle_id):
            raise BattleNotFoundError(battle_id)
        with self._transaction(write=False) as conn:
            row = conn.execute(_GET_WITH_LAST, {"bid": battle_id}).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        record, last = row[:_RECORD_WIDTH], row[_RECORD_WIDTH:]
        return record_from_row(record), None if last[0] is None else checked_entry(*last)

    def initial(self, battle_id: str) -> dict[str, Any]:
        """The battle's initial document, as given to :meth:`create`."""
        if not isinstance(fast := self._fast_read(lambda r: r.initial(battle_id)), Miss):
            return fast
        with self._transaction(write=False) as conn:
            row = conn.execute(select(BattleRow.initial).where(BattleRow.id == battle_id)).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        return stored_object(row[0], battle_id, "its initial document")

    def list(self) -> builtins.list[BattleRecord]:
        """Every battle, most recently updated first."""
        with self._transaction(write=False) as conn:
            rows = conn.execute(
                select(*RECORD_COLUMNS).order_by(BattleRow.updated.desc(), BattleRow.created.desc(), BattleRow.id)
            ).all()
        return [record_from_row(row) for row in rows]

    def revision(self, battle_id: str) -> int:
        """The battle's revision: it changes with every write to the battle or its log.

        A cache that remembers the revision it was built at is current while this
        returns the same number (one primary-key read).  It counts from 0 for each
        battle row, so a cache must forget a battle that is deleted (an id deleted
        and imported again starts over at 0).
        """
        with self._transaction(write=False) as conn:
            found = conn.execute(select(BattleRow.revision).where(BattleRow.id == battle_id)).scalar()
        if found is None:
            raise BattleNotFoundError(battle_id)
        return int(found)

    def revisions(self, battle_ids: Collection[str]) -> dict[str, int]:
        """The revisions of several battles in one read (a battle that is gone is left out).

        Why: a keeper process checks every battle with a live stream with this one query
        (``web/watch.py``), instead of one read per stream.
        """
        if not battle_ids:
            return {}
        with self._transaction(write=False) as conn:
            rows = conn.execute(select(BattleRow.id, BattleRow.revision).where(BattleRow.id.in_(list(battle_ids))))
            return {str(r.id): int(r.revision) for r in rows}

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``: what the database can do (announce changes, or not)."""
        return self._engine.dialect.name if self._engine is not None else ""

    # -- the log -----------------------------------------------------------------

    def entries(self, battle_id: str, start: int = 0, stop: int | None = None) -> builtins.list[LogEntry]:
        """Log entries ``start`` (included) to ``stop`` (excluded; ``None``: the end), in order.

        Like a slice: a ``stop`` past the end gives the entries up to the end, and one
        at or below ``start`` gives none.  Reading a slice is what keeps loading a
        moment cheap: the entries after its nearest checkpoint, not the whole log.
        """
        check_int("start", start, minimum=0)
        if not isinstance(fast := self._fast_read(lambda r: r.entries(battle_id, start, stop)), Miss):
            return fast
        query = select(*ENTRY_COLUMNS).where(LogRow.battle_id == battle_id, LogRow.entry_index >= start)
        if stop is not None:
            query = query.where(LogRow.entry_index < check_int("stop", stop, minimum=0))
        with self._transaction(write=False) as conn:
            self._position(conn, battle_id)
            rows = conn.execute(query.order_by(LogRow.entry_index)).all()
        return [entry_from_row(row) for row in rows]

    def entry(self, battle_id: str, index: int) -> LogEntry:
        """Log entry ``index``; :class:`StoreError` if the log has no such entry."""
        check_int("index", index, minimum=0)
        with self._transaction(write=False) as conn:
            row = conn.execute(_ENTRY, {"bid": battle_id, "index": index}).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        position, *entry = row
        if entry[0] is None:
            raise _no_entry(battle_id, index, position)
        return checked_entry(*entry)

    def snapshot(self, battle_id: str) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot and the log position it belongs to, if any."""
        with self._transaction(write=False) as conn:
            row = conn.execute(
                select(BattleRow.snapshot_position, BattleRow.snapshot).where(BattleRow.id == battle_id)
            ).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        position, doc = row
        if position is None or doc is None:
            return None
        return position, doc
