"""A scene: a Dragon Noir map with its terrain, edge features and the characters on it.

Read from a small YAML file (``--map FILE``), through the one bounded loader::

    width: 12
    height: 8
    terrain:                     # hex label -> terrain name, or {terrain, level} (slopes, hills)
      C4: trees
      E3: {terrain: slope, level: 1}
    edges:                       # features on the side two hexes share
      - {between: [F4, F5], feature: wall}     # wall, door, window, bars
    characters:
      Laberne: {at: A1, side: heroes}
      Arlon: {at: [B3, B4], mounted: true, side: heroes}   # front hex, then the rear hex
      Crazy Ork: {at: H5, side: foes, state: stunned}
      Grast's horse: {at: [C6, C7], horse: true, side: heroes}   # a horse without its rider

Hexes are labelled as on printed maps (``A1`` the north-west hex; :mod:`rulekeeper.boards.hexes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulekeeper.boards.hexedges import Edge, EdgeFeature, EdgeMap
from rulekeeper.boards.hexes import Hex, HexCell, HexMap, hex_direction, hex_neighbours
from rulekeeper.core.datafiles import parse_data_text, read_text
from rulekeeper.core.errors import DataFileError, ImpossibleRequestError, RulekeeperError

from .data import SheetData, State
from .fighters import Fighter

#: Edge features the rules name: "Walls block the line of fire"; doors and windows are openings in
#: walls; the bars of a prison cell let shots through with light cover.
FEATURES: Mapping[str, EdgeFeature] = {
    "wall": EdgeFeature("wall", blocks_sight=True, passable=False),
    "door": EdgeFeature("door", blocks_sight=False, passable=True),
    "window": EdgeFeature("window", blocks_sight=False, passable=True),
    "bars": EdgeFeature("bars", blocks_sight=False, passable=False),
}
#: How a horse alone is named on a map: ``Grast's horse: {at: [C1, C2], horse: true}``.
HORSE = "'s horse"
#: Terrains that are the inside of a building (rooms are their connected groups).
INDOORS = ("house", "window", "door")


@dataclass(frozen=True)
class Piece:
    """A character on the map: his fighter (counter side, terrains), his hexes and his side."""

    fighter: Fighter
    hexes: tuple[Hex, ...]
    side: str

    @property
    def name(self) -> str:
        return self.fighter.label


@dataclass(frozen=True)
class Scene:
    """The map, its edges and the characters on it."""

    board: HexMap
    edges: EdgeMap = field(default_factory=EdgeMap)
    pieces: tuple[Piece, ...] = ()

    def terrain(self, h: Hex) -> str:
        cell = self.board.cells.get(h)
        return "flat" if cell is None or cell.terrain == "open" else cell.terrain  # HexMap's blank is flat ground

    def level(self, h: Hex) -> int:
        cell = self.board.cells.get(h)
        return 0 if cell is None else cell.elevation

    def piece(self, name: str) -> Piece:
        key = " ".join(name.split()).casefold()
        for p in self.pieces:
            if p.name.casefold() == key:
                return p
        from rulekeeper.core.errors import UnknownNameError

        raise UnknownNameError("character on the map", name, [p.name for p in self.pieces])

    def occupants(self, h: Hex) -> list[Piece]:
        return [p for p in self.pieces if h in p.hexes]

    def room(self, h: Hex) -> frozenset[Hex]:
        """The connected indoor hexes ``h`` belongs to (empty when outdoors), walls cutting rooms apart."""
        if self.terrain(h) not in INDOORS:
            return frozenset()
        seen, todo = {h}, [h]
        while todo:
            cur = todo.pop()
            for n in hex_neighbours(cur):
                feature = self.edges.at(cur, n)
                if n in seen or self.terrain(n) not in INDOORS or (feature is not None and feature.kind == "wall"):
                    continue
                seen.add(n)
                todo.append(n)
        return frozenset(seen)


class _CellSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    terrain: str
    level: int = 0


class _EdgeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    between: tuple[str, str]
    feature: Literal["wall", "door", "window", "bars"]


class _PieceSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    at: str | list[str]
    side: str = "unknown"
    mounted: bool = False
    horse: bool = False
    state: State = "healthy"


class _SceneSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: int = Field(ge=1, le=200)
    height: int = Field(ge=1, le=200)
    terrain: dict[str, str | _CellSpec] = {}
    edges: list[_EdgeSpec] = []
    characters: dict[str, _PieceSpec] = {}


def _build(spec: _SceneSpec, sheet: SheetData) -> Scene:
    board = HexMap.rectangle(spec.width, spec.height)
    cells: dict[Hex, HexCell] = {}
    for label, cell in spec.terrain.items():
        c = _CellSpec(terrain=cell) if isinstance(cell, str) else cell
        name = sheet.terrain_name(c.terrain)
        cells[board.parse(label)] = HexCell(name, c.level, sheet.terrain_named(name).blocks.value)
    board = board.with_cells(cells)
    features: dict[Edge, EdgeFeature] = {}
    for e in spec.edges:
        a, b = board.parse(e.between[0]), board.parse(e.between[1])
        if hex_direction(a, b) is None:
            raise ImpossibleRequestError(f"Edge {e.between[0]}|{e.between[1]}: the hexes are not adjacent.")
        features[Edge.between(a, b)] = FEATURES[e.feature]
    pieces = []
    for name, p in spec.characters.items():
        rider = name[: -len(HORSE)] if p.horse and name.casefold().endswith(HORSE) else name
        canonical, character = sheet.character(rider)
        labels = [p.at] if isinstance(p.at, str) else list(p.at)
        hexes = tuple(board.parse(x) for x in labels)
        if len(hexes) != (2 if p.mounted or p.horse else 1):
            raise ImpossibleRequestError(f"{canonical}: a mounted character occupies two hexes (front, rear), "
                                         "one on foot one.", character=canonical)
        if len(hexes) == 2 and hex_direction(hexes[0], hexes[1]) is None:
            raise ImpossibleRequestError(f"{canonical}: a horseman's two hexes must be adjacent.")
        terrains = tuple("flat" if board.cells[h].terrain == "open" else board.cells[h].terrain for h in hexes)
        fighter = Fighter(canonical, character, p.mounted, p.state, terrains, p.horse)
        pieces.append(Piece(fighter, hexes, p.side))
    return Scene(board, EdgeMap(features), tuple(pieces))


def scene_from_text(text: str, where: str, sheet: SheetData) -> Scene:
    raw = parse_data_text(text, where, ".yaml")
    try:
        spec = _SceneSpec.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}" for e in exc.errors()]
        raise DataFileError(where, problems) from None
    try:
        return _build(spec, sheet)
    except DataFileError:
        raise
    except RulekeeperError as exc:
        raise DataFileError(where, [exc.message]) from None


def load_scene(path: Path, sheet: SheetData) -> Scene:
    """A scene from a YAML map file (typed errors naming the file)."""
    return scene_from_text(read_text(Path(path)), str(path), sheet)
