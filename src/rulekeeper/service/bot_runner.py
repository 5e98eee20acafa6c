"""The keeper's own side acting by itself: after any write that makes it its turn, it thinks and plays.

How (issue 28):

* **Off the event loop.**  :meth:`BotRunner.poke` only hands the battle to a small pool of
  threads; each thread waits on a child process (:mod:`.bot_worker`) that does the thinking, so
  the keeper's pages stay fast however many bots think (the interpreter lock is never held by a
  search).  At most ``max_thinking`` children run at once; more battles wait their turn.
* **Bounded.**  The child's address space is capped (``memory_mb``); it is killed after its
  budget plus :data:`GRACE` seconds.  A bot that fails (too slow, out of memory, a move the game
  refuses) plays the game's shipped policy instead, so the battle never stalls; the explanation
  says why.
* **Cancelled when the battle changes.**  While the child thinks, the thread reads the
  battle's revision every :data:`WATCH_EVERY` seconds; any write (an undo, a reveal, another
  keeper's move) kills the child and the runner looks again.  The move itself is a
  compare-and-set on the revision it was computed from (:meth:`BattleService.act`), so a write
  that lands between the last check and the append makes it stale and changes nothing.
* **The same path as a player.**  The move goes through :meth:`BattleService.act` with the
  keeper's side as the acting side, and ``notify`` wakes the live pages (SSE) of both sides.
  Its results are shown at once (the keeper's side turns its own results over: nobody is at
  its Fate Screen), in the same transaction, so there is no moment where it could be undone.
* **Only its own side.**  The runner plays the side stored with the battle
  (:mod:`.bot_seat`), and only when that side is to act, the dice are sealed and the last
  action's results are not face down (a player's face-down result is revealed by its player
  first: the bot never decides on what the other side may still take back).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, JsonDict
from rulekeeper.persistence.store import BattleRecord, StaleStateError

from .battles import BattleService, DiceNotReadyError, game_of, is_pending, require_dice
from .bot_pool import WorkerPool
from .bot_seat import BotSeat, seat_of
from .bot_worker import Answer, Job, simple

log = logging.getLogger(__name__)

#: Seconds a child may run past its budget (its start included) before it is killed.
GRACE = 8.0
#: Seconds between two reads of the battle's revision while a child thinks.
WATCH_EVERY = 0.1
#: Moves one runner plays in a row for one battle before it lets go (a game where only the bot acts).
MAX_IN_A_ROW = 500


@dataclass(frozen=True)
class Candidate:
    text: str
    value: float | None
    visits: int
    action: JsonDict | None = None  # its logged JSON: a page says it in the game's words, as the log does


@dataclass(frozen=True)
class Explanation:
    """Why the keeper's side played its last move: the candidates it weighed, best first."""

    index: int  # the log index of the move
    side: str
    action: JsonDict
    text: str
    strength: str
    candidates: tuple[Candidate, ...]
    iterations: int
    seconds: float
    peak_kb: int = 0
    fallback: str = ""  # why the shipped policy played instead of the search, if it did


@dataclass
class Counters:
    """What the runner did (for tests and the figures)."""

    moves: int = 0
    cancelled: int = 0
    timeouts: int = 0
    fallbacks: int = 0
    peak_kb: int = 0
    move_seconds: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Turn:
    """The keeper's side to act in a battle, read at one moment."""

    rec: BattleRecord
    seat: BotSeat
    game: Game
    state: object


