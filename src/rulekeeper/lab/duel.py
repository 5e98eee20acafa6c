"""One matchup fought many times: a duel request checked, and its tally read as probabilities.

``first wins`` is the second unit destroyed or routed; ``second wins`` the reverse. A tally
whose method starts with ``exact`` holds exact weights, not samples: its numbers have no
interval. The tally's CSV (:func:`tally_csv`) is the byte-level record the reproducibility
tests compare across backends.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from rulekeeper.core.duels import (
    DEPLOYMENTS,
    DRAW,
    FIRST_DESTROYS,
    FIRST_ROUTS,
    OUTCOMES,
    SECOND_DESTROYS,
    SECOND_ROUTS,
    DuelKernel,
    DuelRequest,
    DuelTally,
    DuelTallyJson,
)
from rulekeeper.core.errors import UnknownNameError

from .errors import LabRequestError
from .stats import Proportion, SpreadJson, histogram_mean, histogram_quantile

MODES = ("melee", "shoot")


def parse_levels(text: str | None, kernel: DuelKernel) -> tuple[int, int]:
    """``--levels 1,10`` (first, second) or ``--levels 5`` (both), within the kernel's levels."""
    low, high = kernel.levels()
    if text is None:
        return low, low
    parts = [p.strip() for p in text.split(",")]
    try:
        levels = [int(p) for p in parts]
    except ValueError:
        raise LabRequestError(f"--levels {text!r}: give whole numbers, e.g. 1,10", levels=text) from None
    if len(levels) == 1:
        levels *= 2
    if len(levels) != 2:
        raise LabRequestError(f"--levels {text!r}: give one level, or two (first, second)", levels=text)
    for level in levels:
        if not low <= level <= high:
            raise LabRequestError(f"--levels {text!r}: level {level} is impossible here (levels {low} to {high})",
                                  levels=text, low=low, high=high)
    return levels[0], levels[1]


def unit_name(kernel: DuelKernel, name: str) -> str:
    """The kernel's spelling of unit ``name`` (case and spacing forgiven); a typed error naming it."""
    units = kernel.units()
    wanted = " ".join(name.split()).lower()
    for unit in units:
        if unit.lower() == wanted:
            return unit
    raise UnknownNameError("unit", name, units)


def duel_request(kernel: DuelKernel, first: str, second: str, *, levels: str | None = None, sims: int = 10000,
                 mode: str = "melee", charge: bool = False, seed: int = 0,
                 options: Mapping[str, str] | None = None,
                 overrides: Mapping[str, Mapping[str, object]] | None = None,
                 deployment: str = "random") -> DuelRequest:
    """A request the kernel accepts, or a typed error naming what is wrong."""
    if sims < 1:
        raise LabRequestError(f"--sims must be at least 1, got {sims}", sims=sims)
    if seed < 0:
        raise LabRequestError(f"--seed must be 0 or more, got {seed}", seed=seed)
    if mode not in MODES:
        raise UnknownNameError("duel mode", mode, MODES)
    if deployment not in DEPLOYMENTS:
        raise UnknownNameError("deployment order", deployment, DEPLOYMENTS)
    first_level, second_level = parse_levels(levels, kernel)
    changed = {unit_name(kernel, unit): dict(stats) for unit, stats in (overrides or {}).items()}
    request = DuelRequest(unit_name(kernel, first), unit_name(kernel, second), first_level, second_level, mode,
                          charge, seed, 0, sims, dict(options or {}), changed, deployment=deployment)
    kernel.check(request)
    return request


def is_exact(tally: DuelTally) -> bool:
    return tally.method.lower().startswith("exact")


class DuelShareJson(TypedDict):
    probability: float
    low95: float
    high95: float


class DuelReportJson(TypedDict):
    """What ``lab duel --json`` prints: the request, the shares with their 95 % intervals, spreads and the tally."""

    first: str
    second: str
    levels: list[int]
    mode: str
    charge: bool
    deployment: str
    seed: int
    battles: int
    method: str
    exact: bool
    results: dict[str, DuelShareJson]
    outcomes: dict[str, int]
    rounds: SpreadJson
    first_survivors: SpreadJson
    second_survivors: SpreadJson
    tally: DuelTallyJson


@dataclass(frozen=True)
class DuelSummary:
    """The probabilities a tally gives, with 95 % Wilson intervals (none when exact)."""

    tally: DuelTally

    def share(self, *outcomes: str) -> Proportion:
        return Proportion(sum(self.tally.outcomes[o] for o in outcomes), self.tally.battles, is_exact(self.tally))

    def rows(self) -> list[tuple[str, Proportion]]:
        return [
            ("first wins", self.share(FIRST_DESTROYS, FIRST_ROUTS)),
            ("  by destroying", self.share(FIRST_DESTROYS)),
            ("  by routing", self.share(FIRST_ROUTS)),
            ("second wins", self.share(SECOND_DESTROYS, SECOND_ROUTS)),
            ("  by destroying", self.share(SECOND_DESTROYS)),
            ("  by routing", self.share(SECOND_ROUTS)),
            ("draw", self.share(DRAW)),
        ]

    def score(self) -> float:
        """The first unit's score: its wins plus half the draws (0.5 is an even matchup)."""
        return self.share(FIRST_DESTROYS, FIRST_ROUTS).estimate + self.share(DRAW).estimate / 2

    def to_json(self, request: DuelRequest) -> DuelReportJson:
        t = self.tally

        def spread(hist: Mapping[int, int]) -> SpreadJson:
            return {"mean": histogram_mean(hist), "median": histogram_quantile(hist, 0.5),
                    "p05": histogram_quantile(hist, 0.05), "p95": histogram_quantile(hist, 0.95)}

        return {
            "first": request.first, "second": request.second, "levels": [request.first_level, request.second_level],
            "mode": request.mode, "charge": request.charge, "deployment": request.deployment,
            "seed": request.seed, "battles": t.battles,
            "method": t.method, "exact": is_exact(t),
            "results": {label.strip(): {"probability": p.estimate, "low95": p.interval[0], "high95": p.interval[1]}
                        for label, p in self.rows() if not label.startswith(" ")},
            "outcomes": {o: t.outcomes[o] for o in OUTCOMES},
            "rounds": spread(t.rounds),
            "first_survivors": spread(t.first_survivors),
            "second_survivors": spread(t.second_survivors),
            "tally": t.to_json(),
        }


def tally_rows(tally: DuelTally) -> list[tuple[str, str, int]]:
    """``(histogram, key, battles)`` rows in a fixed order: outcomes, rounds, survivors."""
    rows: list[tuple[str, str, int]] = [("battles", "", tally.battles)]
    rows += [("outcome", o, tally.outcomes[o]) for o in OUTCOMES]
    for name, hist in (("rounds", tally.rounds), ("first_survivors", tally.first_survivors),
                       ("second_survivors", tally.second_survivors)):
        rows += [(name, str(k), hist[k]) for k in sorted(hist)]
    return rows


def csv_text(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """CSV with ``\\n`` line ends (the same bytes on every platform)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def tally_csv(tally: DuelTally) -> str:
    return csv_text(("histogram", "key", "battles"), tally_rows(tally))
