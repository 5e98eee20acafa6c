"""Persistence: battles kept safely in SQLite (default) or PostgreSQL.

A battle is an initial JSON document plus an append-only log of (action, result)
entries; the engine replays the log to rebuild any moment, which is what makes undo,
resume-tomorrow and replay-afterwards possible.  The store knows nothing of any
ruleset.  See :mod:`rulekeeper.persistence.store` for the guarantees (one transaction
per action, optimistic check on the log position, crash safety, checkpoints) and
:mod:`rulekeeper.persistence.migrate` for how a database is created and upgraded on open.
"""

from __future__ import annotations

from .location import default_db_url, normalise_url
from .schema import BattleRecord, LogEntry
from .store import BattleNotFoundError, BattleStore, StaleStateError, StoreError

__all__ = [
    "BattleNotFoundError",
    "BattleRecord",
    "BattleStore",
    "LogEntry",
    "StaleStateError",
    "StoreError",
    "default_db_url",
    "normalise_url",
]
