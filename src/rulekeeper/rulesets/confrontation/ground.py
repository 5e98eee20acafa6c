"""A piece of terrain as a scenario and a stored state keep it: its outline, its kind, its Size, whether it hides.

Three kinds, in the seed's vocabulary (the rules that read them are in :mod:`.terrain`):

* ``obstacle`` — a wall, a rock, a house: nobody walks through it. It has a Size like a fighter (Sapper's
  barricade "is considered an obstacle of Small size of height 2 cm"); without one it is taller than any fighter,
  as the scenarios' ``obstacles`` always were.
* ``encumbered`` — encumbered ground (brush, scree, a marsh): crossing it is slow; ``cover: true`` when it also
  hides who is in or behind it (a wood).
* ``water`` — a stream or a pond: only a fighter with Immersion ("considers water as encumbered ground, so he can
  cross and stay within it") enters it; it hides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NotRequired, TypedDict

from rulekeeper.boards.table import Obstacle

KINDS = ("obstacle", "encumbered", "water")
SIZES = ("Small", "Medium", "Large", "Very Large")


class TerrainJson(TypedDict):
    """A piece as a scenario document and a stored state keep it: ``size`` and ``cover`` only when set."""

    name: str
    kind: str
    corners: list[list[float]]
    size: NotRequired[str]
    cover: NotRequired[bool]


@dataclass(frozen=True)
class Terrain:
    """One terrain piece: ``size`` only for an obstacle (``None``: taller than any fighter)."""

    name: str
    corners: tuple[tuple[float, float], ...]
    kind: str
    size: str | None = None
    cover: bool = False

    @cached_property
    def outline(self) -> Obstacle:
        """The piece as the geometry of :mod:`rulekeeper.boards.table` sees it (built once per piece: every walk,
        charge and line of sight asks for it)."""
        return Obstacle(self.corners, self.name)

    def to_json(self) -> TerrainJson:
        out: TerrainJson = {"name": self.name, "kind": self.kind, "corners": [list(c) for c in self.corners]}
        if self.size is not None:
            out["size"] = self.size
        if self.cover:
            out["cover"] = True
        return out

    @staticmethod
    def from_json(d: TerrainJson) -> Terrain:
        size = d.get("size")
        return Terrain(str(d["name"]), tuple((float(x), float(y)) for x, y in d["corners"]), str(d["kind"]),
                       None if size is None else str(size), bool(d.get("cover", False)))

    def describe(self) -> str:
        """What the piece does, in a few words (the board's tooltip)."""
        if self.kind == "water":
            return "water: only a fighter with Immersion enters it"
        if self.kind == "encumbered":
            return "encumbered ground: every cm costs two" + ("; it gives cover" if self.cover else "")
        if self.size is None:
            return "obstacle (taller than any fighter): blocks sight and movement"
        return f"obstacle ({self.size} size): blocks movement; blocks sight when larger than both shooter and " \
               "target, else gives cover"
