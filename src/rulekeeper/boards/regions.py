"""Named regions with adjacency, for region-map campaigns such as War Table.

War Table resolves battles "in a region", whose traits (e.g. ``[Ruin]``) modify units;
armies move between neighbouring regions. A :class:`RegionMap` holds which regions
border which (symmetric: a border is crossed both ways) and each region's traits, and
answers hop counts and shortest routes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from rulekeeper.core.errors import InvalidStatError, UnknownNameError


class RegionMap:
    """Regions by name: ``regions`` maps each region to the set of regions it borders; ``traits`` to its traits.

    Validated on construction: every neighbour must be a known region, every border must be
    listed from both sides, no region borders itself, no two names differ only by case,
    and traits belong to known regions. All problems are reported in one
    :class:`InvalidStatError` so a map file can be fixed in one pass. The mappings are
    copied read-only; the map is immutable. Regions without traits may be left out of
    ``traits``. (A plain class rather than a dataclass because the ``traits`` argument and
    the :meth:`traits` look-up share a name.)
    """

    __slots__ = ("_adjacency", "_traits")

    def __init__(
        self,
        regions: Mapping[str, frozenset[str]],
        traits: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        problems: list[str] = []
        if not isinstance(regions, Mapping):
            raise InvalidStatError(
                "Region adjacency must be a mapping of name to neighbours.", problems=["not a mapping"]
            )
        if traits is None:
            traits = {}
        if not isinstance(traits, Mapping):
            raise InvalidStatError("Region traits must be a mapping of name to traits.", problems=["not a mapping"])
        adjacency: dict[str, frozenset[str]] = {}
        for name, neigh in regions.items():
            if not isinstance(name, str) or not name.strip():
                problems.append(f"region name {name!r} is not a non-empty string")
                continue
            if isinstance(neigh, str) or not isinstance(neigh, Iterable):
                problems.append(f"neighbours of {name!r} must be a set of region names, got {neigh!r}")
                continue
            adjacency[name] = frozenset(neigh)
        folded: dict[str, list[str]] = {}
        for name in adjacency:
            folded.setdefault(name.casefold(), []).append(name)
        for same in folded.values():
            if len(same) > 1:
                problems.append(f"region names {sorted(same)!r} differ only by case")
        for name in sorted(adjacency):
            for other in sorted(adjacency[name], key=str):
                if other == name:
                    problems.append(f"{name!r} lists itself as a neighbour")
                elif other not in adjacency:
                    problems.append(f"{name!r} borders unknown region {other!r}")
                elif name not in adjacency[other]:
                    problems.append(f"{name!r} borders {other!r} but {other!r} does not border {name!r}")
        checked: dict[str, tuple[str, ...]] = {}
        for name, ts in traits.items():
            if name not in adjacency:
                problems.append(f"traits given for unknown region {name!r}")
                continue
            if isinstance(ts, str) or not isinstance(ts, Iterable) or not all(isinstance(t, str) for t in ts):
                problems.append(f"traits of {name!r} must be a tuple of strings, got {ts!r}")
                continue
            checked[name] = tuple(ts)
        if problems:
            raise InvalidStatError(
                f"Invalid region map ({len(problems)} problem{'s' if len(problems) != 1 else ''}): "
                + "; ".join(problems)
                + ".",
                problems=problems,
            )
        self._adjacency: Mapping[str, frozenset[str]] = MappingProxyType(adjacency)
        self._traits: Mapping[str, tuple[str, ...]] = MappingProxyType(checked)

    @property
    def regions(self) -> Mapping[str, frozenset[str]]:
        """The validated adjacency (read-only), region name to bordering region names."""
        return self._adjacency

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RegionMap):
            return NotImplemented
        return dict(self._adjacency) == dict(other._adjacency) and dict(self._traits) == dict(other._traits)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RegionMap(regions={dict(self._adjacency)!r}, traits={dict(self._traits)!r})"

    def names(self) -> list[str]:
        """Every region name, sorted, e.g. for listings and suggestions."""
        return sorted(self.regions)

    def contains(self, name: str) -> bool:
        """Whether ``name`` is a region (case-insensitive, as :meth:`resolve` accepts)."""
        try:
            self.resolve(name)
        except UnknownNameError:
            return False
        return True

    def resolve(self, name: str) -> str:
        """The region's exact name for what a player typed: exact match, else case-insensitive match.

        Unknown names raise :class:`UnknownNameError` suggesting the closest regions.
        """
        if name in self.regions:
            return name
        if isinstance(name, str):
            for known in self.regions:
                if known.casefold() == name.casefold():
                    return known
        raise UnknownNameError("region", str(name), self.regions)

    def neighbours(self, name: str) -> list[str]:
        """The regions bordering ``name``, sorted: where an army there can move next."""
        return sorted(self.regions[self.resolve(name)])

    def traits(self, name: str) -> tuple[str, ...]:
        """The traits of region ``name`` (empty if none): battle modifiers such as ``[Ruin]`` key on them."""
        return self._traits.get(self.resolve(name), ())

    def path(self, a: str, b: str) -> list[str] | None:
        """A shortest route from ``a`` to ``b``, both ends included, or None if no route exists.

        Breadth-first search visiting neighbours in sorted order, so the route is
        deterministic (the same map always gives the same route).
        """
        start, goal = self.resolve(a), self.resolve(b)
        parent: dict[str, str | None] = {start: None}
        queue: deque[str] = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                route: list[str] = []
                node: str | None = here
                while node is not None:
                    route.append(node)
                    node = parent[node]
                return route[::-1]
            for n in sorted(self.regions[here]):
                if n not in parent:
                    parent[n] = here
                    queue.append(n)
        return None

    def distance(self, a: str, b: str) -> int | None:
        """Borders to cross from ``a`` to ``b`` (0 for the same region), or None if unreachable."""
        route = self.path(a, b)
        return None if route is None else len(route) - 1

    def within(self, start: str, hops: int) -> dict[str, int]:
        """Every region at most ``hops`` borders from ``start``, with its hop count (``start`` is 0).

        What a movement range of ``hops`` can reach; breadth-first, so the counts are shortest.
        A negative ``hops`` reaches nothing, not even ``start``.
        """
        origin = self.resolve(start)
        if hops < 0:
            return {}
        reached: dict[str, int] = {origin: 0}
        queue: deque[str] = deque([origin])
        while queue:
            here = queue.popleft()
            if reached[here] == hops:
                continue
            for n in sorted(self.regions[here]):
                if n not in reached:
                    reached[n] = reached[here] + 1
                    queue.append(n)
        return reached

    def reachable(self, a: str, b: str, hops: int) -> bool:
        """Whether ``b`` lies at most ``hops`` borders from ``a`` (a move order's range check)."""
        return self.resolve(b) in self.within(a, hops)
