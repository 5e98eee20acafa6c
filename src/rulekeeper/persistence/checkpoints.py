"""Checkpoints of a battle's log: the game state after an entry, found in one index probe.

Split from :mod:`.store` (which keeps the battle rows and the log writes): loading any
moment of a battle reads the latest checkpoint at or before it and folds only the entries
after it, so a long evening's battle never replays from move one. The helpers here answer
"which entry, and how long is the log" in one statement, for :mod:`.store` as well.
"""

from __future__ import annotations

from typing import Any, TypeVarTuple

from sqlalchemy import BindParameter, Connection, Select, select, true, update

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.wording import counted

from .documents import check_int, encoded
from .errors import BattleNotFoundError, StaleStateError
from .records import stored_object
from .schema import BattleRow, LogRow
from .sqlstore import StoreError
from .stdlib_paths import Miss
from .transfer import BattleTransfers


def _no_entry(battle_id: str, index: int, position: int) -> StoreError:
    return StoreError(
        f"battle {battle_id!r} has no log entry {index} (its log has {counted(position, 'entry', 'entries')})",
        battle_id=battle_id,
        index=index,
    )


def _check_moment(battle_id: str, n: int, position: int) -> None:
    """Refuse a moment past the end of the log (the state there does not exist yet)."""
    if n > position:
        raise StoreError(
            f"battle {battle_id!r} has no moment {n}: its log has {counted(position, 'entry', 'entries')}",
            battle_id=battle_id, n=n,
        )


#: The columns a statement selects (the entry's, after which :func:`_with_position` puts the battle's position).
Columns = TypeVarTuple("Columns")


def _with_position(battle_id: str | BindParameter[str], entry: Select[*Columns]) -> Select[int, *Columns]:
    """The (at most one) log entry that ``entry`` selects, with the battle's position.

    One statement answers both "which entry" and "does the battle exist / how long is
    its log": the battle row (found by primary key) is outer-joined to the entry, so a
    battle without such an entry still yields one row, with NULL entry columns.  The
    entry is a subquery of its own, so its ``ORDER BY ... LIMIT 1`` runs as one probe
    of an index on SQLite and PostgreSQL alike (a plain join lets PostgreSQL sort every
    matching entry first).  ``battle_id``: the id, or a bound parameter standing for it.
    """
    found = entry.where(LogRow.battle_id == battle_id).subquery()
    return (
        select(BattleRow.position, *found.c)
        .select_from(BattleRow)
        .outerjoin(found, true())
        .where(BattleRow.id == battle_id)
    )


class BattleCheckpoints(BattleTransfers):
    """The small queries every log method shares, and the checkpoints of a battle's log."""

    # -- small queries used inside transactions ----------------------------------

    @staticmethod
    def _position(conn: Connection, battle_id: str) -> int:
        position = conn.execute(select(BattleRow.position).where(BattleRow.id == battle_id)).scalar()
        if position is None:
            raise BattleNotFoundError(battle_id)
        return position

    def _refusal(self, conn: Connection, battle_id: str, expected: int) -> RulekeeperError:
        """Why a conditional UPDATE matched no row: a missing battle, a stale position, or
        another write at the same position (a reveal, a log undone and played again)."""
        position = self._position(conn, battle_id)
        return StaleStateError(battle_id, expected, None if position == expected else position)

    def checkpoint(self, battle_id: str, n: int) -> dict[str, Any] | None:
        """The checkpoint after the first ``n`` entries (entry ``n - 1``'s), if it has one.

        ``None`` when ``n`` is 0 (the state then is the initial document) or when that
        entry was stored without a checkpoint; :class:`StoreError` when the log has
        fewer than ``n`` entries.
        """
        check_int("n", n, minimum=0)
        wanted = select(LogRow.state).where(LogRow.entry_index == n - 1)
        with self._transaction(write=False) as conn:
            row = conn.execute(_with_position(battle_id, wanted)).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        _check_moment(battle_id, n, row.position)
        return None if row.state is None else stored_object(row.state, battle_id, f"the checkpoint after entry {n - 1}")

    def nearest_checkpoint(self, battle_id: str, n: int) -> tuple[int, dict[str, Any]] | None:
        """The latest checkpoint at or before moment ``n``: ``(k, state after k entries)``.

        ``k`` is the largest ``1 <= k <= n`` whose entry ``k - 1`` has a checkpoint; the
        state at ``n`` is then ``state`` with entries ``k`` to ``n - 1`` folded over it
        (:meth:`entries` with ``start=k, stop=n``).  ``None`` when there is none: fold
        from the initial document.  One query, answered from the checkpoint index.
        """
        check_int("n", n, minimum=0)
        if not isinstance(fast := self._fast_read(lambda r: r.nearest_checkpoint(battle_id, n)), Miss):
            return fast
        latest = (
            select(LogRow.entry_index, LogRow.state)
            .where(LogRow.entry_index < n, LogRow.state.is_not(None))
            .order_by(LogRow.entry_index.desc())
            .limit(1)
        )
        with self._transaction(write=False) as conn:
            row = conn.execute(_with_position(battle_id, latest)).first()
        if row is None:
            raise BattleNotFoundError(battle_id)
        _check_moment(battle_id, n, row.position)
        if row.entry_index is None:
            return None
        return row.entry_index + 1, stored_object(row.state, battle_id, f"the checkpoint after entry {row.entry_index}")

    def set_checkpoint(self, battle_id: str, n: int, state: dict[str, Any]) -> None:
        """Store (or replace) the checkpoint after the first ``n`` entries, on entry ``n - 1``.

        For logs stored without checkpoints (an import, a database from before
        checkpoints): the caller folds the log once and keeps what it computed.  It
        changes no game fact, so neither ``revision`` nor ``updated`` moves and a cache
        stays valid.  ``state`` must come from the entries as they are now (e.g. a
        battle just imported): a log undone and played differently in between would
        get a checkpoint of the old line.  :class:`StoreError` if the log has fewer
        than ``n`` entries or ``n`` is 0 (the initial document is that state).
        """
        check_int("n", n, minimum=1)
        doc = encoded("state", state, made_by_game=True)
        with self._transaction(write=True) as conn:
            done = conn.execute(
                update(LogRow).where(LogRow.battle_id == battle_id, LogRow.entry_index == n - 1).values(state=doc)
            ).rowcount
            if done != 1:
                _check_moment(battle_id, n, self._position(conn, battle_id))
                raise _no_entry(battle_id, n - 1, self._position(conn, battle_id))
