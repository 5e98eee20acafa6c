"""The side the keeper plays, as the pages show it: who plays it, whether it is thinking, and why it moved.

Why the explanation is shown where it is (issue 28): the bot's candidates and their values
are the spectator's to read (and the host's), never a player's — on a player's page they would
be advice on the battle in progress, and before the keeper's move they would tell its plan.  A
move the game still conceals from the spectator (hidden orders not yet revealed) is not
explained until it is revealed, so the explanation never tells more than the log does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypedDict

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, conceals
from rulekeeper.persistence.store import BattleRecord
from rulekeeper.service.bot_seat import seat_of

if TYPE_CHECKING:
    from .api import Keeper

#: The roles whose pages show the keeper's reasons.
EXPLAINED_TO = ("spectator", "host")


class KeeperSeat(TypedDict):
    """The keeper's side on a page: which side, in words, and whether it is thinking now."""

    side: str
    words: str
    thinking: bool


class ShownCandidate(TypedDict):
    text: str
    value: float | None
    visits: int
    chosen: bool


class KeeperMove(TypedDict):
    """The keeper's last move and the candidates it weighed, as the host's and spectators' pages show them."""

    index: int
    side: str
    text: str
    strength: str
    iterations: int
    seconds: float
    fallback: str
    candidates: list[ShownCandidate]


def keeper_of(k: Keeper, rec: BattleRecord, *, face_down: bool = False) -> KeeperSeat | None:
    """Who plays the keeper's side of ``rec`` and whether it is thinking now (None: two players).

    ``face_down``: the last result waits for its player to turn it over, so the keeper waits too (it never decides
    on what may still be taken back, ``service/bot_runner.py``). Seen: the battle page pokes the keeper and then
    draws itself, so while a player's result lay face down the header said "thinking…" and kept saying it (the
    live region redraws only when the battle changes).
    """
    seat = seat_of(rec.meta)
    if seat is None:
        return None
    return {"side": seat.side, "words": seat.words(), "thinking": not face_down and k.bots.thinking(rec.id)}


def explained(k: Keeper, rec: BattleRecord, game: Game, shown_state: object, role: str,
              say: Callable[[Mapping[str, object]], str] | None = None) -> KeeperMove | None:
    """The keeper's last move and its candidates, for ``role``'s page (None: nothing to show it).

    ``shown_state``: the state the page shows (before a face-down result), which decides
    whether the move is still concealed.  ``say``: the presenter's words for an action, the log's
    ("Billmen: charge to B3"; the spectator read the protocol's "charge B:Billmen B3" there).
    """
    if role not in EXPLAINED_TO or seat_of(rec.meta) is None:
        return None
    found = k.bots.explanation(rec.id)
    if found is None or found.index >= rec.position or conceals(game, shown_state, found.action, "spectator"):
        return None
    return {
        "index": found.index, "side": found.side, "text": _words(say, found.action, found.text),
        "strength": found.strength,
        "iterations": found.iterations, "seconds": round(found.seconds, 2), "fallback": found.fallback,
        "candidates": [{"text": _words(say, c.action, c.text), "value": None if c.value is None else round(c.value, 3),
                        "visits": c.visits, "chosen": i == 0} for i, c in enumerate(found.candidates)],
    }


def _words(say: Callable[[Mapping[str, object]], str] | None, action: Mapping[str, object] | None,
           text: str) -> str:
    """``action`` in the presenter's words, or the game's ``text`` when there is no action or it cannot say it."""
    if say is None or action is None:
        return text
    try:
        return say(action)
    except (RulekeeperError, LookupError, ValueError, TypeError):  # a candidate the presenter cannot word
        return text
