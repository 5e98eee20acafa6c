"""The Black Dragon in a battle, through :mod:`.blackdragon`: five pieces that move as one and are wounded as one.

"The counter that represents the Black Dragon occupies five hexes." In the state the dragon is its
:class:`.blackdragon.BlackDragon` (centre, facing, wounds) and five pieces, one per part ("Black Dragon head"
...), so that combat, lines of fire and the map treat each part as the character it is in the rules ("It is
possible to attack each part of the body separately, from the adjacent free hexes, exactly as for any other
character"). This module keeps the two in step: a step of the centre moves the five pieces and pushes aside
whoever is in the way; a "Dragon wounded" wounds the part on the dragon's sheet and turns its counter.

Decisions (docs/rules/dragonnoir.md, "Battles"): the head leads, so a step turns the dragon to face where it
goes; the dragon's movement points are the body's counter's (8); a character pushed aside goes to the first of
the nearest free hexes (``blackdragon.push_destinations``); a horseman in the way stops the step. Attacking the
centre from a disabled limb's hex is :mod:`.centre`'s.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.boards.hexes import Hex, hex_direction, hex_neighbour
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wording import counted

from .blackdragon import CHARACTER, PARTS, BlackDragon, Part, dragon_step, push_destinations, wound
from .data import shipped_sheet
from .placing import offer
from .report import Lines
from .state import DNState, Man

PART_OF = {name: part for part, name in CHARACTER.items()}


def is_part(m: Man) -> bool:
    return m.character in PART_OF


def body(state: DNState) -> Man:
    return state.man(CHARACTER["body"])


def _placed(state: DNState, dragon: BlackDragon) -> DNState:
    """The five pieces where the dragon's sheet says, with its sides up (all dead once the body is)."""
    board = state.board
    men = []
    for m in state.men:
        if is_part(m):
            part = PART_OF[m.character]
            health = "dead" if dragon.dead else dragon.state(part)
            m = replace(m, hexes=(board.label(dragon.hex_of(part)),), health=health)
        men.append(m)
    return replace(state, men=tuple(men), dragon=dragon)


def steps(state: DNState) -> list[tuple[str, int]]:
    """(hex, cost) of every legal step of the dragon's centre now."""
    dragon = state.dragon
    if dragon is None:
        return []
    b = body(state)
    if dragon.dead or state.side != b.side or b.mp <= 0:
        return []
    board = state.board
    on_map = set(board.cells)
    out = []
    for n in board.neighbours(dragon.centre):
        facing = hex_direction(dragon.centre, n)
        try:
            after, cost = dragon_step(shipped_sheet(), dragon, n, state.terrain_at(board.label(n)), facing, on_map)
        except ImpossibleRequestError:
            continue
        covered = {board.label(h) for h in after.hexes().values()}
        blocked_by_horsemen = state.option("dragon_horsemen", "stop") == "stop"
        if cost > b.mp or (blocked_by_horsemen and any(m.alive and not is_part(m) and len(m.hexes) > 1
                                                       and covered & set(m.hexes) for m in state.men)):
            continue
        out.append((board.label(n), cost))
    return out


