"""The checks every state-changing request makes, shared by the JSON API and the pages.

Token → side (spectators only read) → the log position the client saw (stale writers
are refused and change nothing) → the battle not over → for undo and reveal, the side
that played the last action.
"""

from __future__ import annotations

from rulekeeper.persistence.store import StaleStateError
from rulekeeper.service.battles import GameOverError, UnauthorizedError

__all__ = ["UnauthorizedError", "require_last_actor", "require_writer"]


def require_writer(bid: str, role: str, position: int, current: int, over: bool, verb: str,
                   allow_over: bool = False) -> None:
    """Refuse spectators, a stale log position and (unless allowed) a finished battle."""
    if role == "spectator":
        raise UnauthorizedError(f"spectators cannot {verb}")
    if position != current:
        raise StaleStateError(bid, position, current)
    if over and not allow_over:
        raise GameOverError("the battle is over")


def require_last_actor(role: str, last_side: str | None, verb: str) -> None:
    """Only the side that played the last action may take it back or reveal its results."""
    if last_side is not None and last_side != role:
        raise UnauthorizedError(f"only the side that played the last action may {verb}")
