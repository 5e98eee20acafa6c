"""The default policy (``battle autoplay``): shoot the best shot, close in with the fighters, strike where it pays.

* Offensive and defensive fire: the shot most likely to hit (a horse alone counts as hit only by the letters
  that kill it); defensive fire, at a mover or, when the enemy ends its movement, at the characters who stood
  still, only at better than even odds of a hit; else hold.
* Movement: shooters keep their place (they shoot again, and a long bow that moved cannot fire
  defensively); every other character steps, one hex at a time, to the hex nearest an enemy while that
  brings him closer and he is not yet in contact. Every step strictly shortens the distance, so every
  movement ends.
* Combat: the attack with the best chance of hurting the defender less the chance of being thrown back,
  when it is positive; each character attacks once, so every combat sequence ends.
* Magic (:func:`_spell`): a heal of a wounded friend whenever offered; a stun only where it pays, on the
  strongest enemy in contact with one of ours, at the start of a combat sequence (in his own turn before his
  side attacks, in the enemy's turn so that the enemy cannot attack with him); spectres called in his side's
  movement when an enemy is within 6 hexes and no enemy wizard stands (they would drain the EP a duel needs); else
  no spell now. The enemy wizard counters when he can, else lets
  it be (never a rival spell).
* A piece the rules move (a retreat, an unhorsed rider, the dragon's push) goes where the keeper proposes.
* A blow to one of several defenders falls on the one with the weakest attack; the advance after combat
  takes the first hex offered, then stops.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rulekeeper.boards.hexes import HexMap, hex_direction, hex_distance, hex_label, hex_to_offset
from rulekeeper.core.game import LegalAction
from rulekeeper.core.memo import remembered

from .action_types import ACTIONS, Attack, ByUnit, Cast, DNAction, DragonMove, Shoot, ToHex
from .actions import legal_actions
from .centre import staged
from .data import shipped_sheet
from .fighters import can_enter
from .melee import odds
from .scene import FEATURES
from .shots import is_shooter, shot_odds
from .state import DNState, Man, fighter_of, label_neighbours

PASSABLE = tuple(f for f in FEATURES.values() if f.passable)
#: Defensive fire only when a hit is at least this likely.
DEFENSIVE_HIT = 0.5


def _p(letters: dict[str, Fraction], wanted: str) -> float:
    return float(sum((p for k, p in letters.items() if k in wanted), Fraction(0)))


def gap(state: DNState, hexes: tuple[str, ...], side: str) -> int:
    board = state.board
    mine = [board.parse(h) for h in hexes]
    return min((hex_distance(a, board.parse(h)) for e in state.men if e.alive and e.side != side
                for h in e.hexes for a in mine), default=0)


Choice = tuple[DNAction, LegalAction]


def _best_shot(state: DNState, legal: list[Choice], least: float) -> Shoot | None:
    best: tuple[float, Shoot] | None = None
    for a, _ in legal:
        if not isinstance(a, Shoot):
            continue
        o = shot_odds(state, a.unit, a.target)
        hit = _p(o.letters, "CDEF") if state.man(a.target).horse else 1.0 - _p(o.letters, "A")
        if hit >= least and (best is None or hit > best[0]):
            best = (hit, a)
    return None if best is None else best[1]


def field(state: DNState, m: Man) -> dict[str, int]:
    """Hexes ``m`` could stand on, each with the number of steps to a hex next to an enemy (a breadth-first
    search over the terrain he may enter, walls and the living of the other side in the way; facing ignored).
    Read from the map's tables (labels, neighbours, terrain, walls: :func:`walls_of`), remembered on the map:
    the search bot's rollouts ask it at every step (issue 28, profiled)."""
    sheet = shipped_sheet()
    f = fighter_of(state, m)
    foes = {h for e in state.men if e.alive and e.side != m.side for h in e.hexes}
    near, terrain, walls = label_neighbours(state.board), state.terrains, walls_of(state)
    enters: dict[str, bool] = {}

    def open_(label: str) -> bool:
        if label in foes:
            return False
        kind = terrain[label]
        if kind not in enters:
            enters[kind] = can_enter(sheet, f, kind) is None
        return enters[kind]

    todo = [n for h in foes for n in near[h] if open_(n)]
    dist = {label: 0 for label in todo}
    for label in todo:
        for nl in near[label]:
            if nl not in dist and open_(nl) and (label, nl) not in walls:
                dist[nl] = dist[label] + 1
                todo.append(nl)
    return dist


def walls_of(state: DNState) -> frozenset[tuple[str, str]]:
    """The (hex, next hex) label pairs with an edge feature a character cannot pass between them (both ways),
    remembered on the battle's edge map."""
    def build() -> frozenset[tuple[str, str]]:
        out = set()
        for e, feature in state.edge_map.features.items():
            if feature not in (None,) + PASSABLE and min(*hex_to_offset(e.a), *hex_to_offset(e.b)) >= 0:
                a, b = hex_label(e.a), hex_label(e.b)
                out |= {(a, b), (b, a)}
        return frozenset(out)

    return remembered(state.edge_map, walls_of, build)


