"""Skirmish scenario files: a table in cm, its obstacles, two warbands and where their fighters stand.

Read through the core's bounded loader; every problem of a file is listed in one
:class:`~rulekeeper.core.errors.DataFileError` naming the field (``fighters[2].at: …``). A side's
``warband`` is a shipped warband (``lions_of_alahan``) or a card file beside the scenario, so a
player's own cards play too; the initial document keeps the cards themselves, not the file names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from rulekeeper.boards.table import Obstacle, edge_distance
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, RulekeeperError
from rulekeeper.core.game import JsonDict, ScenarioInfo

from .cards import WARBANDS, Warband, load_warband
from .ground import KINDS, SIZES, Terrain, TerrainJson
from .state import RADIUS, SIDES, card_to_json

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"
class ObstacleRow(TypedDict):
    """An obstacle of the scenario file, checked: its name and corners in cm, as the document keeps it."""

    name: str
    corners: list[list[float]]


class FighterRow(TypedDict):
    """A fighter of the scenario file, checked; ``key`` (its name, or its card's, numbered) is set by ``_keys``."""

    side: str
    card: str
    name: str
    x: float
    y: float
    facing: float
    size: str
    rout: int
    key: str


class FighterPlace(TypedDict):
    """A fighter as the initial document places him: his key, side, card, position and facing; ``rout`` only when he
    starts in rout."""

    key: str
    side: str
    card: str
    x: float
    y: float
    facing: float
    rout: NotRequired[int]


class ScenarioDoc(TypedDict):
    """A checked scenario as the initial document keeps it: the table, the sides' names, the cards themselves (their
    JSON, ``state.card_to_json``), where each fighter stands; ``terrain`` only when the scenario has some."""

    name: str
    description: str
    width: float
    height: float
    round_limit: int
    sides: dict[str, str]
    obstacles: list[ObstacleRow]
    cards: list[JsonDict]
    fighters: list[FighterPlace]
    terrain: NotRequired[list[TerrainJson]]


KEYS = {"ruleset", "name", "description", "table", "round_limit", "sides", "obstacles", "terrain", "fighters"}
TERRAIN_KEYS = {"name", "kind", "corners", "size", "cover"}
MAX_TABLE = 400.0


def _warband(spec: object, here: Path, where: str, problems: list[str]) -> Warband | None:
    if not isinstance(spec, str) or not spec.strip():
        problems.append(f"{where}: a shipped warband (lions_of_alahan) or a card file is required")
        return None
    shipped = WARBANDS / f"{spec.strip()}.yaml"
    path = shipped if shipped.is_file() else (here.parent / spec.strip())
    try:
        return load_warband(path)
    except RulekeeperError as exc:
        problems.append(f"{where}: {exc.message}")
        return None


def _number(v: object, lo: float, hi: float) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or not lo <= v <= hi:
        return None
    return float(v)


def _sides(raw: Mapping[str, object], path: Path, problems: list[str]) -> tuple[dict[str, str], dict[str, Warband]]:
    sides = raw.get("sides")
    names: dict[str, str] = {}
    bands: dict[str, Warband] = {}
    if not isinstance(sides, dict) or set(sides) != set(SIDES):
        problems.append("sides: exactly sides.A and sides.B are required")
        return {s: s for s in SIDES}, bands
    for s in SIDES:
        entry = sides[s] if isinstance(sides[s], dict) else {}
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"sides.{s}.name: a text is required")
        names[s] = str(name)
        band = _warband(entry.get("warband"), path, f"sides.{s}.warband", problems)
        if band is not None:
            bands[s] = band
    return names, bands


def _obstacles(raw: Mapping[str, object], problems: list[str]) -> list[ObstacleRow]:
    rows = raw.get("obstacles") or []
    if not isinstance(rows, list):
        problems.append("obstacles: a list of {name, corners} is required")
        return []
    out: list[ObstacleRow] = []
    for i, o in enumerate(rows):
        where = f"obstacles[{i}]"
        try:
            corners = tuple((float(x), float(y)) for x, y in o["corners"])
            Obstacle(corners, str(o.get("name", ""))).shape()
        except RulekeeperError as exc:
            problems.append(f"{where}: {exc.message}")
            continue
        except (KeyError, TypeError, ValueError, AttributeError):
            problems.append(f"{where}: a name and corners [[x, y], …] in cm are required")
            continue
        out.append({"name": str(o.get("name", "")), "corners": [list(c) for c in corners]})
    return out


def _terrain(raw: Mapping[str, object], problems: list[str]) -> list[Terrain]:
    """The terrain pieces (ground.py): a name, a kind, corners; a Size for an obstacle, ``cover`` for ground."""
    rows = raw.get("terrain") or []
    if not isinstance(rows, list):
        problems.append("terrain: a list of pieces {name, kind, corners} is required")
        return []
    out = []
    for i, row in enumerate(rows):
        where = f"terrain[{i}]"
        if not isinstance(row, dict) or set(row) - TERRAIN_KEYS:
            problems.append(f"{where}: name, kind ({', '.join(KINDS)}), corners and an optional size (an obstacle's) "
                            "and cover (encumbered ground's) are required")
            continue
        kind, size, cover = row.get("kind"), row.get("size"), row.get("cover", False)
        if kind not in KINDS:
            problems.append(f"{where}.kind: one of {', '.join(KINDS)} is required, got {kind!r}")
            continue
        if size is not None and (kind != "obstacle" or size not in SIZES):
            problems.append(f"{where}.size: an obstacle's Size ({', '.join(SIZES)}), got {size!r} for {kind}")
            continue
        if not isinstance(cover, bool) or (cover and kind != "encumbered"):
            problems.append(f"{where}.cover: true or false, for encumbered ground only, got {cover!r}")
            continue
        try:
            corners = tuple((float(x), float(y)) for x, y in row["corners"])
            piece = Terrain(str(row.get("name") or kind), corners, str(kind), size, cover)
            piece.outline.shape()
        except RulekeeperError as exc:
            problems.append(f"{where}: {exc.message}")
            continue
        except (KeyError, TypeError, ValueError):
            problems.append(f"{where}.corners: [[x, y], …] in cm are required")
            continue
        out.append(piece)
    return out


def _fighters(raw: Mapping[str, object], bands: dict[str, Warband], table: tuple[float, float],
              problems: list[str]) -> list[FighterRow]:
    rows = raw.get("fighters")
    if not isinstance(rows, list) or not rows:
        problems.append("fighters: a list of {side, card, at, facing} is required")
        return []
    out: list[FighterRow] = []
    for i, row in enumerate(rows):
        where = f"fighters[{i}]"
        if not isinstance(row, dict) or set(row) - {"side", "card", "at", "facing", "name", "rout"}:
            problems.append(f"{where}: side, card, at [x, y] and an optional facing, name and rout are required")
            continue
        side = row.get("side")
        if side in SIDES and side not in bands:  # its warband did not load: that problem is reported already
            continue
        if side not in bands:
            problems.append(f"{where}.side: A or B (with a warband) is required, got {side!r}")
            continue
        try:
            card = bands[side].fighter(str(row.get("card", "")))
        except RulekeeperError as exc:
            problems.append(f"{where}.card: {exc.message}")
            continue
        at = row.get("at")
        r = RADIUS[card.size]
        x = _number(at[0], r, table[0] - r) if isinstance(at, list) and len(at) == 2 else None
        y = _number(at[1], r, table[1] - r) if isinstance(at, list) and len(at) == 2 else None
        facing = _number(row.get("facing", 0), -360, 360)
        if x is None or y is None or facing is None:
            problems.append(f"{where}.at/facing: [x, y] in cm with the base on the table and a facing in degrees "
                            f"are required, got {at!r}")
            continue
        rout = _number(row.get("rout", 0), 0, 30)  # starts in rout: the difficulty of the COU test he failed
        if rout is None or rout != int(rout):
            problems.append(f"{where}.rout: a whole number from 0 to 30 (the FEAR he failed against), got "
                            f"{row.get('rout')!r}")
            continue
        out.append({"side": str(side), "card": card.name, "name": str(row.get("name") or ""), "x": x, "y": y,
                    "facing": facing, "size": card.size, "rout": int(rout), "key": ""})
    return out


