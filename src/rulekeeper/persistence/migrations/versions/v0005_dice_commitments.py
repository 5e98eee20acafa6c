"""Verifiable dice: each side's contribution is committed (hashed) before any is revealed.

Revision ID: 0005
Revises: 0004

* ``rk_dice.commitments``: JSON, role → SHA-256 commitment of that side's contribution
  (see :mod:`rulekeeper.service.dice`, scheme ``rulekeeper-dice/2``).  NULL in rows made
  before this revision: their contributions were sent as they are (scheme ``/1``), and a
  battle still waiting for some gets the commitments of those already given when it is sealed.

Only an ``ADD COLUMN``: nothing existing is rewritten.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("rk_dice") as batch:
        batch.add_column(sa.Column("commitments", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rk_dice") as batch:
        batch.drop_column("commitments")