def move(state: DNState, to: str) -> tuple[DNState, Lines]:
    """One step of the centre; whoever stands in the way is pushed aside ("It can therefore never be blocked")."""
    dragon = state.dragon
    assert dragon is not None
    board = state.board
    n = board.parse(to)
    after, cost = dragon_step(shipped_sheet(), dragon, n, state.terrain_at(to), hex_direction(dragon.centre, n),
                              set(board.cells))
    state = _placed(state, after)
    b = body(state)
    state = state.with_men(*(replace(m, mp=b.mp - cost, moved=True, steps=m.steps + 1)
                             for m in state.men if is_part(m)))
    lines: Lines = [{"text": f"the Black Dragon moves to {to} ({counted(cost, 'point')}, {b.mp - cost} left)",
                     "kind": "move"}]
    covered = set(after.hexes().values())
    for m in state.men:
        if m.alive and not is_part(m) and len(m.hexes) > 1 and covered & {board.parse(h) for h in m.hexes}:
            state, more = _push_whole(state, m, covered)  # option dragon_horsemen=push: "never be blocked"
            lines += more
            continue
        if not m.alive or is_part(m) or board.parse(m.hex) not in covered:
            continue
        occupied = {board.parse(h) for o in state.men if o.alive and o.name != m.name for h in o.hexes}
        spots = push_destinations(after, board.parse(m.hex), occupied, set(board.cells))
        if not spots:
            state = state.with_men(replace(m, health="dead"))
            lines.append({"text": f"  {m.name} has nowhere to go and is crushed", "kind": "harm"})
            continue
        state = state.with_men(replace(m, hexes=(board.label(spots[0]),)))
        state = offer(state, m.name, "is pushed aside", [(board.label(x),) for x in spots])
        lines.append({"text": f"  {m.name} is pushed aside to {board.label(spots[0])}", "kind": "retreat"})
    return state, lines


def _push_whole(state: DNState, m: Man, covered: set[Hex]) -> tuple[DNState, Lines]:
    """A horseman (or a horse alone) in the dragon's way, under ``dragon_horsemen=push``: both his hexes shifted the
    same way, one hex, then two, then three, to the first place both are free and off the dragon (his player chooses among those
    at the nearest distance, :mod:`.placing`); with none he is crushed (estimated, as a man on foot)."""
    board = state.board
    taken = {h for o in state.men if o.alive and o.name != m.name for h in o.hexes}
    for reach in (1, 2, 3):
        spots = []
        for d in range(6):
            moved = [board.parse(h) for h in m.hexes]
            for _ in range(reach):
                moved = [hex_neighbour(x, d) for x in moved]
            labels = tuple(board.label(x) if board.contains(x) else "" for x in moved)
            if "" in labels or any(x in covered for x in moved) or set(labels) & taken:
                continue
            spots.append(labels)
        if spots:
            state = offer(state.with_men(replace(m, hexes=spots[0])), m.name, "is pushed aside", spots)
            return state, [{"text": f"  {m.name} is pushed aside whole to {'-'.join(spots[0])}", "kind": "retreat"}]
    return state.with_men(replace(m, health="dead")), [
        {"text": f"  {m.name} has nowhere to go and is crushed", "kind": "harm"}]


def wounded(state: DNState, name: str) -> tuple[DNState, Lines]:
    """"The results D, E and F become 'Dragon wounded'" on the part ``name``."""
    dragon = state.dragon
    assert dragon is not None
    part: Part = PART_OF[name]
    after = wound(dragon, part)
    state = _placed(state, after)
    what = "the Black Dragon dies" if after.dead else f"its {part} has {counted(after.wounds_of(part), 'wound')}"
    return state, [{"text": f"  Dragon wounded: {what}", "kind": "harm"}]


def attack_refusal(state: DNState, attackers: list[Man], defenders: list[Man]) -> str | None:
    """Why a combat against the dragon's parts is not allowed ("the central part of its body can be attacked only
    from two hexes"; a part is attacked "from the adjacent free hexes"), None when it is."""
    parts = [d for d in defenders if is_part(d)]
    if not parts:
        return None
    if len(parts) != len(defenders) or state.dragon is None:
        return "the dragon's parts are attacked without other defenders"
    board = state.board
    hexes = [board.parse(h) for a in attackers for h in a.hexes]
    try:
        for d in parts:
            state.dragon.check_attack(PART_OF[d.character], hexes)
    except ImpossibleRequestError as exc:
        return exc.message
    return None


def counts_alive(m: Man) -> bool:
    """A living character for the end of the battle: the dragon counts once, by its body."""
    return m.alive and not m.horse and (not is_part(m) or m.character == CHARACTER["body"])


__all__ = ["PARTS", "attack_refusal", "counts_alive", "is_part", "move", "steps", "wounded"]
