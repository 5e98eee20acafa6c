"""What the stores give callers: a battle's record and its log entries, as plain frozen dataclasses.

Why a module of its own, without SQLAlchemy: they outlive the transaction, cannot lazily hit the
database and carry no SQLAlchemy into the engine or the CLI; and the read path of ``battle show``
on the default SQLite file (:mod:`.sqlite_reads`) builds the same objects without importing it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .errors import DamagedStoreError

__all__ = ["BattleRecord", "LogEntry", "checked_entry", "stored_object"]


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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class LogEntry:
    """One logged action; ``index`` is its 0-based position in the battle's log."""

    index: int
    action: dict[str, Any]
    result: dict[str, Any]
    shown: bool
    created: str


def checked_entry(fields: dict[str, Any]) -> LogEntry:
    """A log entry from its column values, refusing an action or result that is not a JSON object."""
    for name in ("action", "result"):
        if not isinstance(fields[name], dict):
            raise DamagedStoreError(
                f"log entry {fields['index']}: its {name} in the database is not a JSON object; it was changed "
                "outside rulekeeper — restore a backup or import the battle from an export",
                index=fields["index"],
            )
    return LogEntry(**fields)


def stored_object(value: Any, battle_id: str, what: str) -> dict[str, Any]:
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
