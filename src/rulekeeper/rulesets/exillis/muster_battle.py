"""A battle from two musters: the scenario :func:`scenario_from_musters` builds.

A muster says who fights, not where; this module deploys both armies on an open board
(decisions in ``docs/rules/exillis-campaign.md``):

* side A deploys on the first two columns, side B on the last two (one column each on a
  board 2 or 3 columns wide, so the sides never share a column);
* zones are filled in muster order, each unit going to the first zone with room
  ("up to 3 units from each side" per zone, read from the ``fields`` terrain so data
  overrides apply; a hero counts with its Retinue, a Huge unit takes 2), the front
  column first and, in each column, the middle rows first;
* heroes join the unit the muster attaches them to, the General is the muster's;
* a Named Character plays "to the maximum level allowed by the game (without exceeding
  their personal maximum level)", whatever level the muster gives;
* no randomness: the same musters and board always give the same scenario.

The scenario then goes through :meth:`Scenario.from_dict`, so every rule the scenario
checker enforces (unit names, partial units, levels, heroes, the General) is checked with
its usual messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from rulekeeper.core.errors import ImpossibleRequestError, RulekeeperError

from .campaign import effective_level, game_type, is_named
from .profiles import Roster, load_profiles
from .rules_data import RulesData, load_rules_data
from .scenario import DEFAULT_FEATURE, HUGE, MAX_HEIGHT, MAX_WIDTH, Scenario, zone_name

__all__ = [
    "DEFAULT_BOARD", "BattleSetupError", "BoardTooSmallError", "MusterEntryLike", "MusterLike", "army_units",
    "deployment_columns", "parse_board", "scenario_from_musters", "zone_order",
]

#: The board of a battle from musters when none is given: the starter box's 20-tile mat.
DEFAULT_BOARD = (5, 4)


class BattleSetupError(RulekeeperError):
    """A battle cannot be set up as asked (a scenario and musters, no musters, a bad board...)."""

    code = "battle_setup"


class BoardTooSmallError(ImpossibleRequestError):
    """The board has no room to deploy every unit of a muster."""

    code = "board_too_small"


class MusterEntryLike(Protocol):
    """One muster entry as :mod:`.muster` models it (read-only view)."""

    @property
    def unit(self) -> str: ...
    @property
    def miniatures(self) -> int | None: ...
    @property
    def level(self) -> int: ...
    @property
    def hero(self) -> str | None: ...
    @property
    def hero_level(self) -> int | None: ...


class MusterLike(Protocol):
    """A muster as :mod:`.muster` models it (read-only view)."""

    @property
    def name(self) -> str: ...
    @property
    def game_type(self) -> str: ...
    @property
    def general(self) -> str | None: ...
    @property
    def units(self) -> Sequence[MusterEntryLike]: ...


_BOARD = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


def parse_board(text: str) -> tuple[int, int]:
    """``"5x4"`` -> ``(5, 4)``: columns by rows; a BattleSetupError names what is wrong."""
    match = _BOARD.match(text)
    if match is None:
        raise BattleSetupError(f"--board {text!r}: expected columns x rows, like 5x4", board=text)
    width, height = int(match.group(1)), int(match.group(2))
    if not 2 <= width <= MAX_WIDTH or not 1 <= height <= MAX_HEIGHT:
        raise BattleSetupError(
            f"--board {text!r}: a battle from musters needs 2 to {MAX_WIDTH} columns (one per side at least) "
            f"and 1 to {MAX_HEIGHT} rows", board=text)
    return width, height


def deployment_columns(width: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """0-based columns of side A and side B, front column first.

    Two columns each ("side A deploys on the first two columns, B on the last two"); a board of
    2 or 3 columns gives each side one, so the two deployment areas never share a zone.
    """
    if width < 2:
        raise BattleSetupError(f"a board of {width} column(s) leaves no deployment area for side B", width=width)
    depth = min(2, width // 2)
    a = tuple(range(depth - 1, -1, -1))  # B then A: the front first
    b = tuple(range(width - depth, width))  # D then E
    return a, b


def _rows_middle_out(height: int) -> list[int]:
    """0-based rows from the middle outward, the upper of two middle rows first: 4 -> 1, 2, 0, 3."""
    centre = (height - 1) / 2
    return sorted(range(height), key=lambda r: (abs(r - centre), r))


def zone_order(columns: Sequence[int], height: int) -> list[str]:
    """The order in which a side's zones are filled: each column in turn, middle rows first."""
    rows = _rows_middle_out(height)
    return [zone_name(c, r) for c in columns for r in rows]


