"""Heights (issue 24): how tall a fighter or a piece of scenery stands, for sight, cover and Leap.

The seed: Tall/X "The fighter is X cm tall instead of what his size states" — a Size states a height; Sapper's
barricade "is considered an obstacle of Small size of height 2 cm". The heights of the Sizes are **estimated**
(``data/core_rules.yaml``, ``heights``: Small 2, Medium 3, Large 4, Very Large 6 cm), in the seed's order, so sight
between fighters without Tall/X is what it was with Sizes alone. Third-edition rules: sight is "blocked by anything
larger than both shooter and target" — larger is read as taller. An obstacle without a Size is taller than anyone.
Rules: docs/rules/confrontation.md, "Terrain".
"""

from __future__ import annotations

import math

from .cards import FighterCard
from .core_rules import number
from .ground import Terrain


def size_height(size: str) -> float:
    """The height (cm) a Size states."""
    return float(number("heights", size))


def fighter_height(card: FighterCard) -> float:
    """Tall/X: "X cm tall instead of what his size states"; else his Size's height."""
    x = (card.value_of("Tall") or "").strip().replace(",", ".")
    try:
        return float(x) if x else size_height(card.size)
    except ValueError:
        return size_height(card.size)


def piece_height(piece: Terrain) -> float:
    """An obstacle's height: its Size's (none: taller than anyone); ground and water lie flat (0)."""
    if piece.kind != "obstacle":
        return 0.0
    return math.inf if piece.size is None else size_height(piece.size)