def _close_in(state: DNState, m: Man, legal: list[Choice]) -> ToHex | None:
    if gap(state, m.hexes, m.side) <= 1:
        return None
    far = 10**6
    dist = field(state, m)
    now = dist.get(m.hex, far)
    best: tuple[int, float, ToHex] | None = None
    for a, lg in legal:
        if not isinstance(a, ToHex) or a.kind != "move" or a.unit != m.name:
            continue
        after = dist.get(a.to, far)
        key = (after, lg.cost or 0.0, a)
        if after < now and (best is None or key[:2] < best[:2]):
            best = key
    return None if best is None else best[2]


def _dragon_closes_in(state: DNState, legal: list[Choice]) -> DragonMove | None:
    """The Black Dragon steps to the hex that brings its five hexes nearest an enemy, while it is not in contact."""
    moves = [(a, lg) for a, lg in legal if isinstance(a, DragonMove)]
    if not moves or state.dragon is None:
        return None
    side = moves[0][0].side
    parts = tuple(m.hex for m in state.men if m.alive and m.character.startswith("Black Dragon"))
    now = gap(state, parts, side)
    if now <= 1:
        return None
    board = state.board
    best: tuple[int, float, DragonMove] | None = None
    for a, lg in moves:
        to = board.parse(a.to)
        after = replace(state.dragon, centre=to, facing=hex_direction(state.dragon.centre, to) or 0)
        g = gap(state, tuple(board.label(h) for h in after.hexes().values()), side)
        if g < now and (best is None or (g, lg.cost or 0.0) < best[:2]):
            best = (g, lg.cost or 0.0, a)
    return None if best is None else best[2]


def _best_attack(state: DNState, legal: list[Choice]) -> Attack | None:
    best: tuple[float, Attack] | None = None
    for a, _ in legal:
        if not isinstance(a, Attack):
            continue
        c = odds(staged(state, a.via), list(a.units), list(a.targets))
        value = _p(c.letters, "DEFGH") - _p(c.letters, "B")
        if value > 0 and (best is None or value > best[0]):
            best = (value, a)
    return None if best is None else best[1]


def _spell(state: DNState, legal: list[Choice], side: str) -> Cast | None:
    """The spell worth casting now, if any (a simple rule, not a search)."""
    casts = [a for a, _ in legal if isinstance(a, Cast) and a.side == side]
    heals = [a for a in casts if a.spell in ("Healing", "Self-healing")]
    if heals:
        return heals[0]
    board = state.board
    if state.phase == "combat":
        ours = [m for m in state.men if m.side == side and m.standing and not m.horse]
        near = [a for a in casts if a.spell == "Stunning"
                and any(touching_hexes(board, state.man(a.target).hexes, m.hexes) for m in ours)]
        if near:
            return max(near, key=lambda a: (fighter_of(state, state.man(a.target)).attack, -near.index(a)))
    rival = any(m.side != side and m.standing and any(w.name == m.name for w in state.wizards) for m in state.men)
    if state.phase == "move" and state.side == side and not rival:  # spectres drain the EP a duel needs
        for a in casts:
            if a.spell in ("Call the Gargoyles", "Raise the Living Deads"):
                w = state.man(a.unit)
                if gap(state, w.hexes, side) <= 6:
                    return a
    return None


def touching_hexes(board: HexMap, a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return any(hex_distance(board.parse(x), board.parse(y)) == 1 for x in a for y in b)


def _pending(state: DNState, legal: list[Choice]) -> DNAction:
    p = state.pending
    assert p is not None
    last = legal[-1][0]
    if p.kind == "magic":  # the last action offered is "no spell now"
        return _spell(state, legal, p.side) or last
    if p.kind in ("defensive", "standstill"):  # the last action offered is the hold
        return _best_shot(state, legal, DEFENSIVE_HIT) or last
    if p.kind == "counter":  # the counterspell when offered (a spell stopped never lands), else let it be
        first = legal[0][0]
        return first if first.kind == "counter" else last
    if p.kind == "victim":
        blows = [a for a, _ in legal if isinstance(a, ByUnit)]
        return min(blows, key=lambda a: (fighter_of(state, state.man(a.unit)).attack, blows.index(a)))
    if not p.unit:
        advance = next((a for a, _ in legal if a.kind == "advance"), None)
        if advance is not None:
            return advance
    return last


def choose(state: DNState) -> DNAction | None:
    """The action autoplay takes (see the module's docstring)."""
    if state.over:
        return None
    legal = [(ACTIONS.listed(lg.action), lg) for lg in legal_actions(state)]
    if state.placing:  # the keeper's proposal, offered first
        return legal[0][0]
    if state.pending is not None:
        return _pending(state, legal)
    pick: DNAction | None = _spell(state, legal, state.side)
    if pick is not None:
        return pick
    if state.phase == "fire":
        pick = _best_shot(state, legal, 0.0)
    elif state.phase == "move":
        pick = _dragon_closes_in(state, legal)
        for m in state.men if pick is None else ():
            if m.side == state.side and m.standing and not m.horse and not is_shooter(m):
                pick = _close_in(state, m, legal)
                if pick is not None:
                    break
    else:
        pick = _best_attack(state, legal)
    return pick or legal[-1][0]
