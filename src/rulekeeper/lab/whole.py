"""The whole distribution of each matchup's opening action, for ``lab sweep --whole`` (issue 27).

A sweep's cells are Monte Carlo tallies of whole battles; a player choosing a matchup also asks
what the first charge, fight or volley will do. The game's kernel computes that with the keeper's
own whole-odds functions (``whole_opening``, see :func:`rulekeeper.core.duels.whole_opening_of`),
the numbers ``odds … --whole`` and the keeper's preview show; this module only lays them out as
rows, one per (matchup, measure or event, outcome), in ``whole.csv``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulekeeper.core.duels import DuelRequest, whole_opening_of

from .duel import csv_text

COLUMNS = ("first", "second", "method", "error_bound", "what", "outcome", "probability", "expected")


def whole_rows(kernel: object, requests: Sequence[DuelRequest]) -> list[list[str]]:
    """Rows of each request's opening action; a matchup the kernel does not compute gets one row saying so."""
    rows: list[list[str]] = []
    for r in requests:
        odds = whole_opening_of(kernel, r)
        if odds is None:
            rows.append([r.first, r.second, "none", "", "", "", "", ""])
            continue
        head = [r.first, r.second, odds.method, f"{odds.error_bound:.3g}"]
        for m in odds.measures:
            expected = "" if m.mean is None else f"{m.mean:.4f}"
            rows += [[*head, m.label, outcome, f"{p:.6f}", expected] for outcome, p in m.outcomes]
        rows += [[*head, name, "yes", f"{p:.6f}", ""] for name, p in odds.events]
    return rows


def write_whole(out: Path, kernel: object, requests: Sequence[DuelRequest]) -> Path:
    """``whole.csv`` in ``out``: the opening action of every matchup (see :func:`whole_rows`)."""
    path = out / "whole.csv"
    path.write_text(csv_text(COLUMNS, whole_rows(kernel, requests)), encoding="utf-8", newline="")
    return path
