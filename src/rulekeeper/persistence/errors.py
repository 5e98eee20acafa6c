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
