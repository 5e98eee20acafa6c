"""The line of fire of Dragon Noir, from hex centres (or window, door and tower sides), with every restriction.

"The line of fire consists of an imaginary straight line drawn from the centre of the shooter's
hexagon to the centre of the target's hexagon. If this line of fire crosses a hex containing either
a character or a type of terrain other than flat terrain, the shot is subject to the restrictions
explained further on." Geometry is :mod:`rulekeeper.boards.hexedges`; this module applies the
seed's "Shooting Restrictions and Cover", each in its own small function quoting it.

A line exactly along hex edges or through a corner is judged on the line shifted a hair to each
side; it is blocked only if it is blocked on both sides (the shooter's benefit, as SightRule's
"lenient" edges; docs/rules/dragonnoir.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from rulekeeper.boards.hexedges import Edge, Point, crossed_edges, segment_hexes, sides, walls_cross
from rulekeeper.boards.hexes import Hex, hex_centre, hex_distance, hex_label, hex_neighbour, hex_neighbours
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wording import counted

from .data import COVERS, Band, Cover, SheetData, Weapon
from .fighters import can_enter
from .fireodds import StrayHex
from .scene import Piece, Scene

WEAPONS: tuple[Weapon, ...] = ("short bow", "long bow", "crossbow")
WATERS = ("water", "spring")
TOWERS = ("tower", "tower centre")
#: Terrains that keep blocking from the top of a tower: "Trees, houses and other towers continue to block".
TOWER_BLOCKERS = ("trees", "house", "tower", "tower centre", "rock")
TOWER_RADIUS = 8
UNDERGROUND_RANGE = 5


@dataclass(frozen=True)
class LineOfFire:
    """Whether the shot is possible, why not, along which line, at what range and behind what cover."""

    shooter: str
    target: str
    possible: bool
    reasons: tuple[str, ...]
    origin: Point
    aim: Point
    target_hex: Hex
    distance: int
    band: Band | None
    cover: Cover
    cover_why: tuple[str, ...] = ()
    crossed: tuple[Hex, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {"shooter": self.shooter, "target": self.target, "possible": self.possible,
                "reasons": list(self.reasons), "origin": list(self.origin), "aim": list(self.aim),
                "target_hex": [self.target_hex.q, self.target_hex.r], "distance": self.distance, "band": self.band,
                "cover": self.cover, "cover_why": list(self.cover_why),
                "crossed": [[h.q, h.r] for h in self.crossed], "notes": list(self.notes)}


def label(h: Hex) -> str:
    """The printed-map name of ``h`` (its axial coordinates when it has none)."""
    try:
        return hex_label(h)
    except ImpossibleRequestError:
        return str(h)


def strongest(covers: Iterable[Cover]) -> Cover:
    return max(covers, key=COVERS.index, default="none")


def weapon_of(piece: Piece) -> Weapon:
    w = piece.fighter.character.weapon
    if w not in WEAPONS:
        raise ImpossibleRequestError(f"{piece.name} has no bow or crossbow (weapon: {w}).", shooter=piece.name)
    return w


def band_of(sheet: SheetData, weapon: Weapon, distance: int) -> Band | None:
    """Short, medium or long range of ``weapon`` at ``distance`` hexes (None: out of range)."""
    b = sheet.fire.range_bands.weapons[weapon]
    return "short" if distance <= b.short else "medium" if distance <= b.medium else "long" if distance <= b.long \
        else None


# -- the shooter and the target --------------------------------------------------------------------


def shooter_refusal(sheet: SheetData, scene: Scene, shooter: Piece) -> str | None:
    """Why ``shooter`` cannot shoot at all this moment (None: he can)."""
    weapon = weapon_of(shooter)
    f = shooter.fighter
    if not f.standing:
        return f"{f.name} is stunned: a stunned character cannot act until his side puts him back on his feet"
    if f.mounted and not sheet.fire.weapons[weapon].shoots_mounted.value:
        return f"{f.name} is mounted with a {weapon}: 'Laberne and Jon cannot shoot when they are mounted because " \
               "they have long bows.'"
    if any(scene.terrain(h) in WATERS for h in shooter.hexes):
        return f"{f.name} is in the water: 'He cannot shoot' (River)"
    for other in scene.pieces:
        if other.side == shooter.side or not other.fighter.standing or other is shooter or other.fighter.attack <= 0:
            continue  # a friend, a stunned enemy or one without attack (a horse alone) cannot attack him
        touching = any(n in other.hexes for h in shooter.hexes for n in hex_neighbours(h))
        if touching and all(can_enter(sheet, other.fighter, scene.terrain(h)) is None for h in shooter.hexes):
            return (f"{f.name} is next to {other.name}: 'a character cannot shoot if he is on a hex adjacent to an "
                    "enemy character at the moment of the shot. He is considered to be busy fighting hand to hand.'")
    return None


def target_refusal(target: Piece) -> str | None:
    if target.fighter.character.untargetable:
        return ("'It is impossible to shoot at an adult Black Dragon (Dragon Noir) because its skin is harder than "
                "chain mail.'")
    return None


# -- where the line starts -------------------------------------------------------------------------


def _edges_of(scene: Scene, h: Hex, kind: str) -> list[Edge]:
    return [Edge.between(h, n) for n, f in scene.edges.around(h).items() if f.kind == kind]


def origins(scene: Scene, o: Hex, t: Hex) -> tuple[list[Point], str | None, str]:
    """The points the line may start from (any one clear will do), or why none, and the rule used."""
    terrain = scene.terrain(o)
    if terrain in TOWERS and scene.terrain(t) not in TOWERS:
        pts = [Edge.between(o, n).midpoint() for n in hex_neighbours(o)]
        return pts, None, "'When a character on a tower aims at an outside target, his line of fire starts from the " \
                          "middle of the side chosen for shooting and not from the centre of the hexagon.'"
    room = scene.room(o)
    if room and t not in room:
        windows, doors = _edges_of(scene, o, "window"), _edges_of(scene, o, "door")
        if terrain == "window" and windows:
            return [e.midpoint() for e in windows], None, "from a window: 'The line of fire then starts from the " \
                                                           "middle of the outer edge of the window'"
        if terrain == "door" and doors:
            return [e.midpoint() for e in doors], None, "from a door: 'his line of fire starts from the middle of " \
                                                         "the opening and not from the centre of the hexagon'"
        return [], "'a character in a building can shoot outside only from a window hex' (or a door)", ""
    target_room = scene.room(t)
    if not room and target_room:
        for n, f in scene.edges.around(o).items():
            if f.kind == "window" and n in target_room:
                return [Edge.between(o, n).midpoint()], None, "posted next to a window: 'His field of fire is " \
                    "however limited to only the hexes that form the room. His line of fire starts from the " \
                    "middle of the inner edge of the window.'"
    return [hex_centre(o)], None, ""


# -- what stands between ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    sheet: SheetData
    scene: Scene
    shooter: Piece
    target: Piece
    o: Hex
    t: Hex
    weapon: Weapon
    band: Band
    distance: int

    @property
    def from_tower(self) -> bool:
        """"Within a radius of 8 hexes, the shooter no longer has to take into account characters or other
        obstacles located below.\""""
        return self.scene.terrain(self.o) in TOWERS and self.distance <= TOWER_RADIUS


def _tower_of(scene: Scene, h: Hex) -> set[Hex]:
    if scene.terrain(h) not in TOWERS:
        return set()
    seen, todo = {h}, [h]
    while todo:
        for n in hex_neighbours(todo.pop()):
            if n not in seen and scene.terrain(n) in TOWERS:
                seen.add(n)
                todo.append(n)
    return seen


def terrain_blocker(c: _Context, h: Hex) -> str | None:
    """Trees, houses, towers (and solid rock) between the shooter and his target."""
    terrain = c.scene.terrain(h)
    if c.from_tower and terrain not in TOWER_BLOCKERS:
        return None
    if terrain == "trees":
        return f"trees at {label(h)}: 'If there are trees or tree branches between the shooter and his target, the shot is " \
               "impossible.'"
    if terrain in ("house", "window", "door") and h not in c.scene.room(c.t) and h not in c.scene.room(c.o):
        return f"a house at {label(h)}: 'Trees, houses and other towers continue to block the line of fire.'"
    if terrain in TOWERS and h not in _tower_of(c.scene, c.o) and h not in _tower_of(c.scene, c.t):
        return f"a tower at {label(h)}: 'Trees, houses and other towers continue to block the line of fire.'"
    if terrain == "rock":
        return f"rock at {label(h)}"
    return None


def character_blocker(c: _Context, h: Hex) -> str | None:
    """"If the line of fire of a crossbowman passes through a hex occupied by a standing character - man or animal
    -, the shot is impossible. ... Archers can shoot over other characters provided the target is at medium or long
    range.\""""
    for p in c.scene.occupants(h):
        if p is c.shooter or p is c.target or not p.fighter.standing:
            continue  # "stunned or dead characters do not block the line of fire"
        if c.scene.terrain(h) in WATERS:
            continue  # "a character on a water hex never blocks the line of fire"
        if c.from_tower:
            continue
        if _hidden_below(c, h):
            continue  # "when a shooter located on a slope cannot see a character located below, he can shoot over"
        if (c.shooter.fighter.mounted and c.shooter.name == "Arlon" and p.side == c.shooter.side
                and any(n in p.hexes for x in c.shooter.hexes for n in hex_neighbours(x))):
            continue  # "when mounted, Arlon can shoot over a friendly character adjacent to him"
        if c.weapon == "crossbow":
            return f"{p.name} stands at {label(h)}: a crossbowman cannot shoot through a standing character"
        if c.band == "short":
            return f"{p.name} stands at {label(h)}: 'Archers can shoot over other characters provided the target is at " \
                   "medium or long range.'"
    return None


def _hidden_below(c: _Context, h: Hex) -> bool:
    """Whether a character at ``h``, below the shooter, is out of his sight behind a slope."""
    if c.scene.level(h) >= c.scene.level(c.o):
        return False
    for s in _slopes_between(c, hex_centre(c.o), hex_centre(h), c.o, h):
        if hex_distance(h, s) < hex_distance(c.o, s):
            return True
    return False


def _slopes_between(c: _Context, p: Point, q: Point, a: Hex, b: Hex) -> list[Hex]:
    return [h for h, _ in segment_hexes(p, q) if h not in (a, b) and c.scene.terrain(h) == "slope"]


def slope_refusal(c: _Context, p: Point, q: Point) -> str | None:
    """"When the line of fire passes over the top of a slope, the shot is possible only if the character below is
    at least as far from the slope hex as the character located above.\""""
    lo, hi = (c.o, c.t) if c.scene.level(c.o) < c.scene.level(c.t) else (c.t, c.o)
    if c.scene.level(lo) == c.scene.level(hi) or c.from_tower:
        return None
    if c.scene.terrain(lo) == "slope":
        return None  # "the shot is possible when the character below is on the slope hex itself"
    for s in _slopes_between(c, p, q, c.o, c.t):
        if hex_distance(lo, s) < hex_distance(hi, s):
            return (f"the slope at {label(s)}: the character below is closer to it ({hex_distance(lo, s)}) than the one above "
                    f"({hex_distance(hi, s)}): 'no shot is possible between them because they cannot see each other'")
    return None


def window_refusal(c: _Context, p: Point, q: Point) -> str | None:
    """"a character located outside can shoot through a window only if the target is immediately behind the window.\""""
    for e, f in crossed_edges(p, q, c.scene.edges):
        if f.kind != "window":
            continue
        inside = e.a if c.scene.room(e.a) else e.b
        at_origin = abs(e.midpoint()[0] - p[0]) < 1e-9 and abs(e.midpoint()[1] - p[1]) < 1e-9
        if not at_origin and c.t != inside and c.o != e.other(inside):
            return f"the window {label(e.a)}|{label(e.b)}: a shot through a window reaches only the hex immediately behind it"
    return None


