"""The shapes of stored battles: the tables (SQLAlchemy 2 typed ORM) and the export document.

Why these shapes:

* A battle is an *initial document* plus an *append-only log* of (action, result)
  pairs.  Replaying the log over the initial document rebuilds any moment of the
  battle, which is what makes undo, resume-tomorrow and replay-afterwards cheap and
  trustworthy.  The store never interprets the documents; it keeps JSON.
* ``BattleRow.position`` is the number of log entries.  Every write checks it
  (optimistic concurrency), and ``UNIQUE(battle_id, entry_index)`` is a second,
  independent guard: even a writer that somehow skipped the position check cannot
  create two entries at the same index.
* A log entry may carry a *checkpoint* (``LogRow.state``): the derived state after
  that entry, so any moment of a battle loads from the nearest checkpoint in
  constant time instead of a replay from move one.  Checkpoints are caches that the
  log can always rebuild, so they are never exported, and ``LogEntry`` does not carry
  them (entries stay light; the store reads checkpoints on their own).
* ``BattleRow.revision`` counts the writes to a battle and its log, so an in-memory
  cache tells it is current with one cheap read.
* The battle row's *snapshot* (state at ``snapshot_position``) is the older, single
  cache of the same kind; it stays for the code paths that still use it.
* Seeds are stored as decimal text: a seed may exceed the signed 64-bit range of
  ``BIGINT`` (PCG64 accepts 128-bit seeds) and must come back bit for bit.
* Times are ISO-8601 UTC strings, which sort chronologically as text on every
  backend and need no timezone support from the database.
* Only portable column types are used (``String``, ``Text``, ``Integer``,
  ``Boolean``, ``JSON``) so the same schema serves SQLite and PostgreSQL.  Tables are
  prefixed ``rk_`` so a PostgreSQL database shared with other software stays tidy.
* The tables are *created* by the Alembic revisions in ``migrations/`` (see
  :mod:`.migrate`), never by ``create_all``; the classes below describe the head
  revision, and a test checks that the two agree.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy import (
    JSON,
    Boolean,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Row
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from rulekeeper.core.wording import counted

from .errors import DamagedStoreError
from .records import BattleRecord, LogEntry, checked_entry, stored_object

__all__ = ["BattleRecord", "LogEntry", "checked_entry"]  # re-exported: their home is .records (no SQLAlchemy)

#: ``rk_meta.schema_version`` at the head revision.  Since migrations, the Alembic
#: revision is what a store checks; this marker only keeps rulekeepers from before
#: migrations (which refused a version above 1) off a database they would mishandle.
SCHEMA_VERSION = 3

#: Longest battle id the store accepts (PostgreSQL enforces ``VARCHAR`` lengths).
MAX_ID_LENGTH = 100


class BigIntText(TypeDecorator[int]):
    """An arbitrary-size Python ``int`` kept as decimal text (see module docstring)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: object, dialect: Dialect) -> int | None:
        if value is None:
            return None
        text = str(value).strip()
        if not (text.lstrip("-").isdigit() and len(text) <= 60):  # a PCG64 seed has at most 39 digits
            raise DamagedStoreError(f"the database holds a seed that is not a whole number: {text[:40]!r}")
        return int(text)


def _json() -> JSON:
    """A JSON column in which Python ``None`` is SQL ``NULL`` (not the JSON ``null``)."""
    return JSON(none_as_null=True)


class Base(DeclarativeBase):
    """Declarative base of the store's own tables (kept apart from any other metadata)."""


class MetaRow(Base):
    """Key/value facts about the database itself, such as the schema version."""

    __tablename__ = "rk_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class BattleRow(Base):
    """One battle: its identity, its initial document and where its log stands."""

    __tablename__ = "rk_battles"
    __table_args__ = (Index("ix_rk_battles_updated", "updated"),)

    id: Mapped[str] = mapped_column(String(MAX_ID_LENGTH), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(200))
    scenario: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigIntText)
    created: Mapped[str] = mapped_column(String(40))
    updated: Mapped[str] = mapped_column(String(40))
    position: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(64))
    turn: Mapped[int] = mapped_column(Integer, default=0)
    title: Mapped[str] = mapped_column(Text, default="")
    meta: Mapped[dict[str, Any]] = mapped_column(_json())
    initial: Mapped[dict[str, Any]] = mapped_column(_json(), deferred=True)
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(_json(), nullable=True, deferred=True)
    snapshot_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    genesis: Mapped[str | None] = mapped_column(String(64), nullable=True)
    head: Mapped[str | None] = mapped_column(String(64), nullable=True)


