"""Checkpoints in the log and a revision counter on each battle.

Revision ID: 0002
Revises: 0001

* ``rk_log.state`` (JSON, nullable): the game state after that entry, so any moment of
  a battle loads from its nearest checkpoint instead of a replay from move one.  Old
  entries have none; they are folded from the initial document as before.
* ``ix_rk_log_checkpoints``: the entries that have a checkpoint (partial index on
  SQLite and PostgreSQL), so "the nearest checkpoint at or before n" is one index
  probe however sparse checkpoints are.
* ``rk_battles.revision`` (integer, default 0): bumped by every write to a battle or
  its log, so a cache can tell it is current with one cheap read.
* ``rk_meta.schema_version`` becomes 2: a rulekeeper from before migrations refuses
  the database ("upgrade rulekeeper") instead of writing without bumping revisions.

Only ``ADD COLUMN``/``CREATE INDEX``: no table is rebuilt, on SQLite either.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_HAS_STATE = sa.text("state IS NOT NULL")


def _set_marker(version: str) -> None:
    key, value = sa.column("key", sa.String), sa.column("value", sa.Text)
    op.execute(sa.update(sa.table("rk_meta", key, value)).where(key == "schema_version").values(value=version))


def upgrade() -> None:
    op.add_column("rk_log", sa.Column("state", sa.JSON(none_as_null=True), nullable=True))
    op.add_column("rk_battles", sa.Column("revision", sa.Integer(), nullable=False, server_default=sa.text("0")))
    op.create_index(
        "ix_rk_log_checkpoints",
        "rk_log",
        ["battle_id", "entry_index"],
        sqlite_where=_HAS_STATE,
        postgresql_where=_HAS_STATE,
    )
    _set_marker("2")


def downgrade() -> None:
    """Drop the columns (``ALTER TABLE ... DROP COLUMN``: SQLite 3.35 or later)."""
    _set_marker("1")
    op.drop_index("ix_rk_log_checkpoints", table_name="rk_log")
    op.drop_column("rk_battles", "revision")
    op.drop_column("rk_log", "state")
