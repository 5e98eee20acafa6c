"""Scenario files: a small hex map, its terrain and elevation, two sides and their units.

Read through the core's bounded loader (``core.datafiles``); every problem of a file is listed
in one :class:`DataFileError` naming the file and the field (``units[2].hex: …``), so a game
master fixes a file in one go. The checked scenario is what the initial document keeps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict

from rulekeeper.boards.hexcoords import hex_to_offset, parse_hex_label
from rulekeeper.boards.hexes import HexMap
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, RulekeeperError
from rulekeeper.core.game import ScenarioInfo

from .state import EDGES, SIDES, TERRAINS, unit_types
from .units import RALLIES

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"
KEYS = {"ruleset", "name", "description", "width", "height", "turn_limit", "sides", "hexes", "units"}
MAX_SIDE = 26  # one letter per column
MAX_ELEVATION = 5


class ScenarioUnit(TypedDict):
    """A unit as the initial document keeps it: its name, side, card and hex."""

    name: str
    side: str
    type: str
    hex: str


class ScenarioDoc(TypedDict):
    """A checked scenario as the initial document keeps it (``terrain``: label, terrain, elevation of every hex
    not open and level; ``edges``: each side's own edge)."""

    name: str
    description: str
    width: int
    height: int
    turn_limit: int
    sides: dict[str, str]
    terrain: list[list[str | int]]
    units: list[ScenarioUnit]
    edges: dict[str, str]


def _int(raw: Mapping[str, object], key: str, lo: int, hi: int, problems: list[str], where: str = "") -> int:
    v = raw.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        problems.append(f"{where}{key}: a whole number from {lo} to {hi} is required, got {v!r}")
        return lo
    return v


def _sides(raw: Mapping[str, object], problems: list[str]) -> dict[str, str]:
    sides = raw.get("sides")
    if not isinstance(sides, dict) or set(sides) != set(SIDES):
        problems.append("sides: exactly [sides.A] and [sides.B] are required")
        return {s: s for s in SIDES}
    names = {}
    for s in SIDES:
        n = sides[s].get("name") if isinstance(sides[s], dict) else None
        if not isinstance(n, str) or not n.strip():
            problems.append(f"sides.{s}.name: a text is required")
        names[s] = str(n)
    return names


def _edges(raw: Mapping[str, object], problems: list[str]) -> dict[str, str] | None:
    """``[sides.A] edge = "west"``: a side's own edge, where its broken units run (both sides, or neither)."""
    sides = raw.get("sides")
    if not isinstance(sides, dict):
        return None
    given = {s: sides[s].get("edge") for s in SIDES if isinstance(sides.get(s), dict) and "edge" in sides[s]}
    for s, e in given.items():
        if e not in EDGES:
            problems.append(f"sides.{s}.edge: one of {', '.join(EDGES)} is required, got {e!r}")
    if not given:
        return None
    if len(given) == 1:
        problems.append("sides: give both sides an edge, or neither (then each side's is where it stands)")
    return {s: str(e) for s, e in given.items()}


def home_edges(width: int, height: int, units: Sequence[ScenarioUnit]) -> dict[str, str]:
    """Each side's own edge when the scenario names none: the sides face each other along the axis where their
    units stand furthest apart (relative to the map), and each owns the edge behind it."""
    def mean(side: str, axis: int) -> float:
        at = [hex_to_offset(parse_hex_label(str(u["hex"])))[axis] for u in units if u["side"] == side]
        return sum(at) / len(at) if at else 0.0

    dx = (mean("B", 0) - mean("A", 0)) / max(1, width - 1)
    dy = (mean("B", 1) - mean("A", 1)) / max(1, height - 1)
    if abs(dx) >= abs(dy):
        return {"A": "west", "B": "east"} if dx >= 0 else {"A": "east", "B": "west"}
    return {"A": "north", "B": "south"} if dy >= 0 else {"A": "south", "B": "north"}


def _hexes(raw: Mapping[str, object], board: HexMap, problems: list[str]) -> list[list[str | int]]:
    hexes = raw.get("hexes", {})
    if not isinstance(hexes, dict):
        problems.append("hexes: a table of hex label = {terrain, elevation} is required")
        return []
    out: list[list[str | int]] = []
    for label, cell in hexes.items():
        where = f"hexes.{label}"
        try:
            h = board.parse(str(label))
        except RulekeeperError as exc:
            problems.append(f"{where}: {exc.message}")
            continue
        if not isinstance(cell, dict) or set(cell) - {"terrain", "elevation"}:
            problems.append(f"{where}: a table with terrain and/or elevation is required")
            continue
        terrain = cell.get("terrain", "open")
        if terrain not in TERRAINS:
            problems.append(f"{where}.terrain: one of {', '.join(TERRAINS)} is required, got {terrain!r}")
        elevation = _int({"elevation": cell.get("elevation", 0)}, "elevation", -MAX_ELEVATION, MAX_ELEVATION,
                         problems, f"{where}.")
        out.append([board.label(h), str(terrain), elevation])
    return sorted(out, key=lambda t: (board.parse(str(t[0])).r, board.parse(str(t[0])).q))


def ethnicities(raw: Mapping[str, object], names: dict[str, str]) -> dict[str, str]:
    """Each side's people: ``[sides.A] ethnicity = "..."``, else the side's name (issue 25: the shipped special
    units belong to the peoples of the shipped scenarios, named as their sides are)."""
    sides = raw.get("sides")
    out = dict(names)
    for s in SIDES:
        entry = sides.get(s) if isinstance(sides, dict) else None
        if isinstance(entry, dict) and entry.get("ethnicity"):
            out[s] = str(entry["ethnicity"])
    return out


def _units(raw: Mapping[str, object], board: HexMap, problems: list[str],
           peoples: dict[str, str]) -> list[ScenarioUnit]:
    units = raw.get("units")
    if not isinstance(units, list) or not units:
        problems.append("units: a list of [[units]] tables is required")
        return []
    out: list[ScenarioUnit] = []
    names: set[str] = set()
    hexes: set[str] = set()
    for i, u in enumerate(units):
        where = f"units[{i}]"
        if not isinstance(u, dict) or set(u) - {"side", "type", "name", "hex"}:
            problems.append(f"{where}: a table of side, type, hex and an optional name is required")
            continue
        try:
            card = unit_types().get(str(u.get("type", "")))
        except RulekeeperError as exc:
            problems.append(f"{where}.type: {exc.message}")
            continue
        name = str(u.get("name") or card.name)
        if u.get("side") not in SIDES:
            problems.append(f"{where}.side: A or B is required, got {u.get('side')!r}")
        elif card.ethnicity is not None and card.ethnicity != peoples[str(u["side"])]:
            # "those are unique to ethnicities"
            problems.append(f"{where}.type: {card.name} are a special unit of the {card.ethnicity}, not of the "
                            f"{peoples[str(u['side'])]} (side {u['side']})")
        if name in names:
            problems.append(f"{where}.name: {name!r} is used twice (units are found by name)")
        try:
            label = board.label(board.parse(str(u.get("hex", ""))))
        except RulekeeperError as exc:
            problems.append(f"{where}.hex: {exc.message}")
            continue
        if label in hexes:
            problems.append(f"{where}.hex: {label} already holds a unit (one unit per hex)")
        names.add(name)
        hexes.add(label)
        out.append({"name": name, "side": str(u.get("side")), "type": card.name, "hex": label})
    for s in SIDES:
        if out and not any(u["side"] == s for u in out):
            problems.append(f"units: side {s} has no unit")
        generals = [u["name"] for u in out if u["side"] == s and unit_types().get(u["type"]).has(RALLIES)]
        if len(generals) > 1:  # "their general": one a side
            problems.append(f"units: side {s} has {len(generals)} generals ({', '.join(generals)}); one a side at most")
        if out and generals and all(u["side"] != s or u["name"] in generals for u in out):
            problems.append(f"units: side {s} has only its general (a general alone holds no field)")
    return out


def read_scenario(path: Path) -> ScenarioDoc:
    """A scenario file checked whole, as the initial document keeps it."""
    raw = read_data_file(path)
    if not isinstance(raw, dict):
        raise DataFileError(str(path), ["(top level): a scenario is a table of keys"])
    problems: list[str] = []
    if raw.get("ruleset", "battlesystem") != "battlesystem":
        problems.append(f"ruleset: is {raw.get('ruleset')!r}, not 'battlesystem'")
    for key in ("name", "description"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(f"{key}: a text is required")
    problems += [f"{k}: unknown key (expected one of {', '.join(sorted(KEYS))})" for k in sorted(set(raw) - KEYS)]
    width = _int(raw, "width", 2, MAX_SIDE, problems)
    height = _int(raw, "height", 2, 99, problems)
    turn_limit = _int(raw, "turn_limit", 2, 1000, problems)
    sides = _sides(raw, problems)
    board = HexMap.rectangle(width, height)
    terrain = _hexes(raw, board, problems)
    units = _units(raw, board, problems, ethnicities(raw, sides))
    edges = _edges(raw, problems)
    if problems:
        raise DataFileError(str(path), problems)
    return {"name": raw["name"], "description": raw["description"], "width": width, "height": height,
            "turn_limit": turn_limit, "sides": sides, "terrain": terrain, "units": units,
            "edges": edges or home_edges(width, height, units)}


def shipped_scenarios() -> list[ScenarioInfo]:
    out = []
    for p in sorted(SCENARIO_DIR.glob("*.yaml")):
        sc = read_scenario(p)
        out.append(ScenarioInfo(p.stem, sc["name"], sc["description"], p))
    return out
