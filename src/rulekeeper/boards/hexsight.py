"""Lines between hex centres and line of sight over hex cells (split out of :mod:`rulekeeper.boards.hexes`).

Dragon Noir (seed 001) draws lines of fire "from the centre of the shooter's hexagon to the
centre of the target's hexagon"; the Battle System (seed 002) needs "in sight" over hills and
woods. :func:`hex_line` draws exact, deterministically nudged lines; :class:`HexCell` is what a
hex holds; :class:`SightRule` is how a rule system judges a line, and :func:`sight_blockers`
applies it to a map's cells. :class:`~rulekeeper.boards.hexes.HexMap` wraps these, and
``rulekeeper.boards.hexes`` re-exports every public name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from rulekeeper.boards.hexcoords import Hex, _is_int, hex_distance
from rulekeeper.core.errors import InvalidStatError

# ------------------------------------------------------------ lines


def _nudged_round(num: int, den: int, eps: int) -> tuple[int, tuple[int, int]]:
    """Round ``num/den + eps·ε`` to the nearest whole number, ε an infinitesimal; also its distance from it.

    The distance ``(a, b)`` means ``a/den + b·ε``; tuples compare as those numbers do.
    Exact integer arithmetic: no float error however far from the origin the map lies.
    """
    k, rem = divmod(2 * num + den, 2 * den)
    if rem == 0 and eps < 0:  # exactly half way: the nudge decides
        k -= 1
    gap = k * den - num
    if gap > 0:
        return k, (gap, -eps)
    if gap < 0:
        return k, (-gap, eps)
    return k, (0, abs(eps))


def _cube_round(nq: int, nr: int, ns: int, den: int, sign: int) -> Hex:
    rq, dq = _nudged_round(nq, den, sign)
    rr, dr = _nudged_round(nr, den, sign)
    rs, ds = _nudged_round(ns, den, -2 * sign)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


def hex_line(a: Hex, b: Hex, nudge: int = 1) -> list[Hex]:
    """The hexes a centre-to-centre line from ``a`` to ``b`` passes through, both ends included.

    Dragon Noir's line of fire is "an imaginary straight line drawn from the centre of the
    shooter's hexagon to the centre of the target's hexagon". This is Red Blob Games' cube
    lerp: ``distance + 1`` evenly spaced points, each rounded to its hex. A line running
    exactly along hex edges passes between two hexes at each step, so the whole line is
    nudged by ``nudge × (ε, ε, -2ε)`` to pick one side, always the same one (``nudge`` is
    +1 or −1; :func:`hex_lines` gives both sides). Red Blob uses ε = 1e-6 in floats; here
    ε is infinitesimal and the arithmetic exact, so the side never depends on rounding
    noise (which, in floats, changes as a line is moved about the map) and a line keeps its
    shape at any distance from the origin. For lines parallel to the nudge the exact tie
    rule of cube rounding picks the side, again opposite for the two nudges. The result has ``hex_distance(a, b) + 1`` hexes, each
    adjacent to the next, and ``hex_line(b, a, n)`` is ``hex_line(a, b, n)`` reversed.

    >>> [str(h) for h in hex_line(Hex(0, 0), Hex(2, 2))]
    ['(0,0)', '(1,0)', '(1,1)', '(2,1)', '(2,2)']
    >>> [str(h) for h in hex_line(Hex(0, 0), Hex(2, 2), nudge=-1)]
    ['(0,0)', '(0,1)', '(1,1)', '(1,2)', '(2,2)']
    """
    if nudge not in (1, -1) or isinstance(nudge, bool):
        raise InvalidStatError(f"A line's nudge is +1 or -1, got {nudge!r}.", nudge=repr(nudge))
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    dq, dr, ds = b.q - a.q, b.r - a.r, b.s - a.s
    return [_cube_round(a.q * n + dq * i, a.r * n + dr * i, a.s * n + ds * i, n, nudge) for i in range(n + 1)]


def hex_lines(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The line from ``a`` to ``b`` nudged to each side (+ε, −ε); they differ only where it runs along edges.

    A rule system that says "a line along a hex edge is blocked only if the hexes on both
    sides block" checks both (see :class:`SightRule`'s ``edges``).
    """
    return hex_line(a, b, 1), hex_line(a, b, -1)


# ------------------------------------------------------------ cells and sight