def _keys(fighters: list[FighterRow], problems: list[str]) -> None:
    """Each fighter's key: its name, or its card's, numbered when a card stands more than once."""
    counts: dict[str, int] = {}
    for f in fighters:
        counts[f["card"]] = counts.get(f["card"], 0) + 1
    seen: dict[str, int] = {}
    for f in fighters:
        seen[f["card"]] = seen.get(f["card"], 0) + 1
        f["key"] = f["name"] or (f["card"] if counts[f["card"]] == 1 else f"{f['card']} {seen[f['card']]}")
    keys = [f["key"] for f in fighters]
    for k in sorted({k for k in keys if keys.count(k) > 1}):
        problems.append(f"fighters: the name {k!r} is used twice (fighters are found by name)")
    for i, f in enumerate(fighters):
        for g in fighters[i + 1:]:
            from rulekeeper.boards.table import Base

            a = Base(f["x"], f["y"], RADIUS[f["size"]])
            b = Base(g["x"], g["y"], RADIUS[g["size"]])
            if edge_distance(a, b) <= 0.05:
                problems.append(f"fighters: {f['key']} and {g['key']} start in contact or overlapping")


def _clear_of_obstacles(fighters: list[FighterRow], obstacles: list[ObstacleRow], terrain: list[Terrain],
                        problems: list[str]) -> None:
    """No fighter may start on an obstacle or in water (they block movement: he could never leave)."""
    from rulekeeper.boards.table import Base

    shapes = [(o["name"], Obstacle(tuple((x, y) for x, y in o["corners"]), o["name"]).shape()) for o in obstacles]
    shapes += [(p.name, p.outline.shape()) for p in terrain if p.kind != "encumbered"]
    for f in fighters:
        base = Base(f["x"], f["y"], RADIUS[f["size"]]).shape()
        for name, shape in shapes:
            if base.intersection(shape).area > 1e-6:
                problems.append(f"fighters: {f['key']} starts on {name or 'an obstacle'}")


def _placed(f: FighterRow) -> FighterPlace:
    out: FighterPlace = {"key": f["key"], "side": f["side"], "card": f["card"], "x": f["x"], "y": f["y"],
                         "facing": f["facing"]}
    if f["rout"]:
        out["rout"] = f["rout"]
    return out


def read_scenario(path: Path) -> ScenarioDoc:
    """A scenario file checked whole, as the initial document keeps it (cards included)."""
    raw = read_data_file(path)
    if not isinstance(raw, dict):
        raise DataFileError(str(path), ["(top level): a scenario is a table of keys"])
    problems: list[str] = []
    if raw.get("ruleset", "confrontation") != "confrontation":
        problems.append(f"ruleset: is {raw.get('ruleset')!r}, not 'confrontation'")
    for key in ("name", "description"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(f"{key}: a text is required")
    problems += [f"{k}: unknown key (expected one of {', '.join(sorted(KEYS))})" for k in sorted(set(raw) - KEYS)]
    tbl: dict[str, Any] = raw["table"] if isinstance(raw.get("table"), dict) else {}
    width, height = _number(tbl.get("width"), 10, MAX_TABLE), _number(tbl.get("height"), 10, MAX_TABLE)
    if width is None or height is None:
        problems.append(f"table: width and height in cm (10 to {MAX_TABLE:g}) are required")
        width, height = width or 10.0, height or 10.0
    limit = raw.get("round_limit")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100:
        problems.append(f"round_limit: a whole number from 1 to 100 is required, got {limit!r}")
    names, bands = _sides(raw, path, problems)
    obstacles = _obstacles(raw, problems)
    terrain = _terrain(raw, problems)
    fighters = _fighters(raw, bands, (width, height), problems)
    _keys(fighters, problems)
    _clear_of_obstacles(fighters, obstacles, terrain, problems)
    for s in SIDES:
        if fighters and s in bands and not any(f["side"] == s for f in fighters):
            problems.append(f"fighters: side {s} has no fighter")
    if problems:
        raise DataFileError(str(path), problems)
    cards = {(f["side"], f["card"]): bands[f["side"]].fighter(f["card"]) for f in fighters}
    doc: ScenarioDoc = {"name": raw["name"], "description": raw["description"], "width": width, "height": height,
                        "round_limit": limit if isinstance(limit, int) else 0, "sides": names, "obstacles": obstacles,
                        "cards": [card_to_json(c) for c in {c.name: c for c in cards.values()}.values()],
                        "fighters": [_placed(f) for f in fighters]}
    if terrain:  # a scenario without terrain is stored as before terrain existed
        doc["terrain"] = [p.to_json() for p in terrain]
    return doc


def shipped_scenarios() -> list[ScenarioInfo]:
    out = []
    for p in sorted(SCENARIO_DIR.glob("*.yaml")):
        sc = read_scenario(p)
        out.append(ScenarioInfo(p.stem, sc["name"], sc["description"], p))
    return out
