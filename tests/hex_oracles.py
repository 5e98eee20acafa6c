"""Brute-force oracles the hex tests check the board's searches against."""

from __future__ import annotations

from collections import deque

from rulekeeper.boards import Hex, HexMap


def bfs_distances(m: HexMap, start: Hex) -> dict[Hex, int]:
    """Steps from ``start`` to every hex of ``m``, by breadth-first search (every step costs 1)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in m.neighbours(h):
            if n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist
