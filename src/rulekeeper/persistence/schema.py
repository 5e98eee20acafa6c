"""The tables of a battle store, as SQLAlchemy 2 typed ORM classes.

Why these shapes:

* A battle is an *initial document* plus an *append-only log* of (action, result)
  pairs.  Replaying the log over the initial document rebuilds any moment of the
  battle, which is what makes undo, resume-tomorrow and replay-afterwards cheap and
  trustworthy.  The store never interprets the documents; it keeps JSON.
* ``BattleRow.position`` is the number of log entries.  Every write checks it
  (optimistic concurrency), and ``UNIQUE(battle_id, entry_index)`` is a second,
  independent guard: even a writer that somehow skipped the position check cannot
  create two entries at the same index.
* The optional *snapshot* is a cache of the derived state at ``snapshot_position``
  so a long battle does not have to be replayed from move one; it can always be
  rebuilt from the log, so it is never exported.
* Seeds are stored as decimal text: a seed may exceed the signed 64-bit range of
  ``BIGINT`` (PCG64 accepts 128-bit seeds) and must come back bit for bit.
* Times are ISO-8601 UTC strings, which sort chronologically as text on every
  backend and need no timezone support from the database.
* Only portable column types are used (``String``, ``Text``, ``Integer``,
  ``Boolean``, ``JSON``) so the same schema serves SQLite and PostgreSQL.  Tables are
  prefixed ``rk_`` so a PostgreSQL database shared with other software stays tidy.
"""

from __future__ import annotations

from typing import Any

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
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Bumped whenever the tables change incompatibly; a store refuses a newer database.
SCHEMA_VERSION = 1

#: Longest battle id the store accepts (PostgreSQL enforces ``VARCHAR`` lengths).
MAX_ID_LENGTH = 100


class BigIntText(TypeDecorator[int]):
    """An arbitrary-size Python ``int`` kept as decimal text (see module docstring)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: Any | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


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


class LogRow(Base):
    """One entry of a battle's log: the action asked for and the result it produced.

    ``shown`` records that the result has been revealed to the players (a fate screen
    turned over); the engine uses it to decide whether undoing the entry is fair.
    """

    __tablename__ = "rk_log"
    __table_args__ = (UniqueConstraint("battle_id", "entry_index", name="uq_rk_log_battle_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    battle_id: Mapped[str] = mapped_column(String(MAX_ID_LENGTH), ForeignKey("rk_battles.id", ondelete="CASCADE"))
    entry_index: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(_json())
    result: Mapped[dict[str, Any]] = mapped_column(_json())
    shown: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[str] = mapped_column(String(40))
