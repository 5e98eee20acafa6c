"""The matchup matrix: every unit against every unit, one cell per ordered pair, resumable.

Each finished cell is written at once to ``DIR/cells/`` (atomically: a temporary file then a
rename), named by the two units and a hash of everything that shapes its numbers (units,
levels, mode, charge, seed, simulations, options, overrides). A second run finds the cells it
would compute already there and reads them instead, so an interrupted sweep keeps every
finished cell, and changing any setting recomputes only what it changes. Every cell uses the
same seed: two sweeps (a house rule and the base) fight with common random numbers, which
makes their difference sharper than two independent runs would.

Points efficiency (see docs/lab.md): a cell's *score* ``s`` is the first unit's wins plus half
the draws; ``score per 100 points`` is ``100 s / points(first)``; the *even points ratio*
reads ``s`` as a Bradley–Terry contest whose strength grows in proportion to the points spent:
at points ratio ``c = points(first) / points(second)`` the odds are ``s / (1 − s)``, so the
ratio at which the odds would be even is ``c (1 − s) / s`` (below 1: the first unit is cheap
for what it does). It is blank when ``s`` is 0 or 1 (no finite ratio is measured).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from rulekeeper.core.duels import (
    DRAW,
    FIRST_DESTROYS,
    FIRST_ROUTS,
    SECOND_DESTROYS,
    SECOND_ROUTS,
    DuelKernel,
    DuelRequest,
    DuelTally,
)
from rulekeeper.core.wording import counted

from .backends import Progress, Runner, run_duel
from .duel import csv_text, unit_name
from .errors import LabRequestError
from .stats import histogram_mean, wilson

COLUMNS = ("first", "second", "first_level", "second_level", "mode", "charge", "battles", "method", "first_wins",
           "second_wins", "draws", "first_win_rate", "first_win_low95", "first_win_high95", "score", "rounds_mean",
           "first_points", "second_points", "score_per_100_points", "even_points_ratio")


class SweepPlanJson(TypedDict):
    """A :class:`SweepPlan` as ``sweep.json`` keeps it."""

    game: str
    units: list[str]
    levels: list[int]
    mode: str
    charge: bool
    sims: int
    seed: int
    options: dict[str, str]
    overrides: dict[str, dict[str, Any]]  # unit → stat → value, as the house rule's request gives them
    house_rule: str
    deployment: str


class CellSpecJson(TypedDict):
    """Everything that shapes a cell's numbers (its file is named by this JSON's hash)."""

    first: str
    second: str
    levels: list[int]
    mode: str
    charge: bool
    seed: int
    start: int
    count: int
    options: dict[str, str]
    overrides: dict[str, dict[str, Any]]
    max_rounds: int
    deployment: str


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep fights: each ordered pair of ``units`` (the mirror matches included)."""

    game: str
    units: tuple[str, ...]
    first_level: int = 1
    second_level: int = 1
    mode: str = "melee"
    charge: bool = False
    sims: int = 20000
    seed: int = 0
    options: dict[str, str] = field(default_factory=dict)
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    house_rule: str = ""
    deployment: str = "random"

    def pairs(self) -> list[tuple[str, str]]:
        return [(a, b) for a in self.units for b in self.units]

    def request(self, first: str, second: str) -> DuelRequest:
        return DuelRequest(first, second, self.first_level, self.second_level, self.mode, self.charge, self.seed, 0,
                           self.sims, self.options, self.overrides, deployment=self.deployment)

    def to_json(self) -> SweepPlanJson:
        return {"game": self.game, "units": list(self.units), "levels": [self.first_level, self.second_level],
                "mode": self.mode, "charge": self.charge, "sims": self.sims, "seed": self.seed,
                "options": self.options, "overrides": self.overrides, "house_rule": self.house_rule,
                "deployment": self.deployment}


