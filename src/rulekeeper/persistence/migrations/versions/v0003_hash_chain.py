"""The hash chain over every battle's log (see :mod:`rulekeeper.persistence.chain`).

Revision ID: 0003
Revises: 0002

* ``rk_battles.genesis`` (64 hex digits): the SHA-256 seal of the battle's set-up;
* ``rk_battles.head``: the link of the last log entry (the genesis while the log is
  empty), whose first digits are the battle's fingerprint;
* ``rk_log.chain``: each entry's link.

Existing battles are sealed as they are, in the same transaction: their genesis and
links are computed from the stored documents, so a battle played before the chain
existed is verified from now on.  ``rk_meta.schema_version`` becomes 3: a rulekeeper
from before migrations refuses the database instead of appending unchained entries.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rulekeeper.persistence import chain

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

_battles = sa.table(
    "rk_battles", sa.column("id", sa.String), sa.column("ruleset", sa.String), sa.column("scenario", sa.Text),
    sa.column("seed", sa.Text), sa.column("title", sa.Text), sa.column("meta", sa.JSON),
    sa.column("created", sa.String), sa.column("initial", sa.JSON), sa.column("genesis", sa.String),
    sa.column("head", sa.String),
)
_log = sa.table(
    "rk_log", sa.column("id", sa.Integer), sa.column("battle_id", sa.String), sa.column("entry_index", sa.Integer),
    sa.column("action", sa.JSON), sa.column("result", sa.JSON), sa.column("created", sa.String),
    sa.column("shown", sa.Boolean), sa.column("chain", sa.String),
)


def _set_marker(version: str) -> None:
    key, value = sa.column("key", sa.String), sa.column("value", sa.Text)
    op.execute(sa.update(sa.table("rk_meta", key, value)).where(key == "schema_version").values(value=version))


def _seal_existing() -> None:
    """Compute the genesis and links of every stored battle (one battle in memory at a time)."""
    conn = op.get_bind()
    for battle in conn.execute(sa.select(_battles)).mappings().all():
        try:
            start = chain.genesis({**battle, "title": battle["title"] or "", "meta": battle["meta"] or {}},
                                  battle["initial"])
        except (ValueError, TypeError):  # a seed damaged by hand: left unsealed, `battle replay` says so
            continue
        head = start
        rows = conn.execute(
            sa.select(_log.c.id, _log.c.action, _log.c.result, _log.c.created, _log.c.shown)
            .where(_log.c.battle_id == battle["id"]).order_by(_log.c.entry_index)
        ).all()
        for row in rows:
            head = chain.link(head, row.action, row.result, row.created, bool(row.shown))
            conn.execute(sa.update(_log).where(_log.c.id == row.id).values(chain=head))
        conn.execute(sa.update(_battles).where(_battles.c.id == battle["id"]).values(genesis=start, head=head))


def upgrade() -> None:
    op.add_column("rk_battles", sa.Column("genesis", sa.String(64), nullable=True))
    op.add_column("rk_battles", sa.Column("head", sa.String(64), nullable=True))
    op.add_column("rk_log", sa.Column("chain", sa.String(64), nullable=True))
    _seal_existing()
    _set_marker("3")


def downgrade() -> None:
    """Drop the columns (``ALTER TABLE ... DROP COLUMN``: SQLite 3.35 or later)."""
    _set_marker("2")
    op.drop_column("rk_log", "chain")
    op.drop_column("rk_battles", "head")
    op.drop_column("rk_battles", "genesis")
