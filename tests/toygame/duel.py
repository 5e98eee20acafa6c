"""A toy duel kernel for the balance lab's tests: two bands of models trading blows.

Each round every standing model of each side strikes once and hits with its band's chance
(plus 2 % per level above 1); hits land at the same time. A band that has lost more than half
its models tests its nerve each round it loses any (it holds with ``nerve``), and routs when it
fails. Destroyed first, then routed, decide; both destroyed together, or ``max_rounds``, is a
draw. Every battle draws from ``numpy``'s PCG64 seeded by ``(seed, battle index)``, so any split
of the battles gives the same tally. The race's one option (``bust``) is accepted and has no
effect here. House-rule overrides may change ``models``, ``hit``, ``nerve``, ``points``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from rulekeeper.core.duels import (
    DRAW,
    FIRST_DESTROYS,
    FIRST_ROUTS,
    SECOND_DESTROYS,
    SECOND_ROUTS,
    DuelRequest,
    DuelTally,
)
from rulekeeper.core.errors import InvalidStatError, UnknownNameError


@dataclass(frozen=True)
class Band:
    models: int
    hit: float
    nerve: float
    points: float


BANDS = {
    "Pikes": Band(10, 0.30, 0.7, 40.0),
    "Archers": Band(8, 0.25, 0.5, 30.0),
    "Knights": Band(6, 0.55, 0.9, 60.0),
}
LEVELS = (1, 10)
STATS = ("models", "hit", "nerve", "points")
BUSTS = ("one", "none")


class ToyDuelKernel:
    """The toy race's :class:`~rulekeeper.core.duels.DuelKernel` (stateless, like a real one)."""

    calls = 0  # battles fought in this process (a resumed sweep's test counts them)

    def units(self) -> list[str]:
        return list(BANDS)

    def levels(self) -> tuple[int, int]:
        return LEVELS

    def points(self, unit: str, level: int) -> float:
        return BANDS[unit].points * (1 + 0.1 * (level - 1))

    def check(self, request: DuelRequest) -> None:
        for unit in (request.first, request.second, *request.overrides):
            if unit not in BANDS:
                raise UnknownNameError("unit", unit, BANDS)
        for level in (request.first_level, request.second_level):
            if not LEVELS[0] <= level <= LEVELS[1]:
                raise InvalidStatError(f"level {level} is impossible (1 to 10)", field="level")
        for unit, stats in request.overrides.items():
            for stat in stats:
                if stat not in STATS:
                    raise UnknownNameError(f"stat of {unit}", stat, STATS)
        for name, value in request.options.items():
            if name != "bust":
                raise UnknownNameError("option", name, ["bust"])
            if value not in BUSTS:
                raise UnknownNameError("value of bust", value, BUSTS)

    def band(self, request: DuelRequest, unit: str, level: int) -> Band:
        band = replace(BANDS[unit], **dict(request.overrides.get(unit, {})))
        return replace(band, hit=min(1.0, band.hit + 0.02 * (level - 1)))

    def duel(self, request: DuelRequest) -> DuelTally:
        self.check(request)
        first = self.band(request, request.first, request.first_level)
        second = self.band(request, request.second, request.second_level)
        tally = DuelTally(method="monte carlo (toy kernel)")
        for index in range(request.start, request.start + request.count):
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([request.seed, index])))
            outcome, rounds, left_first, left_second = fight(rng, first, second, request.max_rounds)
            tally.outcomes[outcome] += 1
            tally.rounds[rounds] += 1
            tally.first_survivors[left_first] += 1
            tally.second_survivors[left_second] += 1
        tally.battles = request.count
        type(self).calls += request.count
        return tally

    def reference_duel(self, request: DuelRequest) -> DuelTally:
        return self.duel(request)


def fight(rng: np.random.Generator, first: Band, second: Band, max_rounds: int) -> tuple[str, int, int, int]:
    a, b = first.models, second.models
    for rounds in range(1, max_rounds + 1):
        hits_a, hits_b = int(rng.binomial(a, first.hit)), int(rng.binomial(b, second.hit))
        a, b = max(0, a - hits_b), max(0, b - hits_a)
        if a == 0 or b == 0:
            return (DRAW if a == b else FIRST_DESTROYS if b == 0 else SECOND_DESTROYS), rounds, a, b
        routs_a = hits_b > 0 and 2 * a < first.models and rng.random() >= first.nerve
        routs_b = hits_a > 0 and 2 * b < second.models and rng.random() >= second.nerve
        if routs_a or routs_b:
            return (DRAW if routs_a and routs_b else FIRST_ROUTS if routs_b else SECOND_ROUTS), rounds, a, b
    return DRAW, max_rounds, a, b


class DyingDuelKernel(ToyDuelKernel):
    """A kernel whose worker process dies mid-chunk (the lab must say so, not print a traceback)."""

    def duel(self, request: DuelRequest) -> DuelTally:
        import os

        os._exit(3)