def line_blockers(c: _Context, p: Point, q: Point) -> list[str]:
    """Everything that blocks the line ``p``→``q``, judged on both hair-shifted sides (blocked only if both are)."""
    reasons: list[str] = []
    walls = walls_cross(p, q, c.scene.edges)
    if walls:
        reasons.append(f"a wall between {label(walls[0].a)} and {label(walls[0].b)}: 'Walls block the line of fire.'")
    per_side: list[list[str]] = []
    ends = set(c.shooter.hexes) | set(c.target.hexes)
    for a, b in sides(p, q):
        found = []
        for h, _ in segment_hexes(a, b):
            if h in ends:
                continue
            why = terrain_blocker(c, h) or character_blocker(c, h)
            if why:
                found.append(why)
        per_side.append(found)
    if all(per_side):
        reasons.append(per_side[0][0] if per_side[0] else per_side[1][0])
    for check in (slope_refusal, window_refusal):
        why = check(c, p, q)
        if why:
            reasons.append(why)
    return reasons


# -- cover -----------------------------------------------------------------------------------------


def hex_cover(c: _Context, h: Hex) -> tuple[Cover, str]:
    """The cover the target has from the terrain of one of his hexes, in this shot's circumstances."""
    terrain = c.scene.terrain(h)
    underground = "underground" in (c.scene.terrain(c.o), terrain)
    if terrain == "entrance":
        return "medium", "'A character located on an underground entrance hex benefits from medium cover.'"
    if underground:
        return "none", "underground: 'the target benefits from no cover, whatever the terrain he is on'"
    if c.from_tower and terrain in ("brush", "slope"):
        return "none", "from a tower within 8 hexes: 'Brush and slope hexes no longer offer any cover'"
    if terrain == "slope":
        above = c.scene.level(c.o) >= c.scene.level(h) and c.scene.terrain(c.o) != "slope"
        return ("medium", "on a slope, shot over its top: medium cover") if above else ("none", "on a slope, shot "
                                                                                           "from below: no cover")
    if terrain in ("house", "window", "door"):
        if h in c.scene.room(c.o):
            return "none", "inside the shooter's own room"
        return "medium", "'characters inside a building benefit from medium cover when shot at through a door or a " \
                         "window.'"
    cover = c.sheet.terrain_named(terrain).cover
    return cover.value, f"{terrain}: {cover.why}"


