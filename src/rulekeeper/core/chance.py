"""Chance requests and results that carry their full odds.

A ruleset never calls a random function directly. It *requests* a draw by listing
every outcome with its probability (or weight), and :class:`Fate` answers with one
outcome, drawn from the injected :class:`~rulekeeper.core.rng.Rng`. Each request and
its result are recorded, so any roll can be shown with its odds, re-checked from
the uniform number that decided it, and replayed from the starting RNG state
(OpenSpiel lists chance outcomes as ``(outcome, probability)`` the same way).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from .errors import InvalidStatError, ReplayMismatchError
from .rng import Rng, RngState


class ChanceRequestRecord(TypedDict):
    """A chance request as the log stores it: a discrete draw lists its ``odds`` (``[outcome, probability]``
    pairs, and the ``weights`` it was given), a uniform draw its range."""

    label: str
    kind: str
    odds: NotRequired[list[list[str | float]]]
    weights: NotRequired[list[float]]
    low: NotRequired[float]
    high: NotRequired[float]
    explain: NotRequired[list[str]]


class ChanceRecord(ChanceRequestRecord):
    """A chance result as the log stores it (the ``"chance"`` list of a record): the request, the uniform
    ``u`` that decided it and what it chose (a discrete draw's ``outcome`` and ``probability``, a uniform
    draw's ``value``)."""

    u: NotRequired[float]  # always written, after the request's keys (so not required while they are filled)
    outcome: NotRequired[str]
    probability: NotRequired[float]
    value: NotRequired[float]


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """What was asked: every outcome with its probability, and why.

    ``kind`` is ``"discrete"`` (a weighted or probability list) or ``"uniform"``
    (a continuous draw in ``[low, high)``, e.g. the ±20 % damage spread).
    """

    label: str
    kind: str
    outcomes: tuple[str, ...] = ()
    probabilities: tuple[float, ...] = ()
    weights: tuple[float, ...] = ()
    low: float = 0.0
    high: float = 1.0
    explain: tuple[str, ...] = ()

    def odds(self) -> list[tuple[str, float]]:
        return list(zip(self.outcomes, self.probabilities, strict=True))

    def pick(self, u: float) -> int:
        """The outcome index a uniform ``u`` in [0, 1) selects (inverse CDF)."""
        acc = 0.0
        last = -1
        for i, p in enumerate(self.probabilities):
            if p <= 0.0:
                continue
            last = i
            acc += p
            if u < acc:
                return i
        return last

    def to_dict(self) -> ChanceRequestRecord:
        d: ChanceRequestRecord = {"label": self.label, "kind": self.kind}
        self._fill(d)
        return d

    def _fill(self, d: ChanceRequestRecord) -> None:
        """The keys after ``label`` and ``kind``, in the order the log has always stored them."""
        if self.kind == "discrete":
            d["odds"] = [[o, p] for o, p in self.odds()]
            if self.weights:
                d["weights"] = list(self.weights)
        else:
            d["low"], d["high"] = self.low, self.high
        if self.explain:
            d["explain"] = list(self.explain)


def discrete(
    label: str,
    weighted: Iterable[tuple[str, float]],
    explain: Sequence[str] = (),
) -> ChanceRequest:
    """Build a discrete request from (outcome, weight) pairs; weights need not sum to 1."""
    pairs = list(weighted)
    if not pairs:
        raise InvalidStatError(f"{label}: a draw needs at least one outcome", label=label)
    names = tuple(o for o, _ in pairs)
    if len(set(names)) != len(names):
        raise InvalidStatError(f"{label}: outcome names must be unique: {names}", label=label)
    weights = tuple(float(w) for _, w in pairs)
    for o, w in zip(names, weights, strict=True):
        if not math.isfinite(w) or w < 0:
            raise InvalidStatError(f"{label}: weight of {o!r} must be finite and >= 0, got {w}", label=label)
    total = math.fsum(weights)
    if total <= 0:
        raise InvalidStatError(f"{label}: every outcome has weight 0", label=label)
    probs = tuple(w / total for w in weights)
    return ChanceRequest(label, "discrete", names, probs, weights, explain=tuple(explain))


@dataclass(frozen=True, slots=True)
class ChanceResult:
    """What fate answered: the outcome and the uniform number ``u`` that chose it."""

    request: ChanceRequest
    u: float
    index: int = -1
    value: float = 0.0

    @property
    def outcome(self) -> str:
        return self.request.outcomes[self.index] if self.request.kind == "discrete" else f"{self.value:.6g}"

    @property
    def probability(self) -> float:
        return self.request.probabilities[self.index] if self.request.kind == "discrete" else 1.0

    def recheck(self) -> None:
        """Recompute the outcome from ``u``; raise if it differs from what was recorded."""
        if self.request.kind == "discrete":
            if self.request.pick(self.u) != self.index:
                raise ReplayMismatchError(f"{self.request.label}: u={self.u} does not select {self.outcome!r}")
        else:
            expect = self.request.low + (self.request.high - self.request.low) * self.u
            if expect != self.value:
                raise ReplayMismatchError(f"{self.request.label}: u={self.u} does not give {self.value}")

    def to_dict(self) -> ChanceRecord:
        d: ChanceRecord = {"label": self.request.label, "kind": self.request.kind}
        self.request._fill(d)
        d["u"] = self.u
        if self.request.kind == "discrete":
            d["outcome"] = self.outcome
            d["probability"] = self.probability
        else:
            d["value"] = self.value
        return d


@dataclass
class Fate:
    """The only door to randomness: draws from an :class:`Rng` and records everything."""

    rng: Rng
    records: list[ChanceResult] = field(default_factory=list)
    start: RngState | None = None

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = self.rng.state

    @classmethod
    def from_seed(cls, seed: int) -> Fate:
        return cls(Rng.from_seed(seed))

    @classmethod
    def from_state(cls, state: RngState) -> Fate:
        return cls(Rng(state))

    def draw(self, request: ChanceRequest) -> ChanceResult:
        u = self.rng.random()
        if request.kind == "discrete":
            result = ChanceResult(request, u, index=request.pick(u))
        else:
            result = ChanceResult(request, u, value=request.low + (request.high - request.low) * u)
        self.records.append(result)
        return result

    def choose(self, label: str, weighted: Iterable[tuple[str, float]], explain: Sequence[str] = ()) -> str:
        """Weighted random draw among named outcomes; returns the outcome name."""
        return self.draw(discrete(label, weighted, explain)).outcome

    def chance(self, label: str, p: float, yes: str = "yes", no: str = "no") -> bool:
        """A yes/no draw with probability ``p`` of ``yes`` (clamped to [0, 1])."""
        if not math.isfinite(p):
            raise InvalidStatError(f"{label}: probability must be finite, got {p}", label=label)
        p = min(1.0, max(0.0, p))
        return self.draw(discrete(label, [(yes, p), (no, 1.0 - p)])).outcome == yes

    def uniform(self, label: str, low: float, high: float) -> float:
        if not (math.isfinite(low) and math.isfinite(high)) or high < low:
            raise InvalidStatError(f"{label}: bad uniform range [{low}, {high})", label=label)
        return self.draw(ChanceRequest(label, "uniform", low=low, high=high)).value

    @property
    def state(self) -> RngState:
        return self.rng.state

    def record_dicts(self) -> list[ChanceRecord]:
        return [r.to_dict() for r in self.records]


def verify_replay(start: RngState, records: Sequence[ChanceResult]) -> None:
    """Replay ``records`` from ``start``: each ``u`` must come out again and pick the same outcome."""
    rng = Rng(start)
    for rec in records:
        u = rng.random()
        if u != rec.u:
            raise ReplayMismatchError(f"{rec.request.label}: replay drew u={u}, record says {rec.u}")
        rec.recheck()
