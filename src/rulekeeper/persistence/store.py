"""A battle store: the initial document and the action log of each battle, kept safely.

Why it is built this way (the brief: "keep a battle safely across a long evening —
undo a misclick, resume tomorrow, replay afterwards"):

* **One transaction per action.**  ``append`` writes the log entry, the new position,
  status, turn and optional snapshot together or not at all, so killing the process
  mid-action leaves the battle at the last committed action, never half-written.
* **Optimistic check on the log position.**  Every writer says which position it
  believes the log is at; a conditional ``UPDATE ... WHERE position = :expected`` whose
  row count must be 1 refuses a stale writer (a second window, a second laptop) with
  :class:`StaleStateError` instead of silently forking the battle.  This works the
  same on SQLite and PostgreSQL; ``UNIQUE(battle_id, entry_index)`` is a second guard.
* **SQLite tuned for it.**  WAL journal (readers never block the writer; a crash
  leaves the last commit intact), foreign keys on, a 5 s busy timeout, and write
  transactions opened with ``BEGIN IMMEDIATE`` so two writers queue on the lock rather
  than one failing on an upgraded read lock.  Everything else is portable SQL, so a
  ``postgresql://`` URL works unchanged.  On a plain SQLite file the appends are sent
  through the standard library, same statements, same guarantees (:mod:`.stdlib_paths`).
* **Constant-time moments.**  An entry may carry a *checkpoint*, the game state after
  it; :meth:`BattleStore.nearest_checkpoint` finds the latest one at or before any
  moment in one index probe and :meth:`BattleStore.entries` reads just the slice
  after it, so loading any moment never replays the battle from move one.
* **A revision per battle.**  Every write to a battle or its log bumps
  ``revision`` in the same transaction; a cache compares it
  (:meth:`BattleStore.revision`, one primary-key read) to know it is current.
* **Upgraded on open.**  The tables are made and upgraded by the Alembic revisions
  in ``migrations/`` when any store opens the database (:mod:`.migrate`).
* **Ruleset-agnostic.**  The store keeps JSON documents and never interprets them;
  the engine decides what an action means and whether an undo is fair.
* **No leaking SQLAlchemy.**  Callers see :class:`StoreError`,
  :class:`StaleStateError` or :class:`BattleNotFoundError` (all
  :class:`~rulekeeper.core.errors.RulekeeperError`), never a driver exception.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypedDict

from sqlalchemy import ColumnElement, Connection, Integer, String, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from rulekeeper.core import ids

from . import chain
from .battle_reads import BattleReads
from .checkpoints import _no_entry
from .documents import check_int, check_json, check_text, encoded
from .errors import BattleNotFoundError, StaleStateError
from .schema import (
    ENTRY_COLUMNS,
    MAX_ID_LENGTH,
    BattleRecord,
    BattleRow,
    LogEntry,
    LogRow,
    checked_entry,
)
from .sqlite_writes import Append, Fallback
from .sqlstore import StoreError
from .transfer import BattleValues, insert_battle

__all__ = ["BattleNotFoundError", "BattleRecord", "BattleStore", "LogEntry", "StaleStateError", "StoreError"]

# ------------------------------------------------------------------------- helpers


def _now() -> str:
    """Current UTC time, ISO-8601 with microseconds (sorts chronologically as text)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


_BUMP = BattleRow.revision + 1


class Touched(TypedDict):
    """The battle-row changes of every write."""

    updated: str
    revision: ColumnElement[int]


class Moved(Touched, total=False):
    """The battle-row changes of an append or undo (a status, turn, snapshot or head left out: unchanged)."""

    position: int
    status: str
    turn: int
    snapshot: dict[str, Any]
    snapshot_position: int
    head: str


def _touched() -> Touched:
    """The battle-row changes of every write: ``updated`` and the bumped ``revision``."""
    return {"updated": _now(), "revision": _BUMP}


#: An append's battle-row move, built once (an append per action: building statements was
#: most of its cost). A status or turn left out (NULL) keeps the stored one.
_MOVE = (
    update(BattleRow)
    .where(
        BattleRow.id == bindparam("b_id"), BattleRow.position == bindparam("b_expected"),
        func.coalesce(BattleRow.head, "") == bindparam("b_previous"),
    )
    .values(
        position=bindparam("b_position"), updated=bindparam("b_updated"), revision=BattleRow.revision + 1,
        head=bindparam("b_head"),
        status=func.coalesce(bindparam("b_status", type_=String), BattleRow.status),
        turn=func.coalesce(bindparam("b_turn", type_=Integer), BattleRow.turn),
    )
)
#: The same move, also refused unless the battle is still at the revision the action was computed at.
_MOVE_AT = _MOVE.where(BattleRow.revision == bindparam("b_revision"))
_INSERT_ENTRY = insert(LogRow)


