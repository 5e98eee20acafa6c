"""The schema as it was before migrations: battles, log, access links, campaign.

Revision ID: 0001
Revises: (none)

Mirrors exactly what ``metadata.create_all`` of the battle, access and campaign stores
created before this revision existed (same columns, types, nullability, constraints,
constraint names and index), so a database made then and one made now are the same.
The definitions are spelled out here rather than imported from the models: a
revision is a frozen record of a past schema, and the models keep moving.

It also *adopts* a legacy database (see :mod:`rulekeeper.persistence.migrate`): each
table is created only if missing, and each version marker row only if missing, so a
database in which only some stores were ever opened gets the rest of its tables and
none of its rows are touched.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

ID = 100  # MAX_ID_LENGTH of a battle id at this revision
TIME = 40  # ISO-8601 UTC time as text


def _json() -> sa.JSON:
    return sa.JSON(none_as_null=True)


def _meta(name: str) -> None:
    op.create_table(
        name,
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def _battles() -> None:
    op.create_table(
        "rk_battles",
        sa.Column("id", sa.String(ID), nullable=False),
        sa.Column("ruleset", sa.String(200), nullable=False),
        sa.Column("scenario", sa.Text(), nullable=False),
        sa.Column("seed", sa.Text(), nullable=False),  # decimal text: seeds exceed BIGINT
        sa.Column("created", sa.String(TIME), nullable=False),
        sa.Column("updated", sa.String(TIME), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(64), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("meta", _json(), nullable=False),
        sa.Column("initial", _json(), nullable=False),
        sa.Column("snapshot", _json(), nullable=True),
        sa.Column("snapshot_position", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rk_battles_updated", "rk_battles", ["updated"])


def _log() -> None:
    op.create_table(
        "rk_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("battle_id", sa.String(ID), nullable=False),
        sa.Column("entry_index", sa.Integer(), nullable=False),
        sa.Column("action", _json(), nullable=False),
        sa.Column("result", _json(), nullable=False),
        sa.Column("shown", sa.Boolean(), nullable=False),
        sa.Column("created", sa.String(TIME), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("battle_id", "entry_index", name="uq_rk_log_battle_index"),
        sa.ForeignKeyConstraint(["battle_id"], ["rk_battles.id"], ondelete="CASCADE"),
    )


def _access() -> None:
    op.create_table(
        "rk_access",
        sa.Column("battle_id", sa.String(ID), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.String(TIME), nullable=False),
        sa.UniqueConstraint("battle_id", "role", name="uq_access_battle_role"),
        sa.UniqueConstraint("token_hash"),
    )


def _musters() -> None:
    op.create_table(
        "rk_muster_musters",
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("document", _json(), nullable=False),
        sa.Column("created", sa.String(TIME), nullable=False),
        sa.Column("updated", sa.String(TIME), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def _units() -> None:
    op.create_table(
        "rk_campaign_units",
        sa.Column("muster", sa.String(200), nullable=False),
        sa.Column("slot", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(200), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("bp", sa.Integer(), nullable=False),
        sa.Column("bp_total", sa.Integer(), nullable=False),
        sa.Column("skill_points", sa.Integer(), nullable=False),
        sa.Column("battles", sa.Integer(), nullable=False),
        sa.Column("max_level", sa.Integer(), nullable=False),
        sa.Column("named", sa.Boolean(), nullable=False),
        sa.Column("created", sa.String(TIME), nullable=False),
        sa.Column("updated", sa.String(TIME), nullable=False),
        sa.PrimaryKeyConstraint("muster", "slot"),
    )


def _players() -> None:
    op.create_table(
        "rk_campaign_players",
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("bp", sa.Integer(), nullable=False),
        sa.Column("bp_total", sa.Integer(), nullable=False),
        sa.Column("renown", sa.Integer(), nullable=False),
        sa.Column("battles", sa.Integer(), nullable=False),
        sa.Column("created", sa.String(TIME), nullable=False),
        sa.Column("updated", sa.String(TIME), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def _recorded() -> None:
    op.create_table(
        "rk_campaign_battles",
        sa.Column("battle_id", sa.String(ID), nullable=False),
        sa.Column("recorded", sa.String(TIME), nullable=False),
        sa.Column("bp", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("summary", _json(), nullable=False),
        sa.PrimaryKeyConstraint("battle_id"),
    )


#: In creation order (``rk_log`` refers to ``rk_battles``), as the stores created them.
TABLES: tuple[tuple[str, Callable[[], None]], ...] = (
    ("rk_meta", lambda: _meta("rk_meta")),
    ("rk_battles", _battles),
    ("rk_log", _log),
    ("rk_access", _access),
    ("rk_campaign_meta", lambda: _meta("rk_campaign_meta")),
    ("rk_muster_musters", _musters),
    ("rk_campaign_units", _units),
    ("rk_campaign_players", _players),
    ("rk_campaign_battles", _recorded),
)

#: The version marker rows the stores wrote before migrations (what old code checks).
MARKERS = (("rk_meta", "1"), ("rk_campaign_meta", "1"))


def _mark(name: str, version: str) -> None:
    key, value = sa.column("key", sa.String), sa.column("value", sa.Text)
    marker = sa.table(name, key, value)
    bind = op.get_bind()
    if bind.execute(sa.select(value).select_from(marker).where(key == "schema_version")).first() is None:
        bind.execute(sa.insert(marker).values(key="schema_version", value=version))


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    for name, create in TABLES:
        if name not in existing:
            create()
    for name, version in MARKERS:
        _mark(name, version)


def downgrade() -> None:
    raise NotImplementedError("revision 0001 is the baseline: undoing it would delete every battle")
