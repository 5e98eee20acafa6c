"""Verifiable dice: the server's committed secret and each side's contribution.

Revision ID: 0004
Revises: 0003

* ``rk_dice``: one row per battle with verifiable dice — the secret (32 random bytes as
  hex, NULL in a copy imported before the end), its SHA-256 commitment, the sides in the
  order their contributions are hashed, and the contributions received so far (JSON,
  role → hex).  The row goes with its battle (``ON DELETE CASCADE``).

Battles stored before this revision have plain seeds and no row.  Only a ``CREATE
TABLE``: nothing existing is rewritten.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rk_dice",
        sa.Column("battle_id", sa.String(100), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("secret", sa.String(64), nullable=True),
        sa.Column("roles", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("contributions", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(["battle_id"], ["rk_battles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("battle_id"),
    )


def downgrade() -> None:
    op.drop_table("rk_dice")