def line_cover(c: _Context, p: Point, q: Point) -> list[tuple[Cover, str]]:
    """Cover the line itself gives: prison bars, a bridge crossed before a target in the water."""
    out: list[tuple[Cover, str]] = []
    for e, f in crossed_edges(p, q, c.scene.edges):
        if f.kind == "bars" and c.o not in (e.a, e.b):
            out.append(("light", "'When a line of fire crosses the bars of a cell, the target benefits from light "
                                 "cover, unless the shooter is on a hex adjacent to the bars.'"))
    if any(c.scene.terrain(h) in WATERS for h in c.target.hexes):
        crossed = [h for h, _ in segment_hexes(p, q) if h not in (c.o, c.t)]
        if any(c.scene.terrain(h) == "bridge" for h in crossed):
            out.append(("medium", "'when a line of fire crosses a bridge, characters in the water benefit from medium "
                                  "cover.'"))
    return out


# -- the whole judgement ---------------------------------------------------------------------------


def _judge(sheet: SheetData, scene: Scene, shooter: Piece, target: Piece, t: Hex) -> LineOfFire:
    o = shooter.hexes[0]
    weapon = weapon_of(shooter)
    distance = hex_distance(o, t)
    band = band_of(sheet, weapon, distance)
    aim = hex_centre(t)

    def refused(why: str, origin: Point | None = None) -> LineOfFire:
        return LineOfFire(shooter.name, target.name, False, (why,), origin or hex_centre(o), aim, t, distance, band,
                          "none")

    if band is None:
        longest = sheet.fire.range_bands.weapons[weapon].long
        return refused(f"{counted(distance, 'hex', 'hexes')} is beyond the {weapon}'s long range "
                       f"({longest}, estimated)")
    if "underground" in (scene.terrain(o), scene.terrain(t)) and distance > UNDERGROUND_RANGE:
        return refused("'shots are impossible underground if the target is more than 5 hexes from the shooter'")
    points, why, rule = origins(scene, o, t)
    if why is not None:
        return refused(why)
    c = _Context(sheet, scene, shooter, target, o, t, weapon, band, distance)
    best: LineOfFire | None = None
    for p in points:
        reasons = line_blockers(c, p, aim)
        covers = [hex_cover(c, h) for h in target.hexes] + line_cover(c, p, aim)
        cover = strongest(cv for cv, _ in covers)
        if cover == "total":
            reasons.append("total cover: " + "; ".join(w for cv, w in covers if cv == "total"))
        crossed = tuple(h for h, _ in segment_hexes(p, aim) if h not in (o, t))
        line = LineOfFire(shooter.name, target.name, not reasons, tuple(reasons), p, aim, t, distance, band, cover,
                          tuple(w for cv, w in covers if cv == cover), crossed, (rule,) if rule else ())
        if line.possible:
            return line
        best = best or line
    assert best is not None
    return best


