"""Whole-action odds against a seeded Monte Carlo of the engine's own ``apply`` (issue 27)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulekeeper.core.game import Game
from rulekeeper.core.rng import RngState
from rulekeeper.core.whole import WholeOdds


def outcomes(g: Game, state: Any, action: dict[str, Any], runs: int, seed: int = 5000) -> list[Any]:
    """The states ``apply`` leaves, the state reseeded for each run."""
    return [g.apply(replace(state, rng=RngState.from_seed(seed + k)), action).state for k in range(runs)]


def frequencies(states: list[Any], measure: Callable[[Any], Any]) -> dict[str, float]:
    """The frequency of each ``measure`` of the states (as text, the measures' outcome names)."""
    counts: dict[str, int] = {}
    for out in states:
        key = str(measure(out))
        counts[key] = counts.get(key, 0) + 1
    return {key: n / len(states) for key, n in counts.items()}


def agree(whole: WholeOdds, key: str, frequencies: dict[str, float], runs: int) -> int:
    """Each outcome of the measure within 4 sigma of the sampled frequency; returns the outcomes compared."""
    shown = dict(whole.measure(key).outcomes)
    for outcome in set(shown) | set(frequencies):
        p, f = shown.get(outcome, 0.0), frequencies.get(outcome, 0.0)
        sigma = math.sqrt(max(p * (1 - p), 1.0 / runs) / runs)
        assert abs(f - p) <= 4 * sigma + whole.error_bound, (key, outcome, p, f)
    return len(shown)
