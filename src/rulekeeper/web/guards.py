"""The checks every state-changing request makes, shared by the JSON API and the pages.

Token → side (spectators only read) → the log position the client saw (stale writers
are refused and change nothing) → the battle not over → for undo and reveal, the side
that played the last action.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.persistence.store import StaleStateError
from rulekeeper.service.battles import GameOverError

from .renderers import side_of_key


class UnauthorizedError(RulekeeperError):
    code = "unauthorized"


def require_writer(bid: str, role: str, position: int, current: int, over: bool, verb: str,
                   allow_over: bool = False) -> None:
    """Refuse spectators, a stale log position and (unless allowed) a finished battle."""
    if role == "spectator":
        raise UnauthorizedError(f"spectators cannot {verb}")
    if position != current:
        raise StaleStateError(bid, position, current)
    if over and not allow_over:
        raise GameOverError("the battle is over")


def side_of(action: dict[str, Any]) -> str:
    """The side that played a logged action (unit keys are ``SIDE:Name``)."""
    return side_of_key(str(action.get("unit", "")))


def require_last_actor(role: str, last_action: dict[str, Any] | None, verb: str) -> None:
    """Only the side that played the last action may take it back or reveal its results."""
    if last_action is not None and side_of(last_action) != role:
        raise UnauthorizedError(f"only the side that played the last action may {verb}")