def pick_units(kernel: DuelKernel, spec: str) -> tuple[str, ...]:
    """``all`` or a comma-separated list (each name checked, duplicates refused)."""
    if spec.strip().lower() == "all":
        return tuple(kernel.units())
    names = [unit_name(kernel, n) for n in spec.split(",") if n.strip()]
    if len(names) < 1:
        raise LabRequestError("--units: name at least one unit, or all", units=spec)
    if len(set(names)) != len(names):
        raise LabRequestError(f"--units {spec!r} names a unit twice", units=spec)
    return tuple(names)


def cell_spec(request: DuelRequest) -> CellSpecJson:
    """Everything that shapes a cell's numbers, as JSON."""
    return {"first": request.first, "second": request.second, "levels": [request.first_level, request.second_level],
            "mode": request.mode, "charge": request.charge, "seed": request.seed, "start": request.start,
            "count": request.count, "options": dict(request.options),
            "overrides": {k: dict(v) for k, v in request.overrides.items()}, "max_rounds": request.max_rounds,
            "deployment": request.deployment}


class CellStore:
    """Finished cells in ``DIR/cells/``, one JSON file each."""

    def __init__(self, out: Path) -> None:
        self.folder = out / "cells"

    def path(self, request: DuelRequest) -> Path:
        spec = json.dumps(cell_spec(request), sort_keys=True)
        digest = hashlib.sha256(spec.encode()).hexdigest()[:16]
        return self.folder / f"{_slug(request.first)}__{_slug(request.second)}__{digest}.json"

    def load(self, request: DuelRequest) -> DuelTally | None:
        """The cell's tally when it was finished with exactly this request (a damaged file: None)."""
        path = self.path(request)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data["spec"] != json.loads(json.dumps(cell_spec(request))):
                return None
            return DuelTally.from_json(data["tally"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, request: DuelRequest, tally: DuelTally) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path(request)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"spec": cell_spec(request), "tally": tally.to_json()}, sort_keys=True),
                       encoding="utf-8")
        os.replace(tmp, path)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:40] or "unit"


def output_folder(out: Path) -> Path:
    """``out``, created if its parent exists; a typed error naming a missing parent or a file."""
    try:
        out.exists()
    except OSError as exc:  # a name longer than the file system allows
        raise LabRequestError(f"--out {str(out)!r}: {exc.strerror or type(exc).__name__}", out=str(out)) from None
    if out.exists() and not out.is_dir():
        raise LabRequestError(f"--out {str(out)!r} is a file, not a folder", out=str(out))
    parent = out.absolute().parent
    if not parent.is_dir():
        raise LabRequestError(f"--out {str(out)!r}: the folder {str(parent)!r} does not exist", out=str(out))
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise LabRequestError(f"--out {str(out)!r}: cannot create it ({exc.strerror})", out=str(out)) from None
    return out


@dataclass(frozen=True)
class Cell:
    request: DuelRequest
    tally: DuelTally
    first_points: float
    second_points: float
    reused: bool = False

    def row(self) -> list[str]:
        t, r = self.tally, self.request
        wins = t.outcomes[FIRST_DESTROYS] + t.outcomes[FIRST_ROUTS]
        losses = t.outcomes[SECOND_DESTROYS] + t.outcomes[SECOND_ROUTS]
        draws = t.outcomes[DRAW]
        n = max(1, t.battles)
        low, high = wilson(wins, t.battles)
        score = (wins + draws / 2) / n
        per_100 = 100 * score / self.first_points if self.first_points > 0 else None
        even = None
        if 0 < score < 1 and self.first_points > 0 and self.second_points > 0:
            even = self.first_points / self.second_points * (1 - score) / score
        return [r.first, r.second, str(r.first_level), str(r.second_level), r.mode, str(r.charge).lower(),
                str(t.battles), t.method, str(wins), str(losses), str(draws), _f(wins / n), _f(low), _f(high),
                _f(score), _f(histogram_mean(t.rounds)), _f(self.first_points), _f(self.second_points), _f(per_100),
                _f(even)]


