"""Hex maps with terrain, elevation and sight, for the hex-based rule documents.

"Guide to the Battle System" (seed 002) moves units hex by hex on maps with elevation
levels: "When the terrain goes up by two levels instantly, then normal units can't move
that way. Otherwise moving up by one level is fine but it slows the unit down, reducing
their movement rate by half", and hills, shallow rivers and dense forests halve movement
too. Dragon Noir (seed 001) draws lines of fire "from the centre of the shooter's hexagon
to the centre of the target's hexagon". This module gives both, rule-system agnostic:
what blocks a line, how high things stand and what a step costs are the caller's (the
ruleset's) choice, passed in as predicates, :class:`SightRule` values and cost functions.

Coordinates are axial ``(q, r)`` on pointy-top hexes (the third cube coordinate is
``s = -q - r``), the usual convention of Red Blob Games' hex guide; ``r`` grows southward
(down the page). Printed maps label hexes by offset coordinates: rows are straight lines
of hexes and odd rows are shoved half a hex east ("odd-r"); ``"C4"`` is column C (the third,
``col = 2``) of the fourth row (``row = 3``), as Ex illis names zones. :func:`offset_to_hex`,
:func:`hex_to_offset`, :func:`hex_label` and :func:`parse_hex_label` convert.

One module per concern, every public name importable from here: coordinates, labels, rings
and drawing geometry in :mod:`rulekeeper.boards.hexcoords`; lines, cells and sight rules in
:mod:`rulekeeper.boards.hexsight`; cheapest routes in :mod:`rulekeeper.boards.hexpaths`. This
module is the map, :class:`HexMap`, which wraps them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rulekeeper.boards.hexcoords import (
    HEX_DIRECTIONS,
    Hex,
    _is_int,
    hex_centre,
    hex_corners,
    hex_direction,
    hex_distance,
    hex_label,
    hex_neighbour,
    hex_neighbours,
    hex_ring,
    hex_spiral,
    hex_to_offset,
    offset_to_hex,
    parse_hex_label,
)
from rulekeeper.boards.hexpaths import Path, cheapest_path, reach
from rulekeeper.boards.hexsight import (
    DEFAULT_SIGHT,
    EDGE_RULES,
    Blocks,
    EdgeRule,
    HexCell,
    SightRule,
    hex_line,
    hex_lines,
    sight_blockers,
)
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError

__all__ = [
    "DEFAULT_SIGHT",
    "EDGE_RULES",
    "HEX_DIRECTIONS",
    "Blocks",
    "EdgeRule",
    "Hex",
    "HexCell",
    "HexMap",
    "Path",
    "SightRule",
    "hex_centre",
    "hex_corners",
    "hex_direction",
    "hex_distance",
    "hex_label",
    "hex_line",
    "hex_lines",
    "hex_neighbour",
    "hex_neighbours",
    "hex_ring",
    "hex_spiral",
    "hex_to_offset",
    "offset_to_hex",
    "parse_hex_label",
    "sight_blockers",
]

@dataclass(frozen=True)
class HexMap:
    """A finite map of hexes, each with a :class:`HexCell`; hexes absent from ``cells`` are off the map.

    ``cells`` is copied into a read-only mapping, so a map cannot change under a game
    state that holds it. (Maps compare by content but are not hashable.)
    """

    cells: Mapping[Hex, HexCell] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.cells, Mapping):
            raise InvalidStatError(
                f"Hex map cells must be a mapping of Hex to HexCell, got {type(self.cells).__name__}.",
                problems=["cells is not a mapping"],
            )
        for h, cell in self.cells.items():
            if not isinstance(h, Hex):
                problems.append(f"key {h!r} is not a Hex")
            if not isinstance(cell, HexCell):
                problems.append(f"cell at {h!r} is not a HexCell: {cell!r}")
        if problems:
            raise InvalidStatError("Invalid hex map: " + "; ".join(problems) + ".", problems=problems)
        object.__setattr__(self, "cells", MappingProxyType(dict(self.cells)))
        # what the map answers the same way every time, remembered (not fields: equality and repr ignore them).
        # Why: a search bot's simulation asks ``within`` for the same areas thousands of times (a spiral rebuilt
        # each time was a sixth of a Dragon Noir simulation, profiled, issue 28); the cells never change.
        object.__setattr__(self, "_areas", {})
        object.__setattr__(self, "_labels", {})
        object.__setattr__(self, "_near", {})
        object.__setattr__(self, "_parsed", {})

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def rectangle(cls, width: int, height: int) -> HexMap:
        """A ``width`` × ``height`` map of open, level hexes laid out as on printed hex paper.

        Rows are straight lines of hexes and odd rows are shifted half a hex right
        ("odd-r" offset layout, :func:`offset_to_hex`), labelled ``A1`` to e.g. ``G6``.
        Start from here and replace cells with :meth:`with_cells`.

        >>> m = HexMap.rectangle(7, 6)
        >>> len(m.cells), m.label(m.hexes()[-1])
        (42, 'G6')
        """
        for label, value in (("width", width), ("height", height)):
            if not _is_int(value) or value < 1:
                raise InvalidStatError(
                    f"Hex map {label} must be an integer of at least 1, got {value!r}.", **{label: repr(value)}
                )
        return cls({offset_to_hex(col, row): HexCell() for row in range(height) for col in range(width)})

    def with_cells(self, changes: Mapping[Hex, HexCell]) -> HexMap:
        """A copy with some cells replaced (terrain, hills, woods); only hexes already on the map, to catch typos."""
        self._check(*changes)
        return HexMap({**self.cells, **changes})

    # ---------------------------------------------------------- basics

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the map (units cannot leave it, lines of sight may skirt it)."""
        return h in self.cells

    def _check(self, *hexes: Hex) -> None:
        for h in hexes:
            if h not in self.cells:
                raise ImpossibleRequestError(
                    f"Hex {h} is not on the map.", hex=[h.q, h.r] if isinstance(h, Hex) else repr(h)
                )

    def hexes(self) -> list[Hex]:
        """Every hex in reading order (row by row from the north, west to east), the order maps are drawn."""
        return sorted(self.cells, key=lambda h: (h.r, h.q))

    def label(self, h: Hex) -> str:
        """The player-facing name of an on-map hex (:func:`hex_label`), remembered per map."""
        labels: dict[Hex, str] = self._labels  # type: ignore[attr-defined]
        try:
            return labels[h]
        except (KeyError, TypeError):  # not asked yet (or not a hex: the check refuses it)
            self._check(h)
            text = labels[h] = hex_label(h)
            return text

    def parse(self, text: str) -> Hex:
        """The on-map hex a player typed ("c4"); malformed text suggests close labels, off-map is impossible."""
        parsed: dict[str, Hex] = self._parsed  # type: ignore[attr-defined]
        try:
            return parsed[text]
        except (KeyError, TypeError):  # not read yet (or not a string: refused below)
            pass
        try:
            h = parse_hex_label(text)
        except InvalidStatError:
            names = (hex_label(h) for h in self.hexes() if min(hex_to_offset(h)) >= 0)
            raise UnknownNameError("hex", str(text), names) from None
        if h not in self.cells:
            raise ImpossibleRequestError(f"Hex {str(text).strip().upper()!r} is not on the map.", hex=str(text))
        if type(text) is str:
            parsed[text] = h
        return h

    def _adjacent(self, h: Hex) -> list[Hex]:
        return [n for n in hex_neighbours(h) if n in self.cells]

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes that exist on the map, in :func:`hex_neighbours` order (remembered per map)."""
        near: dict[Hex, tuple[Hex, ...]] = self._near  # type: ignore[attr-defined]
        try:
            return list(near[h])
        except (KeyError, TypeError):  # not asked yet (or not a hex: the check refuses it)
            self._check(h)
            found = near[h] = tuple(self._adjacent(h))
            return list(found)

    def ring(self, center: Hex, radius: int) -> list[Hex]:
        """The on-map hexes at exactly ``radius`` from ``center``, in :func:`hex_ring` order."""
        self._check(center)
        return [h for h in hex_ring(center, radius) if h in self.cells]

    def within(self, center: Hex, radius: int) -> list[Hex]:
        """The on-map hexes within ``radius`` of ``center``, ring by ring (a barrage's adjacent hexes are radius 1)."""
        areas: dict[tuple[Hex, int], tuple[Hex, ...]] = self._areas  # type: ignore[attr-defined]
        try:
            if type(radius) is int:  # (True or 1.0 would find radius 1's area: the check refuses them)
                return list(areas[center, radius])
        except (KeyError, TypeError):  # not asked yet (or a bad centre or radius: the checks refuse it)
            pass
        self._check(center)
        area = tuple(h for h in hex_spiral(center, radius) if h in self.cells)
        areas[center, radius] = area
        return list(area)

    def edge_hexes(self) -> list[Hex]:
        """The hexes with a side off the map, in reading order: fleeing units head for these and escape past them."""
        return [h for h in self.hexes() if len(self._adjacent(h)) < 6]

    # ---------------------------------------------------------- sight

    def blockers(
        self, a: Hex, b: Hex, blocks: Blocks | None = None, rule: SightRule = DEFAULT_SIGHT, nudge: int = 1
    ) -> list[Hex]:
        """The hexes that hide ``b`` from ``a`` along the ``nudge`` line, nearest ``a`` first (see :class:`SightRule`).

        Presenters draw them; :meth:`line_of_sight` only asks whether there are any.
        ``blocks`` defaults to each cell's ``blocks_sight``.
        """
        self._check(a, b)
        return sight_blockers(self.cells, a, b, blocks, rule, nudge)

    def line_of_sight(self, a: Hex, b: Hex, blocks: Blocks | None = None, rule: SightRule = DEFAULT_SIGHT) -> bool:
        """Whether ``a`` sees ``b``: no intermediate hex hides it, under ``rule`` (:class:`SightRule`).

        ``blocks(hex, cell)`` is the ruleset's judgement of one intermediate hex (trees,
        walls, standing characters: the caller knows where units are); it defaults to the
        cell's ``blocks_sight``. With the default rule (flat, nudged) sight is blocked
        exactly when ``blocks`` holds for a hex strictly between the two.

        >>> m = HexMap.rectangle(5, 3)
        >>> wood = m.with_cells({Hex(2, 0): HexCell("wood", blocks_sight=True)})
        >>> wood.line_of_sight(Hex(0, 0), Hex(4, 0)), wood.line_of_sight(Hex(0, 0), Hex(2, 0))
        (False, True)
        >>> hill = m.with_cells({Hex(2, 0): HexCell("hill", elevation=1)})
        >>> hill.line_of_sight(Hex(0, 0), Hex(4, 0), rule=SightRule(elevation=True))
        False
        >>> hill.line_of_sight(Hex(0, 0), Hex(4, 0), rule=SightRule(elevation=True, observer=1, target=1))
        True
        """
        clear = not self.blockers(a, b, blocks, rule, 1)
        if rule.edges == "nudge":
            return clear
        other = not self.blockers(a, b, blocks, rule, -1)
        return (clear or other) if rule.edges == "lenient" else (clear and other)

    # ---------------------------------------------------------- movement

    def shortest_path(
        self,
        start: Hex,
        goals: Hex | Iterable[Hex],
        cost: Callable[[Hex, Hex], int | None],
        *,
        occupied: Collection[Hex] = (),
        pass_through: Collection[Hex] = (),
        budget: int | None = None,
    ) -> Path[Hex] | None:
        """The cheapest on-map route from ``start`` to the nearest of ``goals`` (one hex or several), or None.

        ``cost(frm, to)`` prices one step (:mod:`rulekeeper.boards.hexpaths`; ``entering``
        adapts a per-hex cost); ``occupied`` hexes cannot be entered, ``pass_through`` ones
        crossed but not ended on. Ties go to the first route found, neighbours being tried
        in E, NE, NW, W, SW, SE order, so the same map always gives the same route.

        >>> m = HexMap.rectangle(4, 1)
        >>> path = m.shortest_path(Hex(0, 0), Hex(3, 0), lambda frm, to: 1)
        >>> path.cost, [m.label(h) for h in path.nodes]
        (3, ['A1', 'B1', 'C1', 'D1'])
        """
        targets = {goals} if isinstance(goals, Hex) else set(goals)
        self._check(start, *targets)
        return cheapest_path(
            start, targets, self._adjacent, cost, occupied=occupied, pass_through=pass_through, budget=budget
        )

    def reach(
        self,
        start: Hex,
        budget: int,
        cost: Callable[[Hex, Hex], int | None],
        *,
        occupied: Collection[Hex] = (),
        pass_through: Collection[Hex] = (),
    ) -> dict[Hex, int]:
        """Every hex a unit at ``start`` can end its move on with ``budget`` points, with its cheapest cost."""
        self._check(start)
        return reach(start, budget, self._adjacent, cost, occupied=occupied, pass_through=pass_through)
