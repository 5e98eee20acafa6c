"""The checks of one act, made once, by the service, for every caller.

Why here: the page and the API checked an act (the link's side, the position, the end of the
battle, the results still face down, the action's side) and then handed it to the service,
which read the battle again and checked most of it a second time: one web act ran 14 SQL
statements, ``parse_action`` twice and ``status`` three times (issue 22, point 4). Now a
caller hands over the link's role and the position it saw; the service reads the battle
record and its last entry in one statement, checks everything here in one order, and
appends with a compare-and-set on the revision it read (issue 23: the loser of a race gets
409 and nothing is written).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.core.game import SPECTATOR, Game, JsonDict, face_down
from rulekeeper.persistence.errors import BattleNotFoundError
from rulekeeper.persistence.store import BattleRecord, LogEntry, StaleStateError


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class GameOverError(IllegalActionError):
    code = "game_over"


class UnauthorizedError(RulekeeperError):
    """A link asking for what its role may not do: a spectator writing, a side taking back the other's action."""

    code = "unauthorized"


class NotYourSideError(UnauthorizedError):
    """A link playing another side's action (the other side's unit, say)."""


class ResultsPendingError(RulekeeperError):
    """An act while the last action's results are still face down: its side reveals them (or takes it back) first."""

    code = "results_pending"


class ResultsShownError(IllegalActionError):
    """An undo of an action whose random results were shown: a seen roll is never taken back and retried.

    An illegal undo (callers that catch :class:`IllegalActionError` still do), but a conflict with the battle's
    state, answered 409 ``results_shown`` like ``stale_state``: the same code on the pages and in the API.
    """

    code = "results_shown"


class DiceNotReadyError(RulekeeperError):
    """A battle with verifiable dice waits for every side's contribution before anyone acts."""

    code = "dice_not_ready"


@dataclass(frozen=True)
class At:
    """The moment a write is computed at: the log position, the revision and the chain head read with them."""

    position: int
    revision: int
    head: str | None = None  # None: unknown, the append reads it

    @classmethod
    def of(cls, rec: BattleRecord) -> At:
        return cls(rec.position, rec.revision, rec.head or "")


def require_dice(rec: BattleRecord) -> None:
    """Refuse to play a battle whose verifiable dice still wait for contributions (see :mod:`.dice`)."""
    dice = rec.meta.get("dice")
    if isinstance(dice, dict) and dice.get("contributions") is None:
        raise DiceNotReadyError("the dice are not sealed yet: every side must first add its contribution "
                                "(open the battle page with your side's link)", battle_id=rec.id)


def is_pending(last: LogEntry, rec: BattleRecord) -> bool:
    """The last action drew chance and nobody has revealed it yet.

    The last blow of a battle too: until its side turns the cards over, nobody (the
    spectator included) may see the end screen, which would tell the result.
    """
    return not last.shown and face_down(last.result)


@dataclass(frozen=True)
class ActRequest:
    """What a caller asks of one act besides the action: the position (and revision) it decided at, the side
    it plays for (``side``: a CLI player's or the keeper's own side), and ``link``: the role of a link acting
    from the web, which may play only its own side's actions and not while the last results are face down."""

    expected_position: int | None = None
    expected_revision: int | None = None
    side: str | None = None
    link: str | None = None


def checked(g: Game, rec: BattleRecord, last: LogEntry | None, state: object, action: Mapping[str, object],
            ask: ActRequest) -> JsonDict:
    """The canonical action, once every check passed, in the order a player reads the refusals: the battle
    moved on, dice not sealed, results face down, over, not an action, not this link's, not this side's turn."""
    if ask.link is not None and rec.meta and "bot" in rec.meta:
        from .bot_seat import seat_of

        seat = seat_of(rec.meta)
        if seat is not None and seat.side == ask.link:  # the keeper plays it: no link may act for it (not found)
            raise BattleNotFoundError(rec.id)
    position = rec.position if ask.expected_position is None else ask.expected_position
    if position != rec.position or ask.expected_revision not in (None, rec.revision):
        raise StaleStateError(rec.id, position, rec.position)  # checked again atomically on append
    require_dice(rec)
    # face down before over: the last blow's results still face down, a link asking to act must not learn from
    # the refusal that the battle has ended (a "game_over" told the other side who had just won)
    if ask.link is not None and last is not None and is_pending(last, rec):
        raise ResultsPendingError(f"reveal the results of {g.action_text(last.action)} first")
    status = g.status(state)
    if status.over:
        raise GameOverError("the battle is over")
    data = g.parse_action(state, action)
    actor = g.side_of(data)
    if ask.link is not None and actor != ask.link:
        raise NotYourSideError(f"{g.action_text(data)}: that belongs to the other side")
    if actor not in status.to_act:
        raise NotYourTurnError(f"it is not side {actor}'s turn: {' + '.join(status.acting) or 'nobody'} acts now")
    if ask.side is not None and actor != ask.side:
        raise NotYourTurnError(f"{g.action_text(data)}: that is side {actor}'s to play, not side {ask.side}'s")
    return data


def check_undo_link(g: Game, rec: BattleRecord, last: LogEntry | None, position: int, over: Callable[[], bool],
                    link: str) -> None:
    """What a link (a web page or API token's role) may take back, checked once for every caller.

    In the order a player reads the refusals: spectators never write; the position the link saw is the
    battle's; the battle is not over *as this link sees it* (a last blow still face down may be taken back:
    nothing of it has been seen, and the refusal of another link's undo must not tell that the battle has
    ended); only the side that played the last action takes it back.
    """
    if link == SPECTATOR:
        raise UnauthorizedError("spectators cannot undo")
    if position != rec.position:
        raise StaleStateError(rec.id, position, rec.position)
    if not (last is not None and is_pending(last, rec)) and over():
        raise GameOverError("the battle is over")
    if last is not None and g.side_of(last.action) != link:
        raise UnauthorizedError("only the side that played the last action may take it back")
