"""Where each region is drawn: campaign files give adjacency, not coordinates.

Regions are laid out in columns by their distance (in borders) from the first region of the
file, ordered within a column by the mean row of their neighbours in the previous column, so
borders mostly run left to right. Deterministic: the same map is always drawn the same way.
"""

from __future__ import annotations

from rulekeeper.boards import RegionMap

COL, ROW, MARGIN_X, MARGIN_Y = 170, 130, 90, 70


def columns(m: RegionMap, first: str) -> list[list[str]]:
    dist = m.within(first, len(m.names()))
    cols: list[list[str]] = []
    for name in m.names():
        d = dist.get(name)
        if d is None:  # a region cut off from the first: its own column at the end
            d = max(dist.values()) + 1
        while len(cols) <= d:
            cols.append([])
        cols[d].append(name)
    row: dict[str, float] = {}
    for i, col in enumerate(cols):
        def key(n: str, i: int = i) -> tuple[float, str]:
            prev = [row[p] for p in m.neighbours(n) if p in row] if i else []
            return (sum(prev) / len(prev) if prev else 0.0, n)

        col.sort(key=key)
        for j, n in enumerate(col):
            row[n] = float(j)
    return [c for c in cols if c]


def positions(m: RegionMap, first: str) -> tuple[dict[str, tuple[int, int]], int, int]:
    """Centre of every region, and the drawing's width and height."""
    cols = columns(m, first)
    tallest = max(len(c) for c in cols)
    out: dict[str, tuple[int, int]] = {}
    for i, col in enumerate(cols):
        offset = (tallest - len(col)) * ROW // 2
        for j, n in enumerate(col):
            out[n] = (MARGIN_X + i * COL, MARGIN_Y + offset + j * ROW)
    return out, 2 * MARGIN_X + (len(cols) - 1) * COL, 2 * MARGIN_Y + (tallest - 1) * ROW