def _f(value: float | None) -> str:
    return "" if value is None or value != value else f"{value:.6f}"


def unit_points(kernel: DuelKernel, plan: SweepPlan, unit: str, level: int) -> float:
    """The kernel's points cost, or a house rule's ``points`` for the unit."""
    override = plan.overrides.get(unit, {}).get("points")
    if isinstance(override, int | float) and not isinstance(override, bool):
        return float(override)
    return float(kernel.points(unit, level))


def run_sweep(kernel: DuelKernel | str, local: DuelKernel, plan: SweepPlan, out: Path, runner: Runner,
              chunk: int | None = None, progress: Progress | None = None,
              on_cell: Callable[[Cell], None] | None = None) -> list[Cell]:
    """Every cell of ``plan``: read from ``out`` when finished before, else fought and saved at once.

    ``kernel`` is what the workers get (a game name, see :func:`.backends.run_duel`); ``local``
    is the kernel in this process (checks and points).
    """
    store = CellStore(out)
    pairs = plan.pairs()
    for first, second in pairs:
        local.check(plan.request(first, second))
    (out / "sweep.json").write_text(json.dumps(plan.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    total, done = len(pairs) * plan.sims, 0
    cells: list[Cell] = []
    for first, second in pairs:
        request = plan.request(first, second)
        tally = store.load(request)
        reused = tally is not None
        if tally is None:
            tally = run_duel(kernel, request, runner=runner, chunk=chunk, progress=_offset(progress, done, total))
            store.save(request, tally)
        done += plan.sims
        cell = Cell(request, tally, unit_points(local, plan, first, plan.first_level),
                    unit_points(local, plan, second, plan.second_level), reused)
        cells.append(cell)
        if progress is not None:
            progress(done, total)
        if on_cell is not None:
            on_cell(cell)
    return cells


def _offset(progress: Progress | None, before: int, total: int) -> Progress | None:
    """A cell's progress as the whole sweep's (``before`` battles already done)."""
    if progress is None:
        return None
    report = progress
    return lambda done, _count: report(before + done, total)


def matrix_csv(cells: list[Cell]) -> str:
    return csv_text(COLUMNS, [cell.row() for cell in cells])


def write_outputs(out: Path, plan: SweepPlan, cells: list[Cell]) -> dict[str, Path]:
    """``matrix.csv``, ``matrix.parquet`` and ``heatmap.png`` in ``out``."""
    from .plots import heatmap

    paths = {"csv": out / "matrix.csv", "parquet": out / "matrix.parquet", "heatmap": out / "heatmap.png"}
    paths["csv"].write_text(matrix_csv(cells), encoding="utf-8", newline="")
    write_parquet(paths["parquet"], [cell.row() for cell in cells])
    scores = {(c.request.first, c.request.second): float(c.row()[COLUMNS.index("score")]) for c in cells}
    title = f"{plan.game}: first unit's score (wins + draws/2), {counted(plan.sims, 'battle')} a cell"
    heatmap(paths["heatmap"], list(plan.units), scores, title + (f" — {plan.house_rule}" if plan.house_rule else ""))
    return paths


def write_parquet(path: Path, rows: list[list[str]]) -> None:
    """The matrix as a typed Parquet table (numbers as numbers, blanks as nulls)."""
    import pyarrow as pa  # type: ignore[import-untyped]
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    text = {"first", "second", "mode", "method"}
    ints = {"first_level", "second_level", "battles", "first_wins", "second_wins", "draws"}
    columns: dict[str, list[Any]] = {}
    for i, name in enumerate(COLUMNS):
        values = [row[i] for row in rows]
        if name in text:
            columns[name] = values
        elif name == "charge":
            columns[name] = [v == "true" for v in values]
        elif name in ints:
            columns[name] = [int(v) for v in values]
        else:
            columns[name] = [float(v) if v else None for v in values]
    pq.write_table(pa.table(columns), path)