def line_of_fire(sheet: SheetData, scene: Scene, shooter_name: str, target_name: str) -> LineOfFire:
    """Judge the shot of ``shooter_name`` at ``target_name`` on ``scene``.

    A horseman shoots from his front hex; a horseman aimed at may be aimed at either of his two hexes (the first
    clear line is taken) and "is considered to always benefit from the strongest cover" of the two.
    """
    shooter, target = scene.piece(shooter_name), scene.piece(target_name)
    if shooter is target:
        raise ImpossibleRequestError(f"{shooter.name} cannot shoot at himself.")
    why = shooter_refusal(sheet, scene, shooter) or target_refusal(target)
    if why is not None:
        o, t = shooter.hexes[0], target.hexes[0]
        return LineOfFire(shooter.name, target.name, False, (why,), hex_centre(o), hex_centre(t), t,
                          hex_distance(o, t), None, "none")
    lines = [_judge(sheet, scene, shooter, target, t) for t in target.hexes]
    return next((line for line in lines if line.possible), lines[0])


# -- Errare humanum est ----------------------------------------------------------------------------


def _sheltered(c: _Context, p: Point, h: Hex) -> str | None:
    """Why a stray projectile cannot reach ``h`` ("if the line of fire is blocked by an obstacle, the character
    cannot be hit"): walls, trees, houses, towers between (characters do not stop a stray arrow)."""
    q = hex_centre(h)
    if walls_cross(p, q, c.scene.edges):
        return "a wall is in the way"
    per_side = []
    for a, b in sides(p, q):
        per_side.append([w for x, _ in segment_hexes(a, b) if x not in (*c.shooter.hexes, h)
                         if (w := terrain_blocker(c, x))])
    return per_side[0][0] if all(per_side) else None


