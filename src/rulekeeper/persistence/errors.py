"""The store's own error, in a module of its own.

Why a separate module: the engine setup (:mod:`.location`), the schema migrations
(:mod:`.migrate`) and the stores (:mod:`.sqlstore` and its subclasses) all raise it,
and :mod:`.sqlstore` imports the first two; keeping the class here breaks the cycle.
``from rulekeeper.persistence.sqlstore import StoreError`` (and ``.store``) still work.
"""

from __future__ import annotations

from rulekeeper.core.errors import RulekeeperError


class StoreError(RulekeeperError):
    """The database cannot do what was asked (cannot open, busy, bad document...)."""

    code = "store"


class MissingStoreError(StoreError):
    """A store named to be read (``--db FILE``) is a SQLite file that does not exist: nothing was created.

    Why refuse rather than create it: a mistyped ``--db`` would otherwise leave an empty database behind and
    answer "no battle '3'" about the wrong file; only the commands that start battles create a store.
    """

    code = "no_store"


class StoreBusyError(StoreError):
    """Another writer holds the lock longer than the store waits: nothing was done, try again.

    Its own code (``busy``) so that the web keeper can answer 503 with ``Retry-After`` and the
    CLI can say "busy, try again" instead of a generic database error.
    """

    code = "busy"


class ForeignDatabaseError(StoreError):
    """The database holds someone else's tables and none of rulekeeper's: it is left untouched."""

    code = "foreign_database"


class DamagedStoreError(StoreError):
    """A value read from the database is not what rulekeeper wrote (edited by hand, or corrupted)."""

    code = "damaged_store"


class StaleStateError(RulekeeperError):
    """A writer's idea of the log position is out of date; nothing was written."""

    code = "stale_state"

    def __init__(self, battle_id: str, expected: int, actual: int | None) -> None:
        where = f"the stored log is at position {actual}" if actual is not None else "another writer got there first"
        super().__init__(
            f"Battle {battle_id!r} has moved on: this change expected log position {expected} "
            f"but {where}. Reload the battle and try again.",
            battle_id=battle_id,
            expected=expected,
            actual=actual,
        )
        self.battle_id = battle_id
        self.expected = expected
        self.actual = actual


class BattleNotFoundError(RulekeeperError):
    """No battle with this id in the store."""

    code = "not_found"

    def __init__(self, battle_id: str) -> None:
        super().__init__(f"No battle {battle_id!r} in this store.", battle_id=battle_id)
        self.battle_id = battle_id
