"""Riderless horses led by the bridle.

"Horses that have no rider remain motionless until they are mounted or led by the bridle. To lead a horse by the
bridle, it is enough to make a character, even a wounded one, pass through one of the hexes adjacent to those of the
horse. The character can continue on his way, followed from then on by the horse, which is treated as a simple
extension of the counter leading it. A horse without a rider remains under the control of the same player as long as
he has a living, non-stunned character in the immediate vicinity of the horse. Otherwise, the horse belongs to the
first player who takes control of it. A mounted character holding another horse by the bridle automatically loses
control of the latter if he is involved in a combat." and "Horses without a rider and held by the bridle can cross
tree hexes. If they have no barding, they can also cross water hexes."

``lead`` (``unit``, ``horse``): in his side's movement, a standing character next to a living riderless horse takes
its bridle (no points: he is passing by); the horse changes side when nobody of its own side stands next to it. "A
character on foot can lead up to three horses by the bridle. A mounted character can lead only one." Decisions
(docs/rules/dragonnoir.md, "Movement in battle"): the horses follow as a train: after each step of the leader, each
led horse in the order taken steps onto a hex just left (by him or by a horse ahead of it) that it is next to, its
front there and its rear on its old hex next to it; a horse that has no such hex stays put. The leader lets go of a
horse no longer joined to him through his led horses, or that cannot stand where it should (terrain, a wall,
someone there: it just stays); of all of them when he jumps, is stunned or killed, or, mounted, fights.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.boards.hexes import hex_direction, hex_distance
from rulekeeper.core.game import LegalAction

from .action_types import Lead, offered
from .data import shipped_sheet
from .report import Lines
from .state import DNState, Man, character_of, feature_between

WATERS = ("water", "spring")


def _next_to(state: DNState, a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    board = state.board
    return any(hex_distance(board.parse(x), board.parse(y)) == 1 for x in a for y in b)


def controls(state: DNState, side: str, horse: Man) -> bool:
    """Whether ``side`` may take the horse: its own, or one whose side has nobody living and standing next to it."""
    if horse.side == side:
        return True
    return not any(m.side == horse.side and m.standing and not m.horse and _next_to(state, m.hexes, horse.hexes)
                   for m in state.men)


def _led(state: DNState) -> set[str]:
    return {h for m in state.men for h in m.leading}


#: "A character on foot can lead up to three horses by the bridle. A mounted character can lead only one."
MOST = {False: 3, True: 1}


def lead_actions(state: DNState, m: Man) -> list[LegalAction]:
    if not m.standing or m.horse or len(m.leading) >= MOST[m.mounted] or m.character.startswith("Black Dragon"):
        return []
    taken = _led(state)
    return [offered(Lead(m.side, m.name, h.name), f"{m.name} takes {h.name} by the bridle", None, "it follows him",
                    f"lead {h.name}", f"{m.name}: move")
            for h in state.men if h.horse and h.alive and h.name not in taken
            and _next_to(state, m.hexes, h.hexes) and controls(state, m.side, h)]


def take(state: DNState, name: str, horse: str) -> tuple[DNState, Lines]:
    m, h = state.man(name), state.man(horse)
    state = state.with_men(replace(m, leading=(*m.leading, horse)), replace(h, side=m.side))
    whose = "" if h.side == m.side else f" ({state.name(m.side)} take control of it)"
    return state, [{"text": f"{name} takes {horse} by the bridle{whose}", "kind": "move"}]


def may_stand(state: DNState, horse: Man, label: str) -> bool:
    """Terrain a led horse may stand on: a horseman's, and trees, and water without barding."""
    sheet = shipped_sheet()
    kind = sheet.terrain_name(state.terrain_at(label))
    t = sheet.terrain_named(kind)
    if t.cost.value is None:
        return False
    if kind in WATERS:
        barding = character_of(horse.character).horse
        return barding is None or not barding.barded
    return kind == "trees" or bool(t.mounted.value)


def _trail(state: DNState, horse: Man, left: str) -> tuple[str, str] | None:
    """The horse's hexes once it follows onto ``left`` (front) from its hex next to it, None when it cannot."""
    board = state.board
    near = [h for h in horse.hexes if hex_distance(board.parse(h), board.parse(left)) == 1]
    if left in horse.hexes or not near:
        return None
    if any(o.alive and o.name != horse.name for o in state.on(left)) or not may_stand(state, horse, left):
        return None
    feature = feature_between(state, near[0], left)
    if feature is not None and not feature.passable:
        return None
    return left, near[0]


def follow(state: DNState, before: Man) -> tuple[DNState, Lines]:
    """After the leader's step from ``before``'s hexes, each led horse follows onto a hex just left."""
    m = state.man(before.name)
    left = [h for h in before.hexes if h not in m.hexes]
    lines: Lines = []
    board = state.board
    for name in m.leading:
        horse = state.man(name)
        spot = next((t for t in (_trail(state, horse, v) for v in left) if t is not None), None)
        if spot is None:
            continue
        facing = hex_direction(board.parse(spot[1]), board.parse(spot[0]))
        state = state.with_men(replace(horse, hexes=spot, facing=facing, steps=horse.steps + 1))  # it moved
        left = [v for v in left if v != spot[0]] + [h for h in horse.hexes if h not in spot]
        lines.append({"text": f"  {horse.name} follows to {'-'.join(spot)}", "kind": "move"})
    return state, lines


def let_go(state: DNState, name: str, why: str, horses: tuple[str, ...] | None = None) -> tuple[DNState, Lines]:
    """The leader ``name`` lets go of ``horses`` (all of them by default)."""
    m = state.man(name)
    gone = m.leading if horses is None else tuple(h for h in m.leading if h in horses)
    if not gone:
        return state, []
    state = state.with_men(replace(m, leading=tuple(h for h in m.leading if h not in gone)))
    return state, [{"text": f"  {name} lets go of the bridle of {', '.join(gone)}: {why}", "kind": "note"}]


def _joined(state: DNState, m: Man, horses: list[Man]) -> set[str]:
    """The led horses joined to the leader through one another (each next to him or to a joined horse)."""
    reach, joined = [m.hexes], set()
    grew = True
    while grew:
        grew = False
        for h in horses:
            if h.name not in joined and any(_next_to(state, r, h.hexes) for r in reach):
                joined.add(h.name)
                reach.append(h.hexes)
                grew = True
    return joined


def settle(state: DNState) -> tuple[DNState, Lines]:
    """Let go of the bridles a leader can no longer hold."""
    lines: Lines = []
    for m in state.men:
        if not m.leading:
            continue
        if not m.standing:
            state, more = let_go(state, m.name, "he is down")
            lines += more
            continue
        names = {x.name for x in state.men}
        horses = [state.man(h) for h in m.leading if h in names]
        held = {h.name for h in horses if h.alive and h.horse} & _joined(state, m, horses)
        state, more = let_go(state, m.name, "dead, mounted or left behind",
                             tuple(h for h in m.leading if h not in held))
        lines += more
    return state, lines
