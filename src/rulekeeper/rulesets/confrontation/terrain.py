"""Terrain (issue 24): what the scenery does to movement, charges, sight and shots.

The seed names the pieces without their numbers (docs/rules/confrontation.md, "Terrain"); the pieces themselves are
:class:`~.ground.Terrain` rows of the scenario. Read here:

* **Movement.** Nobody walks, charges, flees or pursues through an obstacle or water (Immersion "considers water as
  encumbered ground, so he can cross and stay within it"; Ethereal fighters "can pass through all obstacles ...
  Yet they cannot stop 'in' an obstacle"). Every cm of a way inside encumbered ground costs
  ``terrain.encumbered_factor`` cm (**estimated** 2: it halves movement there) unless the fighter has Immunity to
  it (Immunity: "a kind of terrain: the fighter considers that kind of terrain as unencumbered ground"; Ethereal
  "have the ... Immunity / Encumbered ground ability"; Immersion treats water's encumbrance "as normal terrain").
* **Sight.** Third-edition rules: sight is "blocked by anything larger than both shooter and target": an obstacle
  blocks a line of sight when its Size is larger than both fighters' (an obstacle without a Size is taller than any
  fighter). Encumbered ground and water never block it.
* **Cover.** A shot whose line (centre to centre) passes a piece that hides without blocking (a low obstacle,
  encumbered ground marked ``cover``), or a tall obstacle that the line of sight only got past at the target's
  edge, or at a target standing in hiding ground, is made at ``terrain.cover_difficulty`` more difficulty
  (**estimated** +1); a piece touching (or under) the shooter's own base does not count (he shoots over it). Instinctive
  firing "does not suffer the penalties ... due to cover".
"""

from __future__ import annotations

from collections.abc import Sequence

from rulekeeper.boards.table import CONTACT, Obstacle

from .cards import FighterCard, canonical_ability
from .core_rules import number
from .ground import SIZES, Terrain
from .heights import fighter_height, piece_height
from .measures import length_inside
from .state import Fighter, SkirmishState

#: Immunity/X values that spare a fighter encumbered ground (X as written on cards, lower case).
ENCUMBERED = "encumbered ground"


def immunities(card: FighterCard) -> set[str]:
    """Every X of the card's Immunity/X abilities, lower case (a card may carry several)."""
    out = set()
    for written in card.abilities:
        name, value = canonical_ability(written)
        if name == "Immunity":
            out.add(" ".join(value.lower().split()))
    return out


def slowed_by(card: FighterCard, piece: Terrain) -> bool:
    """Whether a piece of ground slows him (encumbered ground; water for a fighter with Immersion is normal)."""
    if piece.kind != "encumbered":
        return False
    if card.has("Ethereal"):
        return False
    immune = immunities(card)
    return ENCUMBERED not in immune and piece.name.lower() not in immune


def barriers(state: SkirmishState, card: FighterCard | None = None) -> list[Obstacle]:
    """What nobody walks through: the scenario's obstacles, obstacle pieces, and water (but for Immersion)."""
    out = list(state.obstacles)
    for piece in state.terrain:
        if piece.kind == "obstacle" or (piece.kind == "water" and not (card is not None and card.has("Immersion"))):
            out.append(piece.outline)
    return out


def way_cost(state: SkirmishState, f: Fighter, points: Sequence[tuple[float, float]]) -> float:
    """The movement a way through ``points`` costs him: its length, every cm in encumbered ground counted
    ``encumbered_factor`` times."""
    import math

    length = sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:], strict=False))
    slow = [p.outline for p in state.terrain if slowed_by(f.card, p)]
    if not slow:
        return length
    return length + (number("terrain", "encumbered_factor") - 1) * length_inside(points, slow)


def size_rank(size: str) -> int:
    return SIZES.index(size)


def blocks_sight(piece: Terrain, f: Fighter, t: Fighter) -> bool:
    """Third-edition rules: sight is "blocked by anything larger than both shooter and target" (taller: Tall/X
    "X cm tall instead of what his size states", heights.py)."""
    if piece.kind != "obstacle":
        return False
    return piece_height(piece) > max(fighter_height(f.card), fighter_height(t.card))


def sight_scenery(state: SkirmishState, f: Fighter, t: Fighter) -> list[Obstacle]:
    """The scenery that blocks a line of sight between ``f`` and ``t``."""
    return [*state.obstacles, *(p.outline for p in state.terrain if blocks_sight(p, f, t))]


def cover_of(state: SkirmishState, f: Fighter, t: Fighter) -> str | None:
    """The name of the scenery that covers ``t`` from ``f``'s shot, or ``None`` (see the module's "Cover")."""
    from shapely.geometry import LineString  # type: ignore[import-untyped]

    line = LineString([(f.x, f.y), (t.x, t.y)])
    mine, theirs = f.base.shape(), t.base.shape()
    pieces: list[tuple[Obstacle, bool]] = [(o, False) for o in state.obstacles]
    for p in state.terrain:
        if p.kind == "obstacle":
            pieces.append((p.outline, False))
        elif p.kind == "encumbered" and p.cover:
            pieces.append((p.outline, True))
    for outline, hiding_ground in pieces:
        shape = outline.shape()
        if shape.distance(mine) <= CONTACT:  # against his own wall, or in his own wood: he shoots over it
            continue
        if line.intersection(shape).length > 1e-9 or (hiding_ground and shape.intersection(theirs).area > 1e-6):
            return outline.name or "scenery"
    return None


def cover_difficulty(state: SkirmishState, f: Fighter, t: Fighter) -> tuple[int, str | None]:
    """What cover adds to ``f``'s shot at ``t`` and the covering piece's name (0 with Instinctive firing)."""
    piece = cover_of(state, f, t)
    if piece is None or f.card.has("Instinctive firing"):
        return 0, piece
    return number("terrain", "cover_difficulty"), piece
