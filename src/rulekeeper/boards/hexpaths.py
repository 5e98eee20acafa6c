"""Cheapest routes over a map whose step costs a rule system supplies (Dijkstra with a heap).

Kept apart from :mod:`rulekeeper.boards.hexes` so that the map module stays readable; the
search knows nothing of hexes. It walks any graph given by a ``neighbours`` function, so
:class:`~rulekeeper.boards.hexes.HexMap` uses it for movement and a square grid could too.

Why the cost is per *step* rather than per hex: the Guide to the Battle System slows a
unit that climbs one level and forbids a rise of two, which depends on the hex left as
well as the hex entered. A cost that only looks at the entered hex (forest 2, road 1) is
the common case and :func:`entering` adapts one.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from rulekeeper.core.errors import InvalidStatError

N = TypeVar("N", bound=Hashable)

StepCost = Callable[[N, N], int | None]
"""``cost(frm, to)``: the movement points spent stepping from ``frm`` into the adjacent ``to``, or None
when that step is impossible (impassable terrain, a cliff). Costs are whole numbers of at least 0
(a rule system with half points doubles every cost, as the Battle System does)."""


def entering(cost: Callable[[N], int | None]) -> Callable[[N, N], int | None]:
    """A step cost that depends only on the hex entered, which is how most hex games price terrain.

    >>> step = entering(lambda h: {"road": 1, "forest": 2}.get(h))
    >>> step("anywhere", "forest"), step("anywhere", "lake")
    (2, None)
    """
    return lambda frm, to: cost(to)


@dataclass(frozen=True)
class Path(Generic[N]):
    """A route and what it costs: ``nodes[0]`` is the start and ``nodes[-1]`` the goal reached."""

    cost: int
    nodes: tuple[N, ...]


def _checked(cost: object, frm: object, to: object) -> int | None:
    """The step cost if it is None or a whole number ≥ 0: a negative cost would make Dijkstra lie."""
    if cost is None:
        return None
    if not isinstance(cost, int) or isinstance(cost, bool) or cost < 0:
        raise InvalidStatError(
            f"A step cost must be a whole number of at least 0 or None, got {cost!r} for {frm} -> {to}.",
            cost=repr(cost),
        )
    return cost


def _search(
    start: N,
    neighbours: Callable[[N], Iterable[N]],
    cost: Callable[[N, N], int | None],
    budget: int | None,
    occupied: Collection[N],
    stop: Callable[[N], bool],
) -> tuple[dict[N, int], dict[N, N], N | None]:
    """Dijkstra from ``start``: best costs, predecessors, and the first node popped for which ``stop`` holds.

    Ties are broken first-discovered-first (a sequence number in the heap), and nodes are
    discovered in ``neighbours`` order, so the same inputs always give the same route; a
    predecessor is replaced only by a strictly cheaper one. Nodes in ``occupied`` are never
    entered (the start is exempt: it is the mover's own hex).
    """
    best: dict[N, int] = {start: 0}
    came: dict[N, N] = {}
    done: set[N] = set()
    heap: list[tuple[int, int, N]] = [(0, 0, start)]
    seq = 1
    while heap:
        spent, _, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        if stop(node):
            return best, came, node
        for nxt in neighbours(node):
            if nxt in done or nxt in occupied:
                continue
            step = cost(node, nxt)
            if step is None:
                continue
            if type(step) is not int or step < 0:  # the common whole cost ≥ 0 needs no call (a bot's hot loop)
                _checked(step, node, nxt)  # raises unless a whole number ≥ 0 (an int subclass passes as before)
            total = spent + step
            if (budget is None or total <= budget) and total < best.get(nxt, total + 1):
                best[nxt] = total
                came[nxt] = node
                heapq.heappush(heap, (total, seq, nxt))
                seq += 1
    return best, came, None


def _check_budget(budget: int | None) -> None:
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget < 0):
        raise InvalidStatError(
            f"A movement budget must be a whole number of at least 0, got {budget!r}.", budget=repr(budget)
        )


def cheapest_path(
    start: N,
    goals: Collection[N],
    neighbours: Callable[[N], Iterable[N]],
    cost: Callable[[N, N], int | None],
    *,
    occupied: Collection[N] = (),
    pass_through: Collection[N] = (),
    budget: int | None = None,
) -> Path[N] | None:
    """The cheapest route from ``start`` to the nearest of ``goals``, or None if none can be reached.

    ``occupied`` nodes cannot be entered at all; ``pass_through`` nodes may be crossed but
    not ended on (many games let a unit pass through friends but not stop on them), so they
    are never the goal reached. ``budget`` caps the cost. Several goals make "flee toward the
    nearest edge" one call; among equally cheap goals the first discovered wins.

    >>> line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}
    >>> cheapest_path(0, {3}, line.__getitem__, lambda a, b: 2)
    Path(cost=6, nodes=(0, 1, 2, 3))
    >>> cheapest_path(0, {3}, line.__getitem__, lambda a, b: 2, budget=5) is None
    True
    """
    _check_budget(budget)
    targets = set(goals) - set(pass_through)
    best, came, found = _search(start, neighbours, cost, budget, occupied, targets.__contains__)
    if found is None:
        return None
    route = [found]
    while route[-1] != start:
        route.append(came[route[-1]])
    return Path(best[found], tuple(reversed(route)))


def reach(
    start: N,
    budget: int,
    neighbours: Callable[[N], Iterable[N]],
    cost: Callable[[N, N], int | None],
    *,
    occupied: Collection[N] = (),
    pass_through: Collection[N] = (),
) -> dict[N, int]:
    """Every node a mover at ``start`` can end on with ``budget`` points, with the cheapest cost of each.

    This is "where can this unit move": ``start`` is in it at cost 0, ``occupied`` nodes are
    neither entered nor listed, ``pass_through`` nodes are crossed (the route may go on beyond
    them) but not listed.

    >>> line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}
    >>> reach(0, 4, line.__getitem__, lambda a, b: 2)
    {0: 0, 1: 2, 2: 4}
    >>> reach(0, 4, line.__getitem__, lambda a, b: 2, pass_through={1})
    {0: 0, 2: 4}
    """
    _check_budget(budget)
    best, _, _ = _search(start, neighbours, cost, budget, occupied, lambda n: False)
    crossed = set(pass_through) - {start}
    return {n: c for n, c in best.items() if n not in crossed}