class LogRow(Base):
    """One entry of a battle's log: the action asked for and the result it produced.

    ``shown`` records that the result has been revealed to the players (a fate screen
    turned over); the engine uses it to decide whether undoing the entry is fair.
    ``state`` is the optional checkpoint: the game state after this entry.
    """

    __tablename__ = "rk_log"
    # The unique constraint's index also serves every "log of battle X" query; the
    # partial index holds only the entries with a checkpoint (nearest_checkpoint).
    __table_args__ = (
        UniqueConstraint("battle_id", "entry_index", name="uq_rk_log_battle_index"),
        Index(
            "ix_rk_log_checkpoints",
            "battle_id",
            "entry_index",
            sqlite_where=text("state IS NOT NULL"),
            postgresql_where=text("state IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[str] = mapped_column(String(MAX_ID_LENGTH), ForeignKey("rk_battles.id", ondelete="CASCADE"))
    entry_index: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(_json())
    result: Mapped[dict[str, Any]] = mapped_column(_json())
    shown: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[str] = mapped_column(String(40))
    state: Mapped[dict[str, Any] | None] = mapped_column(_json(), nullable=True, deferred=True)
    chain: Mapped[str | None] = mapped_column(String(64), nullable=True)


class DiceRow(Base):
    """The verifiable dice of a battle (see :mod:`rulekeeper.service.dice`).

    ``secret`` is the server's 32 random bytes (hex), never shown before the battle is over;
    ``commitment`` its SHA-256, shown to everyone from the start; ``roles`` the sides in the
    order their contributions are hashed; ``contributions`` each side's 32 bytes (hex) by role;
    ``commitments`` the SHA-256 commitment each side gave before any contribution was revealed
    (NULL in rows made before migration 0005).
    ``secret`` is NULL in a copy imported from an export made before the end.
    """

    __tablename__ = "rk_dice"

    battle_id: Mapped[str] = mapped_column(
        String(MAX_ID_LENGTH), ForeignKey("rk_battles.id", ondelete="CASCADE"), primary_key=True)
    commitment: Mapped[str] = mapped_column(String(64))
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    roles: Mapped[list[str]] = mapped_column(_json())
    contributions: Mapped[dict[str, str]] = mapped_column(_json())
    created: Mapped[str] = mapped_column(String(40))
    commitments: Mapped[dict[str, str] | None] = mapped_column(_json(), nullable=True)


# ------------------------------------------------------------------ what callers get
#
# BattleRecord and LogEntry (in .records): plain frozen dataclasses rather than ORM objects.


RECORD_COLUMNS = (
    BattleRow.id,
    BattleRow.ruleset,
    BattleRow.scenario,
    BattleRow.seed,
    BattleRow.created,
    BattleRow.updated,
    BattleRow.position,
    BattleRow.status,
    BattleRow.turn,
    BattleRow.title,
    BattleRow.meta,
    BattleRow.revision,
    BattleRow.head,
)
ENTRY_COLUMNS = (
    LogRow.entry_index.label("index"),
    LogRow.action,
    LogRow.result,
    LogRow.shown,
    LogRow.created,
)


#: The values of :data:`RECORD_COLUMNS`, in their order (``meta``: the JSON column, checked when read).
RecordValues = tuple[str, str, str, int, str, str, int, str, int, str, object, int, str | None]


def record_from_row(values: RecordValues) -> BattleRecord:
    """A battle's record from the values of :data:`RECORD_COLUMNS` (a row of them), its meta a JSON object."""
    bid, ruleset, scenario, seed, created, updated, position, status, turn, title, meta, revision, head = values
    return BattleRecord(bid, ruleset, scenario, seed, created, updated, position, status, turn, title,
                        stored_object(meta, bid, "its meta"), revision, head)


def entry_from_row(row: Row[int, object, object, bool, str]) -> LogEntry:
    """A log entry from a row of :data:`ENTRY_COLUMNS` (in their order; the action and result are checked)."""
    return checked_entry(*row)


# ------------------------------------------------------------- the export document
#
# Why pydantic here: an exported battle is a file a player may have edited, copied
# from a forum or truncated; importing it must say *which* field is wrong
# ("log.3.shown: Input should be a valid boolean") rather than fail deep in SQL.
# Strict mode: "42" is not a seed and "yes" is not a boolean.

EXPORT_FORMAT = "rulekeeper-battle"
#: Version 2 carries the hash chain (``chain`` and each entry's link); version 1 files,
#: from before the chain, are still read (and sealed as they are on import).
EXPORT_VERSION = 2

_HEX64 = r"^[0-9a-f]{64}$"


def _iso_time(value: str) -> str:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not an ISO-8601 time: {value!r}") from None
    return value


class BattleDoc(BaseModel):
    """The ``battle`` part of an export: the record fields of :class:`BattleRow`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(min_length=1, max_length=MAX_ID_LENGTH)
    ruleset: str = Field(min_length=1)
    scenario: str
    seed: int
    created: str
    updated: str
    position: int = Field(ge=0)
    status: str = Field(min_length=1)
    turn: int
    title: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("created", "updated")
    @classmethod
    def _times(cls, value: str) -> str:
        return _iso_time(value)


class EntryDoc(BaseModel):
    """One exported log entry (``created`` is optional: older or hand-made files)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: dict[str, Any]
    result: dict[str, Any]
    shown: bool = False
    created: str | None = None
    chain: str | None = Field(default=None, pattern=_HEX64)

    @field_validator("created")
    @classmethod
    def _time(cls, value: str | None) -> str | None:
        return None if value is None else _iso_time(value)


class ChainDoc(BaseModel):
    """The seals of an exported battle (see :mod:`.chain`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    genesis: str = Field(pattern=_HEX64)
    head: str = Field(pattern=_HEX64)


class DiceDoc(BaseModel):
    """The verifiable dice of an exported battle: ``secret`` only once the battle is over and revealed."""

    model_config = ConfigDict(extra="forbid", strict=True)

    commitment: str = Field(pattern=_HEX64)
    roles: list[str] = Field(min_length=1, max_length=20)
    contributions: dict[str, str] = Field(max_length=20)
    secret: str | None = Field(default=None, pattern=_HEX64)
    #: each side's commitment to its contribution (scheme ``rulekeeper-dice/2``; absent in older exports)
    commitments: dict[str, str] | None = Field(default=None, max_length=20)

    @field_validator("contributions", "commitments")
    @classmethod
    def _hex(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for role, given in (value or {}).items():
            if len(given) != 64 or any(c not in "0123456789abcdef" for c in given):
                raise ValueError(f"side {role[:20]!r}: a contribution or commitment is 32 bytes in lower-case hex")
        return value


class ExportDoc(BaseModel):
    """A whole exported battle (format ``rulekeeper-battle``, version 2; version 1 has no chain)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["rulekeeper-battle"]
    version: Literal[1, 2]
    battle: BattleDoc
    initial: dict[str, Any]
    log: list[EntryDoc]
    chain: ChainDoc | None = None
    dice: DiceDoc | None = None  # a battle with verifiable dice (optional in version 2)


def find_non_json(value: object, path: str) -> tuple[str, str] | None:
    """The dotted path of the first value a JSON column would not keep, and why.

    Tuples are accepted (they come back as lists); NaN/Infinity, non-string keys
    (``json`` would silently turn ``{1: x}`` into ``{"1": x}``) and other objects are not.
    """
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, f"{value!r} is not a JSON number")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return (path, f"key {key!r} is not a string")
            hit = find_non_json(item, f"{path}.{key}" if path else key)
            if hit is not None:
                return hit
        return None
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            hit = find_non_json(item, f"{path}.{i}" if path else str(i))
            if hit is not None:
                return hit
        return None
    return (path, f"a {type(value).__name__} is not JSON")


def validate_export(doc: object) -> tuple[ExportDoc | None, list[tuple[str, str]]]:
    """Parse an export document; on failure, ``(None, [(field path, problem), ...])``."""
    try:
        parsed = ExportDoc.model_validate(doc)
    except ValidationError as exc:
        return None, [(".".join(str(p) for p in err["loc"]) or "(document)", err["msg"]) for err in exc.errors()]
    if parsed.battle.position != len(parsed.log):
        return None, [("battle.position", f"is {parsed.battle.position} but the log has "
                                          f"{counted(len(parsed.log), 'entry', 'entries')}")]
    chained = parsed.version >= 2
    if chained != (parsed.chain is not None):
        return None, [("chain", "is required in version 2" if chained else "appeared in version 2; this is version 1")]
    for i, entry in enumerate(parsed.log):
        if chained != (entry.chain is not None) or (chained and entry.created is None):
            return None, [(f"log.{i}.chain", "every entry of a version 2 export carries its link and created time"
                           if chained else "appeared in version 2; this is version 1")]
    hit = find_non_json(doc, "")
    if hit is not None:
        return None, [(hit[0] or "(document)", f"not plain JSON: {hit[1]}")]
    return parsed, []
