"""The whole fray before it is fought: every fighter's end, the kills on each side, fast (issue 27).

:func:`fray_ends` picks the computation:

* ``exact``: the engine's own steps (:func:`~.fray.fray_branches`) walked forward in floating point, each
  state once, in order of the dice left (every attack spends one, so no state comes back); the error is
  floating-point rounding only. Used while the state space is small: at most :data:`EXACT_STATES` states
  (a 2-against-2 has about 2 000 states, a 3-against-2 about 6 000). A plain fray (no ability the policy
  decides, no held die: :func:`~.fray_kernel.supported`, every fray of the shipped scenarios) is walked by
  :mod:`.fray_walk` on integer tuples, the same states in the same order and the same floats bit for bit;
* ``estimate``: the numpy kernel (:mod:`.fray_kernel`) plays :data:`KERNEL_RUNS` frays side by side; the
  error stated is the 95 % half-width of the least certain probability, 1.96·√(¼/runs);
* ``estimate`` by the engine's own resolutions (:func:`~.fray.fray_monte_carlo`, :data:`SAMPLED_RUNS` runs)
  for a large fray with an ability the kernel does not model.

:func:`fray_whole_odds` turns the ends into a :class:`~rulekeeper.core.whole.WholeOdds`: the enemies killed,
our own losses, each fighter's HP left, and the events a player decides on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rulekeeper.core.whole import WholeMeasure, WholeOdds

from .fray import fray_branches, fray_method, fray_monte_carlo, initiative_odds_of
from .fray_kernel import kernel_ends, supported
from .fray_walk import TooManyStates, plain_fray_floats
from .melee import End, Fray, Melee

#: States the exact walk may visit before the estimate takes over: about 0.035 ms each for the engine walk on
#: this machine (0.15 ms loaded), 4–10 µs for a plain fray's (:mod:`.fray_walk`). Kept as it was when the walk got
#: faster, so every preview shows the same numbers, labelled the same way.
EXACT_STATES = 2_500
#: Frays the numpy kernel plays for an estimate (±0.98 % at 95 % for any probability, as Ex illis' sampled
#: previews): a 4 against 4 in about 0.6 s of CPU (32,768 runs took 1.1–1.3 s, over the issue's second).
KERNEL_RUNS = 10_000
#: The engine's own resolutions when the kernel cannot model the fray (±2.2 % at 95 %).
SAMPLED_RUNS = 2_000
#: The seed of every estimate (the same fray, the same numbers, in the CLI and the web preview).
SEED = 27


@dataclass(frozen=True)
class FrayEnds:
    """Each end of a fray (every fighter's status) with its probability, and how sure the numbers are."""

    odds: dict[End, float]
    method: str  # "exact" or "estimate"
    error_bound: float
    note: str


def _dice_left(s: Melee) -> int:
    return sum(s.attack) + sum(s.defence) + sum(s.reserve)


def exact_fray_floats(fray: Fray, budget: int = EXACT_STATES, winner: int | None = None) -> dict[End, float]:
    """Every end of the fray with its probability, in floats: a plain fray (:func:`~.fray_kernel.supported`)
    by :func:`~.fray_walk.plain_fray_floats`, several times faster and bit for bit the same, any other (or one
    whose initiative is already ``winner``'s) by :func:`engine_fray_floats`. Raises :class:`TooManyStates` past
    ``budget`` states."""
    if supported(fray) and winner is None:
        return plain_fray_floats(fray, budget)
    return engine_fray_floats(fray, budget, winner)


def engine_fray_floats(fray: Fray, budget: int = EXACT_STATES, winner: int | None = None) -> dict[End, float]:
    """Every end of the fray with its probability, the engine's branches walked forward in floats; from camp
    ``winner``'s opening when its INI tests are already rolled (a battle's fight whose players place their dice).

    Every attack spends a die (a parry's gain or a turned defence die replaces one, never more), so taking the
    states with the most dice left first reaches each state after all its parents. Raises
    :class:`TooManyStates` past ``budget`` states."""
    p_a = float(initiative_odds_of(fray)) if winner is None else 1.0 - winner
    mass: defaultdict[Melee, float] = defaultdict(float)
    layers: defaultdict[int, list[Melee]] = defaultdict(list)
    for winner, p in ((0, p_a), (1, 1.0 - p_a)):
        if p == 0.0:
            continue
        s = fray.opening(winner)
        if s not in mass:
            layers[_dice_left(s)].append(s)
        mass[s] += p
    ends: defaultdict[End, float] = defaultdict(float)
    seen = 0
    while layers:
        for s in layers.pop(max(layers)):
            m = mass.pop(s)
            seen += 1
            if seen > budget:
                raise TooManyStates(seen)
            branches = fray_branches(fray, s)
            if branches is None:
                ends[s.end()] += m
                continue
            for nxt, q in branches:
                if nxt not in mass:
                    layers[_dice_left(nxt)].append(nxt)
                mass[nxt] += m * float(q)
    return dict(sorted(ends.items(), key=lambda kv: -kv[1]))


def half_width(runs: int) -> float:
    """The 95 % half-width of a sampled probability at its least certain (p = ½)."""
    return 1.96 * math.sqrt(0.25 / runs)


#: The last frays computed (the web keeper asks for a fight's preview and its whole odds of one state).
_RECENT: dict[str, FrayEnds] = {}


def fray_ends(fray: Fray, method: str = "auto", winner: int | None = None) -> FrayEnds:
    """The ends of ``fray``: exact when small enough (or ``method="exact"``), else an estimate; the same fray
    (its fighters as they enter, who fights whom, the table, the placements, the camp that won initiative when it
    is known) is computed once among the last 32."""
    key = repr((fray.camps, sorted(fray.engaged or ()), fray.placement, fray.table, method, winner))
    found = _RECENT.get(key)
    if found is None:
        if len(_RECENT) >= 32:
            _RECENT.pop(next(iter(_RECENT)))
        found = _RECENT[key] = _fray_ends(fray, method, winner)
    return found


def _fray_ends(fray: Fray, method: str, winner: int | None = None) -> FrayEnds:
    small = fray_method(fray, "auto") == "exact"  # the duel's bound: at most 4 fighters and 14 dice
    if method == "exact" or (method == "auto" and small):
        try:
            odds = exact_fray_floats(fray, EXACT_STATES if method == "auto" else 10**7, winner)
            return FrayEnds(odds, "exact", 0.0, "every branch of the engine's fray walked")
        except TooManyStates:
            pass
    if winner is not None:  # the kernel rolls initiative itself: the engine's resolutions from the opening
        return FrayEnds(dict(fray_monte_carlo(fray, SAMPLED_RUNS, SEED, winner).odds), "estimate",
                        half_width(SAMPLED_RUNS), f"{SAMPLED_RUNS:,} resolutions by the engine, seed {SEED}")
    if supported(fray):
        return FrayEnds(kernel_ends(fray, KERNEL_RUNS, SEED), "estimate", half_width(KERNEL_RUNS),
                        f"{KERNEL_RUNS:,} frays played side by side by the numpy kernel, seed {SEED}")
    return FrayEnds(dict(fray_monte_carlo(fray, SAMPLED_RUNS, SEED).odds), "estimate", half_width(SAMPLED_RUNS),
                    f"{SAMPLED_RUNS:,} resolutions by the engine, seed {SEED}: an ability the kernel does not model")


def fray_whole_odds(fray: Fray, names: Sequence[str] | None = None, ours: int = 0,
                    method: str = "auto", winner: int | None = None) -> WholeOdds:
    """The whole fray as measures: enemies killed, own losses, each fighter's HP left (the enemies first), and
    the events "every enemy killed", "we lose everyone", "no one killed". ``ours``: the camp that acts;
    ``winner``: the camp that won initiative, when its INI tests are rolled."""
    found = fray_ends(fray, method, winner)
    labels = list(names) if names is not None else [f.name for f in fray.fighters]
    camp = fray.camp_of
    enemies = [k for k in range(len(labels)) if camp[k] != ours]
    friends = [k for k in range(len(labels)) if camp[k] == ours]

    def killed(group: list[int]) -> list[tuple[int, float]]:
        acc: defaultdict[int, float] = defaultdict(float)
        for end, p in found.odds.items():
            acc[sum(end[k] == "killed" for k in group)] += p
        return [(k, acc[k]) for k in range(len(group) + 1)]

    measures = [WholeMeasure.from_weights("enemies_killed", "enemies killed", killed(enemies)),
                WholeMeasure.from_weights("own_losses", "our losses", killed(friends))]
    for k in (*enemies, *friends):
        acc: defaultdict[int, float] = defaultdict(float)
        for end, p in found.odds.items():
            acc[_hp_left(end[k])] += p
        measures.append(WholeMeasure.from_weights(f"hp_{k}", f"{labels[k]}: HP left",
                                                  [(hp, acc[hp]) for hp in sorted(acc)]))
    events = (("every enemy killed", _total(found, lambda e: all(e[k] == "killed" for k in enemies))),
              ("all of ours killed", _total(found, lambda e: all(e[k] == "killed" for k in friends))),
              ("no one killed", _total(found, lambda e: "killed" not in e)),
              *((f"{labels[k]} killed", _total(found, lambda e, k=k: e[k] == "killed")) for k in (*enemies, *friends)))
    return WholeOdds(tuple(measures), events, found.method, found.error_bound, found.note)


def _hp_left(status: str) -> int:
    return 0 if status == "killed" else int(status.split()[0])


def _total(found: FrayEnds, test: object) -> float:
    assert callable(test)
    return min(1.0, math.fsum(p for end, p in found.odds.items() if test(end)))