def army_units(muster: MusterLike, roster: Roster) -> list[dict[str, Any]]:
    """The muster's entries as scenario unit entries (no zone yet), Named Characters at their level."""
    gt = game_type(muster.game_type)
    out: list[dict[str, Any]] = []
    for entry in muster.units:
        unit_profile = roster.find(entry.unit)
        level = entry.level
        if unit_profile is not None and is_named(unit_profile.name):
            level = effective_level(unit_profile.max_level, gt)
        item: dict[str, Any] = {"unit": entry.unit, "level": level}
        if entry.miniatures is not None:
            item["miniatures"] = entry.miniatures
        if entry.hero is not None:
            hero_profile = roster.find(entry.hero)
            hero_level = entry.hero_level if entry.hero_level is not None else 1
            if hero_profile is not None and is_named(hero_profile.name):
                hero_level = effective_level(hero_profile.max_level, gt)
            item["hero"] = entry.hero
            item["hero_level"] = hero_level
        out.append(item)
    return out


def _space(unit: str, roster: Roster) -> int:
    """Zone space an entry takes: 2 for a Huge unit, else 1 (a hero counts with its Retinue)."""
    profile = roster.find(unit)
    return 2 if profile is not None and HUGE in profile.special_rules else 1


def _deploy(muster: MusterLike, side: str, units: list[dict[str, Any]], zones: list[str], capacity: int,
            roster: Roster, board: tuple[int, int]) -> None:
    """Give each entry a zone: the first zone, in ``zones`` order, that still has room for it."""
    free = dict.fromkeys(zones, capacity)
    for i, item in enumerate(units, 1):
        need = _space(item["unit"], roster)
        zone = next((z for z in zones if free[z] >= need), None)
        if zone is None:
            total = sum(_space(u["unit"], roster) for u in units)
            raise BoardTooSmallError(
                f"muster {muster.name!r} (side {side}) does not fit on a {board[0]} x {board[1]} board: its "
                f"{len(units)} entries need {total} units' space but its deployment zones ({', '.join(zones)}) "
                f"hold {capacity} per zone, {capacity * len(zones)} in all (entry {i}, {item['unit']!r}, found no "
                "room); use a larger --board or a smaller muster",
                muster=muster.name, side=side, needed=total, room=capacity * len(zones))
        free[zone] -= need
        item["zone"] = zone


def scenario_from_musters(
    a: MusterLike, b: MusterLike, width: int = DEFAULT_BOARD[0], height: int = DEFAULT_BOARD[1], *,
    roster: Roster | None = None, rules: RulesData | None = None, turn_limit: int = 0,
) -> Scenario:
    """The checked, normalised scenario of ``a`` (side A) against ``b`` (side B) on a bare board."""
    roster = load_profiles() if roster is None else roster
    rules = load_rules_data() if rules is None else rules
    if not 2 <= width <= MAX_WIDTH or not 1 <= height <= MAX_HEIGHT:
        raise BattleSetupError(f"board {width} x {height}: expected 2 to {MAX_WIDTH} columns and 1 to "
                               f"{MAX_HEIGHT} rows", width=width, height=height)
    capacity = rules.terrain_feature(DEFAULT_FEATURE).capacity
    cols_a, cols_b = deployment_columns(width)
    armies = []
    for side, muster, cols in (("A", a, cols_a), ("B", b, cols_b)):
        zones = zone_order(cols, height)
        units = army_units(muster, roster)
        _deploy(muster, side, units, zones, capacity, roster, (width, height))
        army: dict[str, Any] = {"side": side, "name": muster.name, "deployment": sorted(
            zones, key=lambda z: (z[0], int(z[1:]))), "units": units}
        if muster.general:
            army["general"] = muster.general
        armies.append(army)
    doc = {
        "name": f"{a.name} vs {b.name}",
        "description": f"Battle from musters: {a.name} ({a.game_type}) against {b.name} ({b.game_type}) on an "
                       f"open {width} x {height} board.",
        "first": "A",
        "board": {"width": width, "height": height, "turn_limit": turn_limit},
        "armies": armies,
    }
    return Scenario.from_dict(doc, roster, rules, where=f"musters {a.name!r} and {b.name!r}")