@dataclass(frozen=True)
class HexCell:
    """What a hex holds: a terrain name (the ruleset's vocabulary), an elevation level, and whether it blocks sight.

    ``blocks_sight`` is the default answer of :meth:`HexMap.line_of_sight` (woods, buildings);
    a ruleset may judge with its own predicate instead.
    """

    terrain: str = "open"
    elevation: int = 0
    blocks_sight: bool = False

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.terrain, str) or not self.terrain.strip():
            problems.append(f"terrain must be a non-empty string, got {self.terrain!r}")
        if not _is_int(self.elevation):
            problems.append(f"elevation must be an integer level, got {self.elevation!r}")
        if not isinstance(self.blocks_sight, bool):
            problems.append(f"blocks_sight must be true or false, got {self.blocks_sight!r}")
        if problems:
            raise InvalidStatError("Invalid hex cell: " + "; ".join(problems) + ".", problems=problems)


Blocks = Callable[[Hex, HexCell], bool]
"""``blocks(hex, cell)``: whether what stands on an intermediate hex is an obstacle to sight."""

EdgeRule = Literal["nudge", "lenient", "strict"]
EDGE_RULES: tuple[str, ...] = ("nudge", "lenient", "strict")


def _cell_blocks(h: Hex, cell: HexCell) -> bool:
    return cell.blocks_sight


@dataclass(frozen=True)
class SightRule:
    """How a rule system judges line of sight; every field is the rule system's choice.

    **Flat model** (``elevation=False``, the default): an intermediate hex hides the target
    exactly when ``blocks(hex, cell)`` says so. Ground levels are ignored.

    **Height model** (``elevation=True``), all heights in elevation levels: the eye stands at
    the observer's ground + ``observer``, the aim point at the target's ground + ``target``,
    and the sight line runs straight between them. The line's ``i``-th hex out of a
    distance of ``n`` is where the line is ``i/n`` of the way along, so the line's height
    over it is ``eye + (aim - eye)·i/n``. That hex's top is its ground, plus ``obstacle``
    if ``blocks(hex, cell)`` (``obstacle=None``: an obstacle hides whatever the heights, a
    wall to the sky). The hex hides the target when its top rises *strictly* above the
    line; a line that grazes a crest sees past it. Compared in integers, exactly.

    In both models the two end hexes are never asked (a shooter sees out of its own hex
    and into its target's) and an off-map hex never hides anything.

    **Edges** decide a line that runs exactly along hex edges, between two hexes at a step:
    ``"nudge"`` follows the single +ε line of :func:`hex_line` (one side, always the same);
    ``"lenient"`` is blocked only if both nudged lines are (a wood on one side of an edge
    does not hide); ``"strict"`` is blocked if either is. Elsewhere the three agree.
    """

    elevation: bool = False
    observer: int = 0
    target: int = 0
    obstacle: int | None = None
    edges: EdgeRule = "nudge"

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.elevation, bool):
            problems.append(f"elevation must be true or false, got {self.elevation!r}")
        for name in ("observer", "target"):
            if not _is_int(getattr(self, name)):
                problems.append(f"{name} height must be an integer number of levels, got {getattr(self, name)!r}")
        if self.obstacle is not None and (not _is_int(self.obstacle) or self.obstacle < 0):
            problems.append(f"obstacle height must be None or an integer of at least 0, got {self.obstacle!r}")
        if self.edges not in EDGE_RULES:
            problems.append(f"edges must be one of {', '.join(EDGE_RULES)}, got {self.edges!r}")
        if problems:
            raise InvalidStatError("Invalid sight rule: " + "; ".join(problems) + ".", problems=problems)


# ------------------------------------------------------------ the map


DEFAULT_SIGHT = SightRule()
"""The flat, nudged rule: an intermediate hex hides exactly when ``blocks`` says so."""


def sight_blockers(
    cells: Mapping[Hex, HexCell], a: Hex, b: Hex, blocks: Blocks | None = None, rule: SightRule | None = None,
    nudge: int = 1,
) -> list[Hex]:
    """The hexes of ``cells`` that hide ``b`` from ``a`` along the ``nudge`` line, nearest ``a`` first.

    ``a`` and ``b`` must be keys of ``cells`` (:meth:`HexMap.blockers` checks); see :class:`SightRule`
    for the flat and height models. ``blocks`` defaults to each cell's ``blocks_sight``.
    """
    rule = DEFAULT_SIGHT if rule is None else rule
    judge = _cell_blocks if blocks is None else blocks
    line = hex_line(a, b, nudge)
    n = len(line) - 1
    eye = cells[a].elevation + rule.observer
    aim = cells[b].elevation + rule.target
    out: list[Hex] = []
    for i, h in enumerate(line[1:-1], start=1):
        cell = cells.get(h)
        if cell is None:
            continue
        obstacle = judge(h, cell)
        if not rule.elevation or (obstacle and rule.obstacle is None):
            hides = obstacle
        else:
            top = cell.elevation + (rule.obstacle or 0 if obstacle else 0)
            hides = top * n > eye * n + (aim - eye) * i  # strictly above the line, i/n of the way along
        if hides:
            out.append(h)
    return out
