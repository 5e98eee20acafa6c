"""What the stores give callers: a battle's record and its log entries, as plain frozen dataclasses.

Why a module of its own, without SQLAlchemy: they outlive the transaction, cannot lazily hit the
database and carry no SQLAlchemy into the engine or the CLI; and the read path of ``battle show``
on the default SQLite file (:mod:`.sqlite_reads`) builds the same objects without importing it.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass
from typing import Any, TypedDict

from .errors import DamagedStoreError

__all__ = ["BattleRecord", "BattleRecordDoc", "ExportedBattle", "LogEntry", "checked_entry", "stored_object"]


class ExportedBattle(TypedDict):
    """The ``battle`` part of an export (:mod:`.transfer`): a record's fields but its revision and chain head."""

    id: str
    ruleset: str
    scenario: str
    seed: int
    created: str
    updated: str
    position: int
    status: str
    turn: int
    title: str
    meta: dict[str, Any]


class BattleRecordDoc(ExportedBattle):
    """A :class:`BattleRecord` as JSON (``battle list --json``), field for field (the export's, then these)."""

    revision: int
    head: str | None


@dataclass(frozen=True)
class BattleRecord:
    """What the store knows about a battle, without its (possibly large) documents.

    ``revision`` changes with every write to the battle or its log (see
    :meth:`~.store.BattleStore.revision`); it is not part of an export.
    """

    id: str
    ruleset: str
    scenario: str
    seed: int
    created: str
    updated: str
    position: int
    status: str
    turn: int
    title: str
    meta: dict[str, Any]
    revision: int = 0
    head: str | None = None  # the last link of the log's hash chain (see .chain): its fingerprint

    def to_dict(self) -> BattleRecordDoc:
        """The record as JSON (``meta`` a copy of its own, as ``dataclasses.asdict`` made it)."""
        return {"id": self.id, "ruleset": self.ruleset, "scenario": self.scenario, "seed": self.seed,
                "created": self.created, "updated": self.updated, "position": self.position, "status": self.status,
                "turn": self.turn, "title": self.title, "meta": deepcopy(self.meta), "revision": self.revision,
                "head": self.head}


@dataclass(frozen=True)
class LogEntry:
    """One logged action; ``index`` is its 0-based position in the battle's log."""

    index: int
    action: dict[str, Any]
    result: dict[str, Any]
    shown: bool
    created: str


def checked_entry(index: int, action: object, result: object, shown: bool, created: str) -> LogEntry:
    """A log entry from its column values (in the order of the log's columns), refusing an action or result
    that is not a JSON object."""
    if not isinstance(action, dict):
        raise _not_an_object(index, "action")
    if not isinstance(result, dict):
        raise _not_an_object(index, "result")
    return LogEntry(index, action, result, shown, created)


def _not_an_object(index: int, name: str) -> DamagedStoreError:
    return DamagedStoreError(
        f"log entry {index}: its {name} in the database is not a JSON object; it was changed "
        "outside rulekeeper — restore a backup or import the battle from an export",
        index=index,
    )


def stored_object(value: object, battle_id: str, what: str) -> dict[str, Any]:
    """A document column read back (an initial document, a checkpoint): a JSON object, or a typed error.

    Why: ``dict()`` of a number or a string stored by hand raised a bare ``TypeError`` or ``ValueError``,
    a traceback instead of "damaged" naming the battle and the document.
    """
    if not isinstance(value, dict):
        raise DamagedStoreError(
            f"battle {battle_id!r}: {what} in the database is not a JSON object; it was changed outside "
            "rulekeeper — restore a backup or import the battle from an export",
            battle_id=battle_id,
        )
    return dict(value)
