"""Alembic revisions, oldest first: 0001 (the schema before migrations), 0002 (checkpoints)."""