def stray_hexes(sheet: SheetData, scene: Scene, line: LineOfFire, stray: list[StrayHex]) -> list[StrayHex]:
    """The six hexes around the target (a horseman: around his front hex, "the part of the counter containing the
    small black arrow"), with who a stray projectile would hit there and how."""
    shooter, target = scene.piece(line.shooter), scene.piece(line.target)
    centre = target.hexes[0]
    band = line.band or "short"
    c = _Context(sheet, scene, shooter, target, shooter.hexes[0], centre, weapon_of(shooter), band, line.distance)
    out = []
    for s in stray:
        h = hex_neighbour(centre, s.direction)
        if not scene.board.contains(h):
            out.append(replace(s, effect="off the map"))
            continue
        victims = tuple(p.name for p in scene.occupants(h) if p is not target and p is not shooter)
        if not victims:
            out.append(replace(s, effect=f"{label(h)}: nobody"))
            continue
        why = _sheltered(c, line.origin, h)
        if why is not None:
            out.append(replace(s, victims=victims, effect=f"{label(h)}: sheltered ({why})"))
            continue
        hurt = [f"{p.name} {'retreats 2 hexes (in armour)' if p.fighter.armour else 'wounded'}"
                for p in scene.occupants(h) if p.name in victims]
        out.append(replace(s, victims=victims, effect=f"{label(h)}: " + ", ".join(hurt)))
    return out
