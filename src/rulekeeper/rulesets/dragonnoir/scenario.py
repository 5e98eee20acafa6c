"""Battle scenario files: a small hex map (terrain, levels, walls, doors, windows), two sides and their characters.

The map part is the calculator's scene format (:mod:`.scene`: ``width``, ``height``, ``terrain``, ``edges``,
``characters`` with ``at``, ``mounted``, ``state``), so a scenario is also a map for ``odds dragonnoir fire
--map``; a scenario adds its ``name``, ``description``, ``turn_limit`` and ``sides`` (``A`` plays first),
and every character's ``side`` is ``A`` or ``B``. Read through the core's bounded loader; every problem is
one :class:`DataFileError` naming the file and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulekeeper.boards.hexes import hex_direction
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, RulekeeperError
from rulekeeper.core.game import ScenarioInfo

from .blackdragon import CHARACTER, BlackDragon
from .data import shipped_sheet
from .scene import Scene, _build, _CellSpec, _EdgeSpec, _PieceSpec, _SceneSpec

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"
MAX_SIDE = 26


class _Side(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)


class _Dragon(BaseModel):
    """The Black Dragon: its centre hex, the direction its head points (0 east, then counter-clockwise), its side."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    centre: str
    facing: int = Field(default=0, ge=0, le=5)
    side: str


class _Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    ruleset: str = "dragonnoir"
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    width: int = Field(ge=2, le=MAX_SIDE)
    height: int = Field(ge=2, le=40)
    turn_limit: int = Field(ge=1, le=200)
    sides: dict[str, _Side]
    terrain: dict[str, str | _CellSpec] = {}
    edges: list[_EdgeSpec] = []
    characters: dict[str, _PieceSpec]
    dragon: _Dragon | None = None


class ScenarioMan(TypedDict):
    """A character (or a part of the dragon) as the initial document keeps him: hex labels, front hex first."""

    name: str
    character: str
    side: str
    hexes: list[str]
    health: str
    mounted: bool
    horse: bool
    facing: int | None


class ScenarioDoc(TypedDict):
    """A checked scenario as the initial document keeps it (``terrain``: label, terrain, level of every hex not
    flat and level; ``edges``: the two hexes and the feature between them; ``dragon``: the Black Dragon's sheet)."""

    name: str
    description: str
    width: int
    height: int
    turn_limit: int
    sides: dict[str, str]
    terrain: list[list[str | int]]
    edges: list[list[str]]
    men: list[ScenarioMan]
    dragon: dict[str, object] | None


def _problems(sc: _Scenario) -> list[str]:
    out = []
    if sc.ruleset != "dragonnoir":
        out.append(f"ruleset: is {sc.ruleset!r}, not 'dragonnoir'")
    if set(sc.sides) != {"A", "B"}:
        out.append("sides: exactly A and B are required")
    for name, p in sc.characters.items():
        if p.side not in ("A", "B"):
            out.append(f"characters.{name}.side: A or B is required, got {p.side!r}")
    for s in ("A", "B"):
        dragon = sc.dragon is not None and sc.dragon.side == s
        if not dragon and not any(p.side == s and not p.horse for p in sc.characters.values()):
            out.append(f"characters: side {s} has no character")
    return out


def _men(scene: Scene) -> list[ScenarioMan]:
    """The characters as the initial document keeps them (labels, facing from rear to front)."""
    board = scene.board
    out: list[ScenarioMan] = []
    seen: dict[str, str] = {}
    for p in scene.pieces:
        f = p.fighter
        if f.character.kind == "dragon part":
            raise DataFileError("characters", [f"{f.name}: the Black Dragon is placed whole, with the scenario's "
                                               "'dragon: {centre, facing, side}'"])
        for h in p.hexes:
            label = board.label(h)
            if label in seen:
                raise DataFileError("characters", [f"{f.label} and {seen[label]} stand on {label}: 'only one living "
                                                   "character must remain per hex'"])
            seen[label] = f.label
        facing = hex_direction(p.hexes[1], p.hexes[0]) if len(p.hexes) == 2 else None
        out.append({"name": f.label, "character": f.name, "side": p.side, "hexes": [board.label(h) for h in p.hexes],
                    "health": f.state, "mounted": f.mounted, "horse": f.horse, "facing": facing})
    return out


def _dragon(spec: _Dragon, scene: Scene, men: list[ScenarioMan], where: str) -> tuple[dict[str, object],
                                                                                      list[ScenarioMan]]:
    """The dragon's sheet and its five pieces, all on the map and on hexes nobody else stands on."""
    board = scene.board
    if spec.side not in ("A", "B"):
        raise DataFileError(where, [f"dragon.side: A or B is required, got {spec.side!r}"])
    try:
        dragon = BlackDragon(board.parse(spec.centre), spec.facing)
    except RulekeeperError as exc:
        raise DataFileError(where, [f"dragon.centre: {exc.message}"]) from None
    taken = {h for m in men for h in m["hexes"]}
    parts: list[ScenarioMan] = []
    for part, h in dragon.hexes().items():
        if not board.contains(h):
            raise DataFileError(where, [f"dragon: its {part} falls off the map"])
        label = board.label(h)
        if label in taken:
            raise DataFileError(where, [f"dragon: its {part} is on {label}, where a character stands"])
        parts.append({"name": CHARACTER[part], "character": CHARACTER[part], "side": spec.side, "hexes": [label],
                      "health": "healthy", "mounted": False, "horse": False, "facing": None})
    return dict(dragon.to_dict()), parts


def read_scenario(path: Path) -> ScenarioDoc:
    """A scenario file checked whole, as the initial document keeps it."""
    where = str(path)
    raw = read_data_file(path)
    try:
        sc = _Scenario.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(where, [f"{'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}"
                                    for e in exc.errors()]) from None
    problems = _problems(sc)
    if problems:
        raise DataFileError(where, problems)
    sheet = shipped_sheet()
    try:
        scene = _build(_SceneSpec(width=sc.width, height=sc.height, terrain=sc.terrain, edges=sc.edges,
                                  characters=sc.characters), sheet)
        men = _men(scene)
    except DataFileError as exc:
        raise DataFileError(where, list(exc.problems)) from None
    except RulekeeperError as exc:
        raise DataFileError(where, [exc.message]) from None
    terrain: list[list[str | int]] = sorted(([scene.board.label(h), c.terrain, c.elevation]
                                              for h, c in scene.board.cells.items()
                      if c.terrain not in ("open", "flat") or c.elevation),
                     key=lambda t: (scene.board.parse(str(t[0])).r, scene.board.parse(str(t[0])).q))
    edges = [[e.between[0].upper(), e.between[1].upper(), e.feature] for e in sc.edges]
    dragon = None
    if sc.dragon is not None:
        dragon, parts = _dragon(sc.dragon, scene, men, where)
        men += parts
    return {"name": sc.name, "description": sc.description, "width": sc.width, "height": sc.height,
            "turn_limit": sc.turn_limit, "sides": {s: sc.sides[s].name for s in ("A", "B")}, "terrain": terrain,
            "edges": edges, "men": men, "dragon": dragon}


def shipped_scenarios() -> list[ScenarioInfo]:
    out = []
    for p in sorted(SCENARIO_DIR.glob("*.yaml")):
        sc = read_scenario(p)
        out.append(ScenarioInfo(p.stem, sc["name"], sc["description"], p))
    return out
