"""Exact distributions of the draws a resolution makes, and the bookkeeping of a weighted state set.

The ±20 % damage spread is a continuous uniform draw, but the damage dealt is rounded half up
to a whole number (:func:`..damage.roll`), so its distribution is finite and exact: each whole
number gets the share of the spread interval that rounds to it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, TypeVar

from .. import damage as dmg

if TYPE_CHECKING:
    from ..combatants import Combatant

K = TypeVar("K", bound=Hashable)

#: States whose probability falls below this are dropped; their mass is the error bound.
PRUNE = 1e-10
#: At most this many states are carried from one draw to the next: beyond it the least likely are
#: dropped (their mass, too, goes into the error bound). It keeps a preview within a second.
BUDGET = 1500


@lru_cache(maxsize=4096)
def damage_odds(final: float, multiplier: float = 1.0, divisor: float = 1.0) -> tuple[tuple[int, float], ...]:
    """(whole damage, probability) of ``damage.roll(final, multiplier, divisor)``.

    ``roll`` returns ``round_half_up(v × s)`` with ``s`` uniform on [0.8, 1.2) and
    ``v = final × multiplier / divisor``: damage ``k`` comes from ``s`` in
    [(k − ½)/v, (k + ½)/v), intersected with the spread.
    """
    v = final * multiplier / divisor
    lo, hi = 1 - dmg.SPREAD, 1 + dmg.SPREAD
    if v <= 0:
        return ((0, 1.0),)
    k_lo, k_hi = dmg.bounds(final, multiplier, divisor)
    out = []
    for k in range(k_lo, k_hi + 1):
        a = max(lo, (k - 0.5) / v)
        b = min(hi, (k + 0.5) / v)
        if b > a:
            out.append((k, (b - a) / (hi - lo)))
    total = math.fsum(p for _, p in out)
    return tuple((k, p / total) for k, p in out)


@lru_cache(maxsize=65536)
def wounds(hp: float, final: float, multiplier: float = 1.0, divisor: float = 1.0
           ) -> tuple[tuple[float, bool, float], ...]:
    """(hit points left, killed, probability) of a miniature with ``hp`` struck for :func:`damage_odds`:
    every amount that kills merges into one outcome (a dead miniature is dead whatever the excess)."""
    out: dict[tuple[float, bool], float] = {}
    for amount, p in damage_odds(final, multiplier, divisor):
        new_hp = max(0.0, hp - amount)
        key = (new_hp, amount > 0 and new_hp <= 0)
        out[key] = out.get(key, 0.0) + p
    return tuple((h, k, p) for (h, k), p in out.items())


#: A step that reaches this many states before pruning is too big to preview in time: the action
#: is then left to its per-draw odds (a Swift Shot of eight archers into a crowded zone, say).
TOO_MANY = 60000


#: At most this many outcomes are worked out for one action (at most about 0.4 s of CPU): a preview that would
#: take more is left to the per-draw odds. A count, so the same position gets the same odds on any machine;
#: :data:`MAX_SECONDS` (wall) is only a safety net for an overloaded machine.
MAX_WORK = 25_000
MAX_SECONDS = 3.0
_work: ContextVar[list[float]] = ContextVar("whole_work")
_exact_work: ContextVar[float | None] = ContextVar("whole_exact_work", default=None)


class TooBig(Exception):
    """The computation would not finish within a preview's time."""


_begun = [0]


def start_work() -> None:
    """Start counting the states one action's computation works out (see :data:`MAX_WORK`)."""
    _begun[0] += 1
    _work.set([0.0, time.perf_counter() + MAX_SECONDS, math.inf])


def begun() -> int:
    """How many whole-action computations this process has begun (:func:`.compiled.kernels` waits for a second)."""
    return _begun[0]


def not_counted(seconds: float) -> None:
    """Leave ``seconds`` out of this action's wall clock (loading the compiled kernels, once per process: the
    safety net :data:`MAX_SECONDS` is for the computation, not for numba's start)."""
    done = _work.get(None)
    if done is not None:
        done[1] += seconds


def _check(pending: int) -> None:
    """Give up (:class:`TooBig`) past the work or time allowed to this action's computation."""
    done = _work.get(None)
    most = max(MAX_WORK, _exact_work.get() or 0.0)  # the lab (:func:`more_exact`) allows more than a preview
    if pending > most or (done is not None and (done[0] + pending > min(most, done[2])
                                                or time.perf_counter() > done[1])):
        raise TooBig(pending)


