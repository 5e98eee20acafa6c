"""Persistence: battles kept safely in SQLite (default) or PostgreSQL.

A battle is an initial JSON document plus an append-only log of (action, result)
entries; the engine replays the log to rebuild any moment, which is what makes undo,
resume-tomorrow and replay-afterwards possible.  The store knows nothing of any
ruleset.  See :mod:`rulekeeper.persistence.store` for the guarantees (one transaction
per action, optimistic check on the log position, crash safety, checkpoints) and
:mod:`rulekeeper.persistence.migrate` for how a database is created and upgraded on open.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .errors import BattleNotFoundError, StaleStateError, StoreError
    from .records import BattleRecord, LogEntry
    from .store import BattleStore
    from .urls import default_db_url, normalise_url

#: Where each name lives: imported on first use, so that a submodule without SQLAlchemy
#: (``.sqlite_reads``, the read path of ``battle show``) does not pull it in through this package.
_HOMES = {"BattleNotFoundError": ".errors", "StaleStateError": ".errors", "StoreError": ".errors",
          "BattleRecord": ".records", "LogEntry": ".records", "BattleStore": ".store",
          "default_db_url": ".urls", "normalise_url": ".urls"}

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


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home, __name__), name)