def _moves_to(position: int, status: str | None, turn: int | None, snapshot: dict[str, Any] | None) -> Moved:
    """The battle-row changes of an append or undo landing at ``position``."""
    values: Moved = {"position": position, "updated": _now(), "revision": _BUMP}
    if status is not None:
        values["status"] = check_text("status", status)
    if turn is not None:
        values["turn"] = check_int("turn", turn)
    if snapshot is not None:
        values["snapshot"] = check_json("snapshot", snapshot)
        values["snapshot_position"] = position  # a snapshot always describes the new position
    return values


def _link_before(conn: Connection, battle_id: str, index: int) -> str:
    """The chain link entry ``index`` follows: entry ``index - 1``'s, or the battle's genesis."""
    if index == 0:
        found = conn.execute(select(BattleRow.genesis).where(BattleRow.id == battle_id)).scalar()
    else:
        found = conn.execute(
            select(LogRow.chain).where(LogRow.battle_id == battle_id, LogRow.entry_index == index - 1)
        ).scalar()
    return found or ""  # a battle left unsealed by its migration (damaged seed) chains from nothing


# --------------------------------------------------------------------------- store


class BattleStore(BattleReads):
    """Battles in a SQL database (SQLite file by default, PostgreSQL by URL).

    Every public method is one transaction.  A store may be shared by threads; several
    stores (threads or processes) may use the same database at once, the optimistic
    position check keeping their writes consistent.
    """

    kind = "battle store"
    # -- battles -----------------------------------------------------------------

    def create(
        self,
        *,
        ruleset: str,
        scenario: str,
        seed: int,
        initial: dict[str, Any],
        title: str = "",
        meta: dict[str, Any] | None = None,
        battle_id: str | None = None,
    ) -> str:
        """Store a new battle (status ``active``, empty log) and return its id."""
        bid = ids.new_id("b") if battle_id is None else check_text("battle_id", battle_id, max_length=MAX_ID_LENGTH)
        now = _now()
        values: BattleValues = {
            "id": bid,
            "ruleset": check_text("ruleset", ruleset),
            "scenario": check_text("scenario", scenario, empty=True),
            "seed": check_int("seed", seed),
            "title": check_text("title", title, empty=True),
            "meta": check_json("meta", {} if meta is None else meta),
            "initial": check_json("initial", initial),
            "position": 0,
            "status": "active",
            "turn": 0,
            "created": now,
            "updated": now,
            "genesis": "",
            "head": "",
        }
        values["genesis"] = values["head"] = chain.genesis(values, initial)  # (it reads the record's fields only)
        with self._transaction(write=True) as conn:
            insert_battle(conn, values)
        return bid

    def set_status(self, battle_id: str, status: str, turn: int | None = None) -> None:
        """Change the status (``active``, ``finished``...) and optionally the turn."""
        values: Moved = {"status": check_text("status", status), "updated": _now(), "revision": _BUMP}
        if turn is not None:
            values["turn"] = check_int("turn", turn)
        with self._transaction(write=True) as conn:
            done = conn.execute(update(BattleRow).where(BattleRow.id == battle_id).values(**values)).rowcount
            if done != 1:
                raise BattleNotFoundError(battle_id)

    def delete(self, battle_id: str) -> None:
        """Remove a battle and its log (explicitly, not only by FK cascade)."""
        with self._transaction(write=True) as conn:
            conn.execute(delete(LogRow).where(LogRow.battle_id == battle_id))
            if conn.execute(delete(BattleRow).where(BattleRow.id == battle_id)).rowcount != 1:
                raise BattleNotFoundError(battle_id)

    # -- the log -----------------------------------------------------------------

    def append(
        self,
        battle_id: str,
        expected_position: int,
        action: dict[str, Any],
        result: dict[str, Any],
        *,
        status: str | None = None,
        turn: int | None = None,
        snapshot: dict[str, Any] | None = None,
        checkpoint: dict[str, Any] | None = None,
        shown: bool = False,
        expected_revision: int | None = None,
        expected_head: str | None = None,
    ) -> int:
        """Log one action at ``expected_position`` and return the new position.

        All in one transaction: the conditional UPDATE moves the position only if it
        still equals ``expected_position`` (else :class:`StaleStateError`, nothing
        written) and bumps the revision; the entry is inserted at that index with its
        optional ``checkpoint`` (the game state after it) and its link in the hash chain
        (:mod:`.chain`); status, turn, ``updated``, the chain's head and the optional
        snapshot (belonging to the new position) change with it.  ``shown``: the result
        is revealed at once (one write instead of an append and a :meth:`mark_shown`).
        ``expected_revision``: also refused (stale) unless the battle is still at that
        revision — the compare-and-set of a write computed from one snapshot.
        ``expected_head``: the chain head read with that revision (``BattleRecord.head``, ``""`` for none),
        which saves reading it again; the move still checks it (:meth:`append_chained` returns the new one).
        """
        return self.append_chained(battle_id, expected_position, action, result, status=status, turn=turn,
                                   snapshot=snapshot, checkpoint=checkpoint, shown=shown,
                                   expected_revision=expected_revision, expected_head=expected_head)[0]

    def append_chained(
        self,
        battle_id: str,
        expected_position: int,
        action: dict[str, Any],
        result: dict[str, Any],
        *,
        status: str | None = None,
        turn: int | None = None,
        snapshot: dict[str, Any] | None = None,
        checkpoint: dict[str, Any] | None = None,
        shown: bool = False,
        expected_revision: int | None = None,
        expected_head: str | None = None,
    ) -> tuple[int, str]:
        """:meth:`append`, returning the new position and the new chain head (a writer that carries its
        revision from one append to the next, autoplay, carries the head too: one statement less each)."""
        check_int("expected_position", expected_position, minimum=0)
        # the result, like the checkpoint, is made by the game's code on every action: encoded once,
        # strictly (NaN and objects refused); replay compares it as JSON text with a fresh one
        action_text, result_text = encoded("action", action), encoded("result", result, made_by_game=True)
        state = None if checkpoint is None else encoded("checkpoint", checkpoint, made_by_game=True)
        now = _now()
        sealed = chain.sealed_bytes(action, result, now, shown)  # hashed outside the lock but for the last step
        if status is not None:
            check_text("status", status)
        if turn is not None:
            check_int("turn", turn)
        fast = self._fast_appends() if snapshot is None else None
        if fast is not None:
            try:
                return expected_position + 1, fast.append(Append(
                    battle_id, expected_position, action_text.text, result_text.text, None if state is None else
                    state.text, shown, now, sealed, status, turn, expected_revision, expected_head))
            except Fallback:  # nothing written: the store's own statements, and their own errors
                self._stop_fast_appends()
        with self._transaction(write=True) as conn:
            previous = expected_head if expected_revision is not None and expected_head is not None else \
                conn.execute(select(func.coalesce(BattleRow.head, "")).where(BattleRow.id == battle_id)).scalar()
            if previous is None:
                raise BattleNotFoundError(battle_id)
            head = chain.link_bytes(previous, sealed)
            self._advance(conn, battle_id, expected_position, (previous, head), now, (status, turn, snapshot),
                          expected_revision)
            try:
                conn.execute(_INSERT_ENTRY, {
                    "battle_id": battle_id, "entry_index": expected_position, "action": action_text,
                    "result": result_text, "shown": shown, "created": now, "state": state, "chain": head,
                })
            except IntegrityError as exc:  # the UNIQUE(battle_id, entry_index) guard
                raise StaleStateError(battle_id, expected_position, None) from exc
        return expected_position + 1, head

    def _advance(
        self,
        conn: Connection,
        battle_id: str,
        expected_position: int,
        links: tuple[str, str],
        now: str,
        changes: tuple[str | None, int | None, dict[str, Any] | None],
        expected_revision: int | None,
    ) -> None:
        """Move the battle row one entry on, if it is still at ``expected_position`` (and
        ``expected_revision``) and its chain head is still ``links[0]`` (else a typed
        refusal); ``links[1]`` is the new head; ``changes``: status, turn and snapshot."""
        previous, head = links
        status, turn, snapshot = changes
        if snapshot is None:
            moved = conn.execute(_MOVE if expected_revision is None else _MOVE_AT, {
                "b_id": battle_id, "b_expected": expected_position, "b_position": expected_position + 1,
                "b_updated": now, "b_status": status, "b_turn": turn, "b_head": head, "b_previous": previous,
                **({} if expected_revision is None else {"b_revision": expected_revision}),
            }).rowcount
        else:
            values = {**_moves_to(expected_position + 1, status, turn, snapshot), "updated": now, "head": head}
            query = update(BattleRow).where(BattleRow.id == battle_id, BattleRow.position == expected_position,
                                            func.coalesce(BattleRow.head, "") == previous)
            if expected_revision is not None:
                query = query.where(BattleRow.revision == expected_revision)
            moved = conn.execute(query.values(**values)).rowcount
        if moved != 1:
            raise self._refusal(conn, battle_id, expected_position)

    def mark_shown(self, battle_id: str, index: int, *, expected_revision: int | None = None) -> int:
        """Record that the result of entry ``index`` has been revealed to the players; the new revision.

        The flag is sealed in the entry's link, so the links from ``index`` on are
        computed again (in practice only the last entry's: results are revealed in order).
        ``expected_revision``: refused (stale, nothing written) unless the battle is
        still at that revision — so a reveal and an undo sent together serialise: the
        one that commits second finds the revision moved and fails.  The battle row is
        moved first, which on PostgreSQL also locks it for the rest of the transaction.
        """
        check_int("index", index, minimum=0)
        with self._transaction(write=True) as conn:
            bump = update(BattleRow).where(BattleRow.id == battle_id)
            if expected_revision is not None:
                bump = bump.where(BattleRow.revision == expected_revision)
            if conn.execute(bump.values(**_touched())).rowcount != 1:
                position = self._position(conn, battle_id)
                raise StaleStateError(battle_id, index + 1, None if position == index + 1 else position)
            rows = conn.execute(
                select(LogRow.id, LogRow.entry_index, LogRow.action, LogRow.result, LogRow.created, LogRow.shown)
                .where(LogRow.battle_id == battle_id, LogRow.entry_index >= index)
                .order_by(LogRow.entry_index)
            ).all()
            if not rows or rows[0].entry_index != index:
                raise _no_entry(battle_id, index, self._position(conn, battle_id))
            previous = _link_before(conn, battle_id, index)
            for row in rows:
                previous = chain.link(previous, row.action, row.result, row.created, row.shown or row.id == rows[0].id)
                conn.execute(update(LogRow).where(LogRow.id == row.id).values(
                    chain=previous, shown=row.shown or row.id == rows[0].id))
            conn.execute(update(BattleRow).where(BattleRow.id == battle_id).values(head=previous))
            revision = conn.execute(select(BattleRow.revision).where(BattleRow.id == battle_id)).scalar()
        return int(revision or 0)

    def pop_last(
        self,
        battle_id: str,
        expected_position: int,
        *,
        status: str | None = None,
        turn: int | None = None,
        snapshot: dict[str, Any] | None = None,
        expected_revision: int | None = None,
    ) -> LogEntry:
        """Undo: delete the last entry (same optimistic check as append) and return it.

        The entry's checkpoint goes with it, and the chain's head goes back to the
        link before it.  A snapshot that belonged to the removed position is dropped
        unless a new one is given.  Whether an undo is *fair* (e.g. a result already
        shown) is the caller's decision, not the store's; ``expected_revision`` makes the
        caller's decision stick: refused (stale) if anything — a reveal above all — was
        written since the caller read the battle at that revision.
        """
        check_int("expected_position", expected_position, minimum=0)
        new_position = expected_position - 1
        values = _moves_to(new_position, status, turn, snapshot)
        with self._transaction(write=True) as conn:
            current = self._position(conn, battle_id)
            if current != expected_position:
                raise StaleStateError(battle_id, expected_position, current)
            if expected_position == 0:
                raise StoreError(f"nothing to undo: battle {battle_id!r} has no actions", battle_id=battle_id)
            values["head"] = _link_before(conn, battle_id, new_position)
            undo = update(BattleRow).where(BattleRow.id == battle_id, BattleRow.position == expected_position)
            if expected_revision is not None:
                undo = undo.where(BattleRow.revision == expected_revision)
            if conn.execute(undo.values(**values)).rowcount != 1:
                raise self._refusal(conn, battle_id, expected_position)
            if snapshot is None:
                conn.execute(
                    update(BattleRow)
                    .where(BattleRow.id == battle_id, BattleRow.snapshot_position > new_position)
                    .values(snapshot=None, snapshot_position=None)
                )
            row = conn.execute(
                select(LogRow.id, *ENTRY_COLUMNS).where(
                    LogRow.battle_id == battle_id, LogRow.entry_index == new_position
                )
            ).first()
            if row is None:
                raise StoreError(
                    f"the log of battle {battle_id!r} is damaged: entry {new_position} is missing",
                    battle_id=battle_id,
                )
            conn.execute(delete(LogRow).where(LogRow.id == row.id))
        return checked_entry(*row[1:])  # the entry's columns after its row id
