"""Reading a stored battle: its game, its record, its state at any moment (the service's read half).

Split from :mod:`.battles` so that the read path of ``battle show`` on the default SQLite file
(:mod:`rulekeeper.persistence.sqlite_reads`) runs this very code without importing SQLAlchemy:
:class:`BattleReading` needs only the few reads of :class:`BattleReads`, which the battle store
and those stdlib reads both provide. Whatever one shows, the other shows.
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar, cast

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, LegalAction
from rulekeeper.core.ruleset import game as find_game
from rulekeeper.core.ruleset import game_refusal
from rulekeeper.persistence.errors import DamagedStoreError
from rulekeeper.persistence.records import BattleRecord, LogEntry

__all__ = ["DAMAGE", "BattleReading", "BattleReads", "NotABattleGameError", "game_of", "read_stored"]


class NotABattleGameError(RulekeeperError):
    code = "unknown_name"


class BattleReads(Protocol):
    """The reads a :class:`BattleReading` makes of its store (see :class:`~rulekeeper.persistence.store.BattleStore`)."""

    @property
    def url(self) -> str: ...

    def reading(self) -> AbstractContextManager[None]: ...

    def get(self, battle_id: str) -> BattleRecord: ...

    def list(self) -> builtins.list[BattleRecord]: ...

    def initial(self, battle_id: str) -> dict[str, Any]: ...

    def nearest_checkpoint(self, battle_id: str, n: int) -> tuple[int, dict[str, Any]] | None: ...

    def entries(self, battle_id: str, start: int = 0, stop: int | None = None) -> builtins.list[LogEntry]: ...


_T = TypeVar("_T")
S = TypeVar("S")

#: What a game's reader may raise on a document it did not write (the store keeps any JSON).
DAMAGE = (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError)


def read_stored(bid: str, what: str, read: Callable[[], _T]) -> _T:
    """``read()`` of a document kept in the store; a document the game cannot read is a typed error.

    The store checks that what it reads back is JSON; whether it is a state, an action or
    an initial document of the battle's game only the game can tell, and a hand-edited
    database must get "damaged" naming the battle and the document, never a traceback.
    """
    try:
        return read()
    except RulekeeperError:
        raise
    except DAMAGE as exc:
        raise DamagedStoreError(
            f"battle {bid!r}: {what} in the database cannot be read ({type(exc).__name__}: {str(exc)[:200]}); "
            "it was changed outside rulekeeper — restore a backup or import the battle from an export",
            battle_id=bid,
        ) from None


#: Game instance id → (the instance, whether it plays battles). Why: ``isinstance`` against the
#: runtime-checkable protocol looks up each of its members, about a millisecond, and every act and read
#: asks (11 % of a short battle's autoplay). The instance is kept with its answer, so its id is never reused.
_PLAYS: dict[int, tuple[object, bool]] = {}


def game_of(ruleset: str) -> Game:
    """The game that plays battles of ``ruleset`` (a typed error if it plays none)."""
    g = find_game(ruleset)
    known = _PLAYS.get(id(g))
    if known is None or known[0] is not g:
        known = _PLAYS[id(g)] = (g, isinstance(g, Game))
    if not known[1]:
        why = game_refusal(str(getattr(g, "name", ruleset))) or "has no whole battles (only its calculator)"
        raise NotABattleGameError(f"{getattr(g, 'title', ruleset)} {why}", ruleset=ruleset)
    return cast(Game, g)  # checked once, above


class BattleReading:
    """A store's battles as their games see them: records, and states rebuilt from checkpoints and the log."""

    def __init__(self, store: BattleReads) -> None:
        self.store = store
        self._cache: dict[str, tuple[int, int, object]] = {}  # battle → (position, revision, state)
        self._lock = threading.Lock()

    def game(self, bid: str) -> Game:
        return game_of(self.store.get(bid).ruleset)

    # -- reading -------------------------------------------------------------------------------

    def record(self, bid: str) -> BattleRecord:
        return self.store.get(bid)

    def list(self) -> builtins.list[BattleRecord]:
        return self.store.list()

    def state(self, bid: str) -> object:
        """The current state: from memory when current, else from the last checkpoint."""
        with self.store.reading():
            return self._state_of(self.store.get(bid))

    def legal(self, bid: str) -> tuple[object, builtins.list[LegalAction]]:
        """The current state and its legal actions, read at one moment."""
        with self.store.reading():
            rec = self.store.get(bid)
            state = self._state_of(rec)
        return state, game_of(rec.ruleset).legal_actions(state)

    def state_as(self, bid: str, kind: type[S]) -> S:
        """The current state, checked to be a ``kind`` (the game's state class: a rule system's own code reading
        its battles); another object is a :class:`~rulekeeper.core.registered.StateTypeError`, never a cast."""
        state = self.state(bid)
        if not isinstance(state, kind):
            from rulekeeper.core.registered import StateTypeError

            raise StateTypeError(f"battle {bid!r} is played on a {type(state).__name__}, not a {kind.__name__}",
                                 battle_id=bid, expected=kind.__name__, got=type(state).__name__)
        return state

    def _state_of(self, rec: BattleRecord) -> object:
        bid = rec.id
        with self._lock:
            hit = self._cache.get(bid)
        if hit is not None and hit[0] == rec.position and hit[1] == rec.revision:
            return hit[2]
        with self.store.reading():  # the checkpoint and the entries after it: one moment
            state = self._state_at(bid, rec.position, game_of(rec.ruleset))  # the record names the game
        self._remember(bid, rec, state)
        return state

    def _remember(self, bid: str, rec: BattleRecord, state: object) -> None:
        self._keep(bid, rec.position, rec.revision, state)

    def _keep(self, bid: str, position: int, revision: int, state: object) -> None:
        with self._lock:
            self._cache[bid] = (position, revision, state)

    def state_at(self, bid: str, n: int) -> object:
        """The battle after its first ``n`` actions: the nearest checkpoint, folded forward.

        A checkpoint the game cannot read (changed outside rulekeeper) is only a cache:
        the state is then folded from the initial document instead.  An initial document
        or a logged action the game cannot read is a :class:`DamagedStoreError`.
        """
        with self.store.reading():  # the checkpoint and the entries after it: one moment
            return self._state_at(bid, n)

    def _state_at(self, bid: str, n: int, g: Game | None = None) -> object:
        """:meth:`state_at`; ``g``: the battle's game when the caller already knows it (one read less)."""
        g = self.game(bid) if g is None else g
        found = self.store.nearest_checkpoint(bid, n) if n > 0 else None
        start, state = 0, None
        if found is not None:
            try:
                start, state = found[0], g.state_from_json(found[1])
            except DAMAGE:  # the game's own typed refusal included: a checkpoint is only a cache
                start, state = 0, None
        if state is None:
            state = read_stored(bid, "its initial document", lambda: g.initial_state(self.store.initial(bid)))
        for e in self.store.entries(bid, start, n) if start < n else []:
            state = read_stored(bid, f"action {e.index}", lambda: g.apply(state, e.action).state)  # noqa: B023
        return state
