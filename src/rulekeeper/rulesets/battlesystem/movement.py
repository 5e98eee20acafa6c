"""Movement on the hex map under the guide's rules, and the flight of broken units.

"When the terrain goes up by two levels instantly, then normal units can't move that way.
Otherwise moving up by one level is fine but it slows the unit down, reducing their movement
rate by half", and "Walking up a hill, through a shallow river, or through a dense forest, all
give movement rate penalties, reducing the speed by half." Halving an even rating is the same
as paying 2 points for every slowed hex, which also prices a move that is only partly slowed,
so a slowed step costs 2 and any other step 1 (penalties do not stack: the guide never quarters
a rating). The board (``boards/``) knows only geometry; these costs are the ruleset's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

from rulekeeper.boards.hexcoords import hex_to_offset
from rulekeeper.boards.hexes import Hex, HexMap, hex_distance
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.core.memo import per_state

from .state import SIDES, SLOW_TERRAINS, BattleState, Piece, Terrain, board_of

#: A step up of this many levels or more is impossible ("goes up by two levels instantly").
CLIFF = 2


def step_allowed(board: HexMap, frm: Hex, to: Hex) -> bool:
    """Whether a unit may step from ``frm`` to the adjacent on-map hex ``to``: a rise of two levels or more is
    refused ("normal units can't move that way"); going down any number of levels is allowed."""
    if frm not in board.cells or to not in board.cells or hex_distance(frm, to) != 1:
        return False
    return board.cells[to].elevation - board.cells[frm].elevation < CLIFF


def guide_cost(board: HexMap, frm: Hex, to: Hex, slow: Collection[str] = SLOW_TERRAINS) -> int:
    """Points one allowed step costs: 2 when it climbs one level or enters a ``slow`` terrain, else 1.

    The terrain that slows is the one entered. A step that is not allowed is refused with
    :class:`ImpossibleRequestError` (not adjacent, off the map, up two levels).
    """
    if not step_allowed(board, frm, to):
        rise = board.cells[to].elevation - board.cells[frm].elevation if {frm, to} <= set(board.cells) else 0
        why = "going up two levels at once is impossible" if rise >= CLIFF else "the hexes are not adjacent on the map"
        raise ImpossibleRequestError(f"Cannot step from {frm} to {to}: {why}.", frm=[frm.q, frm.r], to=[to.q, to.r])
    slowed = board.cells[to].elevation - board.cells[frm].elevation == 1 or board.cells[to].terrain in slow
    return 2 if slowed else 1


def step_cost(board: HexMap, slow: Collection[str] = SLOW_TERRAINS) -> Callable[[Hex, Hex], int | None]:
    """The board's step cost function (``boards.hexpaths``): :func:`guide_cost`, None when not allowed.

    The search only asks about adjacent on-map hexes, so this skips those checks (it runs for
    every step of every legal-move list).
    """
    cells = board.cells

    def cost(frm: Hex, to: Hex) -> int | None:
        rise = cells[to].elevation - cells[frm].elevation
        if rise >= CLIFF:
            return None
        return 2 if rise == 1 or cells[to].terrain in slow else 1

    return cost


def reachable(board: HexMap, start: Hex, movement: int, slow: Collection[str] = SLOW_TERRAINS) -> dict[Hex, int]:
    """Every hex a unit with ``movement`` points can end on from ``start`` (other units are the caller's to add)."""
    if not isinstance(movement, int) or isinstance(movement, bool) or movement < 0:
        raise InvalidStatError(f"Movement must be a whole number of at least 0, got {movement!r}.",
                               movement=repr(movement))
    return board.reach(start, movement, step_cost(board, slow))


def left(piece: Piece) -> int:
    """Movement points the unit has left this turn (it may move, attack, then move again)."""
    return max(0, piece.type.movement - piece.spent)


def blocking(state: BattleState, piece: Piece) -> tuple[set[Hex], set[Hex]]:
    """(hexes it cannot enter: other sides' units; hexes it may cross but not stop on: its friends')."""
    board = state.board
    enemies = {board.parse(p.hex) for p in state.units if p.on_map and p.side != piece.side}
    friends = {board.parse(p.hex) for p in state.units if p.on_map and p.side == piece.side and p.name != piece.name}
    return enemies, friends


@dataclass(frozen=True)
class Steps:
    """One map's moves, hex label by hex label: each allowed step with its cost (:func:`step_cost`) and the
    reading-order key of every hex (row, then column).

    Why: a legal list searches every unit's reach, and every step asked the general search
    (``boards.hexpaths``) for a checked cost through two closures and compared ``Hex`` objects; the
    map never changes within a battle, so its steps are priced once per map and the search walks labels."""

    steps: Mapping[str, tuple[tuple[str, int], ...]]
    order: Mapping[str, tuple[int, int]]

    def label(self, board: HexMap, text: str) -> str:
        """The canonical label of the on-map hex ``text`` names (a stored label is one already)."""
        return text if text in self.steps else board.label(board.parse(text))


@lru_cache(maxsize=64)
def steps_of(width: int, height: int, terrain: Terrain) -> Steps:
    """The :class:`Steps` of one map (the key ``state.board_of`` builds the map from)."""
    board = board_of(width, height, terrain)
    cost = step_cost(board)
    steps: dict[str, tuple[tuple[str, int], ...]] = {}
    for h in board.cells:
        priced = ((board.label(n), cost(h, n)) for n in board.neighbours(h))
        steps[board.label(h)] = tuple((n, c) for n, c in priced if c is not None)
    return Steps(steps, {board.label(h): (h.r, h.q) for h in board.cells})


def reach_labels(steps: Steps, start: str, budget: int, occupied: Collection[str]) -> dict[str, int]:
    """Every hex label reachable from ``start`` with ``budget`` points and its cheapest cost, never entering
    ``occupied`` (``start`` included, at 0).

    Dijkstra with a bucket per cost (steps cost 1 or 2, budgets are a few points). The cheapest cost
    of each hex is unique, so this finds exactly what ``boards.hexpaths.reach`` finds (the tests
    compare the two on the shipped scenarios' positions)."""
    best = {start: 0}
    buckets: list[list[str]] = [[start], *([] for _ in range(budget))]
    for spent, bucket in enumerate(buckets):
        for node in bucket:
            if best[node] != spent:  # reached more cheaply since it was filed here
                continue
            for nxt, step in steps.steps[node]:
                total = spent + step
                if total <= budget and total < best.get(nxt, total + 1) and nxt not in occupied:
                    best[nxt] = total
                    buckets[total].append(nxt)
    return best


@per_state
def moves(state: BattleState, piece: Piece) -> dict[str, int]:
    """Every hex label the unit may end a move on now, with the points it costs (its own hex left out).

    Searched once per state and piece (its legal list, each move's preview and the map's reach all ask);
    the answer is shared, so no caller changes it. Enemies block, friends may be crossed but not
    stopped on (:func:`blocking`)."""
    if not piece.can_fight or left(piece) == 0 or piece.barrage is not None:
        return {}
    board = state.board
    steps = steps_of(state.width, state.height, state.terrain)
    enemies: set[str] = set()
    friends: set[str] = set()
    for p in state.units:
        if p.on_map and p.name != piece.name:
            (friends if p.side == piece.side else enemies).add(steps.label(board, p.hex))
    start = steps.label(board, piece.hex)
    found = reach_labels(steps, start, left(piece), enemies)
    order = steps.order
    return {h: c for h, c in sorted(found.items(), key=lambda hc: order[hc[0]]) if h != start and h not in friends}


def edge_hexes(state: BattleState, edge: str) -> list[Hex]:
    """The hexes of one edge of the map (``west``: column A, ``north``: row 1, ...), in reading order."""
    def on(h: Hex) -> bool:
        col, row = hex_to_offset(h)
        return {"west": col == 0, "east": col == state.width - 1, "north": row == 0,
                "south": row == state.height - 1}[edge]

    return [h for h in state.board.edge_hexes() if on(h)]


def flight_goal(state: BattleState, piece: Piece) -> list[Hex]:
    """Where a fleeing unit runs: its own side's edge (``flight_edge=own``, the default: "home", as players
    expect a rout to run), or any edge of the map (``nearest``: "forced to flee toward the edge of the map")."""
    if state.rules.flight_edge == "nearest":
        return state.board.edge_hexes()
    return edge_hexes(state, state.home[SIDES.index(piece.side)])


def flight(state: BattleState, piece: Piece) -> tuple[str, bool, list[str]]:
    """Where a fleeing unit runs when it flees (turns.py): (hex it ends on, escaped, route).

    "A unit that has been reduced to 0 morale will be forced to flee toward the edge of the map.
    Once they've gone over, they have escaped from the battle." It takes the cheapest route to the
    nearest hex of its goal edge (:func:`flight_goal`) with its full rating; a unit that is on such a
    hex when it runs, or reaches one with a point to spare, goes over and escapes. Enemies block it,
    friends let it through.
    """
    board = state.board
    here = board.parse(piece.hex)
    edges = flight_goal(state, piece)
    if here in edges:
        return piece.hex, True, []
    enemies, friends = blocking(state, piece)
    path = board.shortest_path(here, edges, step_cost(board), occupied=enemies, pass_through=friends)
    if path is None:
        return piece.hex, False, []
    cost = step_cost(board)
    spent, end = 0, 0
    for i in range(1, len(path.nodes)):
        step = cost(path.nodes[i - 1], path.nodes[i]) or 0
        if spent + step > piece.type.movement:
            break
        spent, end = spent + step, i
    while end > 0 and path.nodes[end] in friends:  # it may not stop on a friend
        end -= 1
    route = [board.label(h) for h in path.nodes[1:end + 1]]
    stop = path.nodes[end]
    escaped = stop in edges and spent < piece.type.movement and end == len(path.nodes) - 1
    return board.label(stop), escaped, route