class BotRunner:
    """Plays the keeper's sides of the battles of one :class:`BattleService`."""

    def __init__(self, service: BattleService, notify: Callable[[str], None] | None = None, *,
                 max_thinking: int = 3, memory_mb: int = 1024, grace: float = GRACE,
                 workers: WorkerPool | None = None) -> None:
        self.service = service
        self.store = service.store
        self.notify = notify or (lambda bid: None)
        self.memory_bytes = memory_mb * 1024 * 1024
        self.grace = grace
        self.counters = Counters()
        self._pool = ThreadPoolExecutor(max_workers=max_thinking + 4, thread_name_prefix="bot")
        self._slots = threading.BoundedSemaphore(max_thinking)
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._explained: dict[str, Explanation] = {}
        self._closed = False
        self._own_workers = workers is None
        self.workers = WorkerPool(self.memory_bytes) if workers is None else workers

    # -- asking ----------------------------------------------------------------------------------

    def poke(self, bid: str) -> None:
        """Look at ``bid`` soon: if the keeper's side is to act, think and play (never blocks)."""
        with self._lock:
            if self._closed:
                return
            if bid in self._busy:
                self._again.add(bid)  # the running look checks again before it lets go
                return
            self._busy.add(bid)
        self._pool.submit(self._run, bid)

    def warm(self) -> None:
        """Start a worker process in the background (a battle with a searching keeper side was created)."""
        with self._lock:
            if self._closed:
                return
        self._pool.submit(self.workers.warm)

    def thinking(self, bid: str) -> bool:
        with self._lock:
            return bid in self._busy

    def explanation(self, bid: str) -> Explanation | None:
        """The keeper's last move in ``bid`` and why, while it is still in the log (an undo forgets it)."""
        with self._lock:
            found = self._explained.get(bid)
        if found is None:
            return None
        try:
            entry = self.store.entry(bid, found.index)
        except RulekeeperError:
            return None
        return found if entry.action == found.action else None

    def close(self) -> None:
        """Stop: thinking children are killed at their next check, nothing new starts."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._own_workers:
            self.workers.close()

    def wait_idle(self, timeout: float) -> bool:
        """True once no battle is being looked at (tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._busy:
                    return True
            time.sleep(0.02)
        return False

    # -- the thread of one battle ---------------------------------------------------------------

    def _run(self, bid: str) -> None:
        while True:
            try:
                for _ in range(MAX_IN_A_ROW):
                    turn = self.turn(bid)
                    if turn is None or self._closed:
                        break
                    self._move(bid, turn)
            except RulekeeperError as exc:  # the battle is gone, the store is busy: the next write pokes again
                log.info("the keeper's side of %s stops: %s", bid, exc)
            except Exception:  # a bug must not kill the pool's thread silently
                log.exception("the keeper's side of %s failed", bid)
            with self._lock:
                if bid in self._again and not self._closed:
                    self._again.discard(bid)
                    continue
                self._busy.discard(bid)
                return

    def turn(self, bid: str) -> Turn | None:
        """The keeper's side to act in ``bid`` now, or None (not its turn, or nothing it may do yet)."""
        with self.store.reading():
            rec = self.store.get(bid)
            seat = seat_of(rec.meta)
            if seat is None:
                return None
            try:
                require_dice(rec)
            except DiceNotReadyError:
                return None  # the dice wait for the players' shares
            last = self.store.entry(bid, rec.position - 1) if rec.position else None
            if last is not None and is_pending(last, rec):
                return None  # a player's face-down result: its player turns it over first
            g = game_of(rec.ruleset)
            state = self.service.state(bid)
        status = g.status(state)
        if status.over or seat.side not in status.to_act:
            return None
        if not any(lg.side == seat.side for lg in g.legal_actions(state)):
            return None  # its orders are in, the other side's are awaited
        return Turn(rec, seat, g, state)

    def _move(self, bid: str, turn: Turn) -> None:
        """Think (in a child) and play one move of the keeper's side; a changed battle cancels it."""
        started = time.monotonic()
        seat, g = turn.seat, turn.game
        answer = self._think(bid, turn) if seat.policy != "simple" else simple(g, turn.state, seat.side)
        if answer is None:
            with self._lock:
                self.counters.cancelled += 1
            return
        fallback = str(answer.get("error") or "")
        if not fallback and answer.get("action") is None:
            fallback = "the bot found no move"
        if fallback:
            answer = simple(g, turn.state, seat.side)
        try:
            self._play(bid, turn, answer, fallback, started)
        except StaleStateError:
            with self._lock:
                self.counters.cancelled += 1
        except RulekeeperError as exc:
            if fallback:
                raise
            log.warning("the keeper's move in %s was refused (%s): its shipped policy plays instead", bid, exc)
            self._play(bid, turn, simple(g, turn.state, seat.side), f"refused: {exc.message[:200]}", started)

    def _play(self, bid: str, turn: Turn, answer: Answer, fallback: str, started: float) -> None:
        seat, g = turn.seat, turn.game
        action = answer.get("action")
        if action is None:
            raise RulekeeperError(f"battle {bid}: the keeper's side {seat.side} has no move to play")
        out, position = self.service.act(bid, action, expected_position=turn.rec.position, shown=True,
                                         side=seat.side, expected_revision=turn.rec.revision)
        candidates = tuple(Candidate(str(c.get("text", "")), None if (v := c.get("value")) is None else float(v),
                                     int(c.get("visits") or 0), a if isinstance(a := c.get("action"), dict) else None)
                           for c in answer.get("candidates", []))
        explained = Explanation(position - 1, seat.side, dict(out.action), g.action_text(out.action), seat.strength,
                                candidates, int(answer.get("iterations") or 0), float(answer.get("seconds") or 0.0),
                                int(answer.get("peak_kb") or 0), fallback)
        with self._lock:
            self._explained[bid] = explained
            c = self.counters
            c.moves += 1
            c.fallbacks += bool(fallback)
            c.peak_kb = max(c.peak_kb, explained.peak_kb)
            c.move_seconds.append(time.monotonic() - started)
        self.notify(bid)

    def _think(self, bid: str, turn: Turn) -> Answer | None:
        """The child's answer, an ``{"error": ...}`` when it failed, or None when the battle changed."""
        seat, rec = turn.seat, turn.rec
        job = Job(rec.ruleset, turn.game.state_to_json(turn.state), seat.side, seat.policy, seat.strength,
                  seat.seconds, seat.seed_at(rec.position, rec.seed), self.memory_bytes)
        while not self._slots.acquire(timeout=WATCH_EVERY):  # more bots than slots: wait, watching the battle
            if self._closed or self.store.revision(bid) != rec.revision:
                return None
        try:
            return self._watch(bid, rec.revision, job)
        finally:
            self._slots.release()

    def _watch(self, bid: str, revision: int, job: Job) -> Answer | None:
        def unchanged() -> bool:
            return not self._closed and self.store.revision(bid) == revision

        limit = job.seconds + self.grace
        found = self.workers.run(job, limit, unchanged, WATCH_EVERY)
        if found is not None and found.get("error") == "timeout":
            with self._lock:
                self.counters.timeouts += 1
            found["error"] = f"no move within {limit:g} s"
        return found