#: The exact computation of an action's last round or volley may work out this many outcomes before the same
#: draws are sampled instead (:mod:`.sampled`): a crowded zone's wounds make too many states to enumerate in
#: a preview's time. A count, not a clock, so the same position gets the same numbers on any machine.
EXACT_WORK = 2500


def exact_work() -> float:
    """The work allowed to the exact kernel before sampling: :data:`EXACT_WORK`, or what :func:`more_exact` set."""
    set_to = _exact_work.get()
    return EXACT_WORK if set_to is None else set_to


@contextmanager
def more_exact(work: float) -> Iterator[None]:
    """Within the block, the exact kernel may work out ``work`` outcomes before sampling (the lab, which is not a
    preview, waits for exact numbers where they take up to about a second)."""
    token = _exact_work.set(work)
    try:
        yield
    finally:
        _exact_work.reset(token)


@contextmanager
def allowance(work: float) -> Iterator[None]:
    """Within the block, the computation gives up (:class:`TooBig`) past ``work`` more outcomes (and within the
    action's own allowance); the action's allowance is restored after it."""
    done = _work.get(None)
    if done is None:
        yield
        return
    saved = done[2]
    done[2] = min(saved, done[0] + work)
    try:
        yield
    finally:
        done[2] = saved


#: One aftermath worked out by the engine (``finish_round``, a volley's report) counts as this many outcomes of
#: work: it costs about as much CPU as that many states of the programme.
AFTERMATH_WORK = 100


def room() -> float:
    """The work (outcomes' worth) this action's computation may still do before it gives up (inf outside one)."""
    done = _work.get(None)
    if done is None:
        return math.inf
    return min(max(MAX_WORK, _exact_work.get() or 0.0), done[2]) - done[0]


def aftermath_room(share: float = 1.0) -> int | None:
    """How many sampled outcomes may still go through the engine's aftermath within ``share`` of the room left (the
    rest kept for what follows); None when unbounded. The least likely beyond it are dropped into the error bound."""
    left = room()
    return None if left == math.inf else max(1, int(left * share / AFTERMATH_WORK) - 1)


def check_time(work: int = 0) -> None:
    """Count ``work`` (outcomes' worth) and give up if the action's computation has run past its allowance
    (between rounds and aftermaths)."""
    done = _work.get(None)
    if done is not None:
        done[0] += work
    _check(0)


class Weighted(Generic[K]):
    """A set of states with their probabilities: equal states merge, negligible ones are dropped
    (and counted in ``dropped``, the bound on the absolute error of any probability read off it)."""

    __slots__ = ("adds", "dropped", "half", "states")

    def __init__(self) -> None:
        self.states: dict[K, float] = {}
        self.dropped = 0.0
        #: a sampled set (:mod:`.sampled`): the 95 % half-width of each probability; 0 when enumerated
        self.half = 0.0
        self.adds = 0

    def add(self, key: K, p: float) -> None:
        if p <= 0.0:
            return
        self.adds += 1
        if not self.adds & 1023:
            _check(self.adds)
        self.states[key] = self.states.get(key, 0.0) + p

    def pruned(self, threshold: float = PRUNE, budget: int = BUDGET) -> Weighted[K]:
        done = _work.get(None)
        if done is not None:
            done[0] += self.adds
        _check(0)
        if len(self.states) > TOO_MANY:
            raise TooBig(len(self.states))
        out: Weighted[K] = Weighted()
        out.dropped, out.half = self.dropped, self.half
        if len(self.states) > budget:
            ranked = sorted(self.states.items(), key=lambda kv: kv[1], reverse=True)
            threshold = max(threshold, ranked[budget][1])
        for k, p in self.states.items():
            if p < threshold or (p == threshold and len(out.states) >= budget):
                out.dropped += p
            else:
                out.states[k] = p
        return out


class Zones:
    """Zones after an action (tuples of combatants, which do not hash) keyed by what tells them apart."""

    __slots__ = ("dropped", "half", "states")

    def __init__(self) -> None:
        self.states: dict[Hashable, tuple[tuple[Combatant, ...], float]] = {}
        self.dropped = 0.0
        self.half = 0.0  # the 95 % half-width of sampled parts (see :class:`Weighted`)

    def add(self, key: Hashable, zone: tuple[Combatant, ...], p: float) -> None:
        if p <= 0.0:
            return
        have = self.states.get(key)
        self.states[key] = (zone, p + (have[1] if have else 0.0))
