"""Live updates on PostgreSQL: every change to a battle row is announced with ``NOTIFY``.

Revision ID: 0006
Revises: 0005

A trigger on ``rk_battles`` (insert, update, delete) calls ``pg_notify('rk_battle_changed',
battle id)``.  Every write to a battle bumps its row's revision, so every write — made by any
keeper process, the command line or a script — reaches each keeper's one listener
(``web/watch.py``), which wakes the live streams of that battle; no stream polls the database.
PostgreSQL delivers the notice when the writing transaction commits, and not at all if it rolls
back.  SQLite has no such thing: nothing is created there (its keeper checks revisions instead).
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

#: The channel every keeper process listens on (``web/watch.py`` spells it too).
CHANNEL = "rk_battle_changed"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"""
        CREATE OR REPLACE FUNCTION rk_announce_battle_change() RETURNS trigger AS $$
        BEGIN
            PERFORM pg_notify('{CHANNEL}', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
            RETURN NULL;
        END;
        $$ LANGUAGE plpgsql""")
    op.execute("""
        CREATE TRIGGER rk_battle_changed AFTER INSERT OR UPDATE OR DELETE ON rk_battles
        FOR EACH ROW EXECUTE FUNCTION rk_announce_battle_change()""")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS rk_battle_changed ON rk_battles")
    op.execute("DROP FUNCTION IF EXISTS rk_announce_battle_change()")
