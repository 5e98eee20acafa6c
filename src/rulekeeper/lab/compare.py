"""Two sweeps side by side (a base and a house-rule variant): which matchups moved, and by how much.

A matchup *moved* when its score difference is beyond 1.96 standard errors of the difference,
the two runs' errors taken as independent (sweeps share their seed, so their errors are in fact
positively correlated and this test is conservative).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from .errors import LabRequestError
from .sweep import COLUMNS

KEY = ("first", "second", "first_level", "second_level", "mode", "charge")


@dataclass(frozen=True)
class Move:
    first: str
    second: str
    levels: tuple[int, int]
    base: float
    variant: float
    z: float

    @property
    def delta(self) -> float:
        return self.variant - self.base

    @property
    def moved(self) -> bool:
        return abs(self.z) >= 1.959963984540054


def read_matrix(folder: Path) -> dict[tuple[str, ...], dict[str, str]]:
    """A sweep's ``matrix.csv``, read through the bounded reader (size, UTF-8), its header checked before
    any row is kept (a large file that is no matrix is refused without building it)."""
    from rulekeeper.core.datafiles import read_text

    path = folder / "matrix.csv"
    try:
        found = path.is_file()
    except OSError:  # a name longer than the file system allows
        found = False
    if not found:
        raise LabRequestError(f"{str(folder)!r} holds no sweep (no {str(path)!r}): run 'rulekeeper lab sweep' first",
                              folder=str(folder))
    lines = io.StringIO(read_text(path))
    try:
        reader = csv.DictReader(lines)
        if reader.fieldnames is not None and not set(COLUMNS) <= set(reader.fieldnames):
            raise LabRequestError(f"{str(path)!r} is not a sweep matrix (missing columns)", folder=str(folder))
        rows = list(reader)
    except csv.Error as exc:
        raise LabRequestError(f"cannot read {str(path)!r} ({type(exc).__name__})", folder=str(folder)) from None
    return {tuple(row[k] for k in KEY): row for row in rows}


def compare(base: Path, variant: Path) -> list[Move]:
    """The matchups both sweeps fought, the largest moves first."""
    a, b = read_matrix(base), read_matrix(variant)
    common = [k for k in a if k in b]
    if not common:
        raise LabRequestError(f"{str(base)!r} and {str(variant)!r} share no matchup (units, levels, mode)")
    moves = []
    for key in common:
        s1, s2 = float(a[key]["score"]), float(b[key]["score"])
        n1, n2 = int(a[key]["battles"]), int(b[key]["battles"])
        se = math.sqrt(s1 * (1 - s1) / n1 + s2 * (1 - s2) / n2)
        z = (s2 - s1) / se if se > 0 else (0.0 if s1 == s2 else math.copysign(math.inf, s2 - s1))
        moves.append(Move(key[0], key[1], (int(key[2]), int(key[3])), s1, s2, z))
    return sorted(moves, key=lambda m: (-abs(m.delta), m.first, m.second))
