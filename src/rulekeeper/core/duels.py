"""Unit-against-unit duels fought many times: the interface between the lab and a game's kernel.

The balance lab (``rulekeeper.lab``) never imports a rule system. A game that can fight one
unit against another to the end, fast, offers a :class:`DuelKernel` through
``Game.duel_kernel()``; the lab splits a request's battles into chunks, hands each chunk to a
worker (serial, processes or Dask), and merges the :class:`DuelTally` objects it gets back.

Why this shape:

* **Results do not depend on the split.** A request names its battles by index
  (``start`` … ``start + count - 1``) and every battle draws from a random stream seeded by
  ``(seed, battle index)`` alone, so one chunk of 10^6 or a thousand chunks of 10^3, on any
  worker count, give the same tally, and the CSV written from it is byte-identical.
* **Tallies stream.** A tally holds counts and histograms, never one sample per battle, so
  memory does not grow with the number of simulations.
* **Merging is a sum**, commutative and associative, so chunks may finish in any order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, runtime_checkable

from .whole import WholeOdds

#: How a duel ended, as counted in :attr:`DuelTally.outcomes`.
FIRST_DESTROYS = "first destroys"
FIRST_ROUTS = "first routs"
SECOND_DESTROYS = "second destroys"
SECOND_ROUTS = "second routs"
DRAW = "draw"
OUTCOMES = (FIRST_DESTROYS, FIRST_ROUTS, SECOND_DESTROYS, SECOND_ROUTS, DRAW)
#: Which unit was deployed first (:attr:`DuelRequest.deployment`).
DEPLOYMENTS = ("random", "first")


@dataclass(frozen=True)
class DuelRequest:
    """Fight ``first`` against ``second`` in battles ``start`` … ``start + count - 1``.

    ``mode`` is ``"melee"`` (fought to the end) or ``"shoot"`` (volleys until broken or
    destroyed); ``charge`` opens a melee with ``first`` charging. ``options`` are ruleset option
    readings (name → value, as ``--option NAME=VALUE``); ``overrides`` are house-rule stat
    changes (unit name → stat name → value). ``max_rounds`` bounds a fight: reaching it is a draw.
    ``deployment`` says which unit was deployed first, which in games that order turns by it
    acts first when nothing else decides: ``"random"`` (drawn for each battle from its own
    stream, so a mirror matchup is even) or ``"first"`` (always the first unit).
    """

    first: str
    second: str
    first_level: int = 1
    second_level: int = 1
    mode: str = "melee"
    charge: bool = False
    seed: int = 0
    start: int = 0
    count: int = 1000
    options: Mapping[str, str] = field(default_factory=dict)
    overrides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    max_rounds: int = 100
    deployment: str = "random"


class DuelTallyJson(TypedDict):
    """A :class:`DuelTally` as JSON (the lab's sweep cells): counts keyed by outcome, rounds and survivors."""

    battles: int
    method: str
    outcomes: dict[str, int]
    rounds: dict[str, int]
    first_survivors: dict[str, int]
    second_survivors: dict[str, int]


@dataclass
class DuelTally:
    """What a number of duels produced: outcome counts and histograms (never raw samples).

    ``rounds`` counts battles by the number of rounds they took; ``first_survivors`` and
    ``second_survivors`` count battles by the models (or strength) each side had left.
    ``method`` says how the numbers were made ("monte carlo (numba kernel)", "exact", …).
    """

    battles: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    first_survivors: Counter[int] = field(default_factory=Counter)
    second_survivors: Counter[int] = field(default_factory=Counter)
    method: str = "monte carlo"

    def merged(self, other: DuelTally) -> DuelTally:
        """The tally of both sets of battles (a sum; the order of merging does not matter)."""
        if other.method != self.method and self.battles and other.battles:
            raise ValueError(f"cannot merge a {self.method!r} tally with a {other.method!r} one")
        return DuelTally(
            battles=self.battles + other.battles,
            outcomes=self.outcomes + other.outcomes,
            rounds=self.rounds + other.rounds,
            first_survivors=self.first_survivors + other.first_survivors,
            second_survivors=self.second_survivors + other.second_survivors,
            method=self.method if self.battles else other.method,
        )

    def to_json(self) -> DuelTallyJson:
        """A JSON form with sorted keys, so equal tallies serialise to equal bytes."""
        return {
            "battles": self.battles,
            "method": self.method,
            "outcomes": {name: self.outcomes[name] for name in OUTCOMES if self.outcomes[name]},
            "rounds": {str(key): self.rounds[key] for key in sorted(self.rounds)},
            "first_survivors": {str(key): self.first_survivors[key] for key in sorted(self.first_survivors)},
            "second_survivors": {str(key): self.second_survivors[key] for key in sorted(self.second_survivors)},
        }

    @classmethod
    def from_json(cls, data: DuelTallyJson) -> DuelTally:
        return cls(
            battles=int(data["battles"]),
            method=str(data["method"]),
            outcomes=Counter({str(key): int(value) for key, value in data["outcomes"].items()}),
            rounds=Counter({int(key): int(value) for key, value in data["rounds"].items()}),
            first_survivors=Counter({int(key): int(value) for key, value in data["first_survivors"].items()}),
            second_survivors=Counter({int(key): int(value) for key, value in data["second_survivors"].items()}),
        )


@runtime_checkable
class DuelKernel(Protocol):
    """A game's fast unit-against-unit fights, as the lab sees them."""

    def units(self) -> list[str]:
        """The names of the units that can duel, in a stable order."""
        ...

    def levels(self) -> tuple[int, int]:
        """The lowest and highest level a unit may have (``(1, 1)`` for games without levels)."""
        ...

    def points(self, unit: str, level: int) -> float:
        """The unit's points cost at ``level`` (for points efficiency)."""
        ...

    def check(self, request: DuelRequest) -> None:
        """Refuse a request that cannot be fought (unknown unit, impossible level, bad option)
        with a typed :class:`~rulekeeper.core.errors.RulekeeperError` naming what is wrong."""
        ...

    def duel(self, request: DuelRequest) -> DuelTally:
        """Fight the request's battles on the fast path (a specialised kernel where there is one)."""
        ...

    def reference_duel(self, request: DuelRequest) -> DuelTally:
        """Fight the same battles with the reference rules engine (slow; for cross-checks and
        the benchmark's kernel ÷ reference ratio). Equal in distribution to :meth:`duel`."""
        ...


def whole_opening_of(kernel: object, request: DuelRequest) -> WholeOdds | None:
    """The whole-action odds of the duel's opening action (the first unit's charge, fight or volley), computed by
    the game's own whole-odds functions when its kernel offers ``whole_opening(request)``; None otherwise.

    Optional, like :func:`~rulekeeper.core.whole.whole_odds_of`: a kernel without it (or an action it does
    not cover) gives None, and the lab says so instead of showing numbers it does not have.
    """
    method = getattr(kernel, "whole_opening", None)
    if method is None:
        return None
    odds = method(request)
    if odds is not None and not isinstance(odds, WholeOdds):
        raise TypeError(f"whole_opening returned {type(odds).__name__}, not WholeOdds")
    return odds
