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

Each muster is first checked by :func:`.muster_checks.check_army` (the rules ``rulekeeper
muster check`` reports: game-type levels, partial units, heroes, General, faction); a muster
that breaks any is refused with all its problems (:class:`InvalidMusterError`). The scenario
then goes through :meth:`Scenario.from_dict`, so every rule the scenario checker enforces is
checked too, with its usual messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NotRequired, TypedDict

from rulekeeper.core.armylist import ArmyList
from rulekeeper.core.errors import DataFileError, ImpossibleRequestError, RulekeeperError
from rulekeeper.core.wording import counted

from .campaign import effective_level
from .muster import Muster
from .muster_checks import check_army
from .musters_data import MustersData, load_musters_data
from .profiles import Roster, load_profiles
from .rules_data import RulesData, load_rules_data
from .scenario import DEFAULT_FEATURE, HUGE, MAX_HEIGHT, MAX_WIDTH, Scenario, zone_name

__all__ = [
    "DEFAULT_BOARD", "BattleSetupError", "BoardTooSmallError", "InvalidMusterError", "army_list", "army_units",
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


class InvalidMusterError(DataFileError):
    """A muster breaks rules of musters (``rulekeeper muster check`` lists the same problems)."""

    code = "invalid_muster"


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
        raise BattleSetupError(f"a board of {counted(width, 'column')} leaves no deployment area for side B", width=width)
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


class ScenarioUnitDoc(TypedDict):
    """A muster entry as a scenario file's unit entry (``zone`` set when it is deployed)."""

    unit: str
    level: int
    miniatures: NotRequired[int]
    hero: NotRequired[str]
    hero_level: NotRequired[int]
    zone: NotRequired[str]


class ScenarioArmyDoc(TypedDict):
    """A muster as a scenario file's army entry."""

    side: str
    name: str
    deployment: list[str]
    units: list[ScenarioUnitDoc]
    general: NotRequired[str]


def army_list(muster: Muster, roster: Roster, data: MustersData) -> ArmyList:
    """The muster with every default resolved; :class:`InvalidMusterError` lists every broken rule."""
    army = muster.to_army_list()
    problems = check_army(army, roster, data)
    if problems:
        raise InvalidMusterError(f"muster {muster.name!r}", [p.text() for p in problems])
    return army


def army_units(army: ArmyList, roster: Roster, data: MustersData) -> list[ScenarioUnitDoc]:
    """The list's entries as scenario unit entries (no zone yet), Named Characters at their level."""
    game = data.game_type(army.game_type)

    def level_of(name: str, level: int) -> int:
        profile = roster.get(name)
        named = data.named(profile.name)
        if named is None:
            return level
        return effective_level(min(named.level, profile.max_level), game.max_level)

    out: list[ScenarioUnitDoc] = []
    for entry in army.units:
        item: ScenarioUnitDoc = {"unit": entry.unit, "level": level_of(entry.unit, entry.level)}
        if entry.miniatures is not None:
            item["miniatures"] = entry.miniatures
        if entry.attached is not None:
            item["hero"] = entry.attached
            item["hero_level"] = level_of(entry.attached, entry.attached_level)
        out.append(item)
    return out


def _space(unit: str, roster: Roster) -> int:
    """Zone space an entry takes: 2 for a Huge unit, else 1 (a hero counts with its Retinue)."""
    profile = roster.find(unit)
    return 2 if profile is not None and HUGE in profile.special_rules else 1


def _deploy(muster: ArmyList, side: str, units: list[ScenarioUnitDoc], zones: list[str], capacity: int,
            roster: Roster, board: tuple[int, int]) -> None:
    """Give each entry a zone: the first zone, in ``zones`` order, that still has room for it."""
    free = dict.fromkeys(zones, capacity)
    for i, item in enumerate(units, 1):
        need = _space(item["unit"], roster)
        zone = next((z for z in zones if free[z] >= need), None)
        if zone is None:
            total = sum(_space(u["unit"], roster) for u in units)
            entries = counted(len(units), "entry", "entries") + (" needs" if len(units) == 1 else " need")
            space = counted(total, "unit's space", "units' space")
            raise BoardTooSmallError(
                f"muster {muster.name!r} (side {side}) does not fit on a {board[0]} x {board[1]} board: its "
                f"{entries} {space} but its deployment zones ({', '.join(zones)}) "
                f"hold {capacity} per zone, {capacity * len(zones)} in all (entry {i}, {item['unit']!r}, found no "
                "room); use a larger --board or a smaller muster",
                muster=muster.name, side=side, needed=total, room=capacity * len(zones))
        free[zone] -= need
        item["zone"] = zone


def scenario_from_musters(
    a: Muster, b: Muster, width: int = DEFAULT_BOARD[0], height: int = DEFAULT_BOARD[1], *,
    roster: Roster | None = None, rules: RulesData | None = None, data: MustersData | None = None,
    turn_limit: int = 0,
) -> Scenario:
    """The checked, normalised scenario of ``a`` (side A) against ``b`` (side B) on a bare board.

    Raises :class:`InvalidMusterError` (a muster breaks muster rules), :class:`BoardTooSmallError`,
    :class:`BattleSetupError` (a bad board) or the scenario checker's :class:`DataFileError`.
    """
    roster = load_profiles() if roster is None else roster
    rules = load_rules_data() if rules is None else rules
    data = load_musters_data() if data is None else data
    if not 2 <= width <= MAX_WIDTH or not 1 <= height <= MAX_HEIGHT:
        raise BattleSetupError(f"board {width} x {height}: expected 2 to {MAX_WIDTH} columns and 1 to "
                               f"{MAX_HEIGHT} rows", width=width, height=height)
    capacity = rules.terrain_feature(DEFAULT_FEATURE).capacity
    cols_a, cols_b = deployment_columns(width)
    lists = [army_list(m, roster, data) for m in (a, b)]
    armies = []
    for side, army, cols in (("A", lists[0], cols_a), ("B", lists[1], cols_b)):
        zones = zone_order(cols, height)
        units = army_units(army, roster, data)
        _deploy(army, side, units, zones, capacity, roster, (width, height))
        doc: ScenarioArmyDoc = {"side": side, "name": army.name, "deployment": sorted(
            zones, key=lambda z: (z[0], int(z[1:]))), "units": units}
        if army.general is not None:
            doc["general"] = army.general
        armies.append(doc)
    return Scenario.from_dict({
        "name": f"{a.name} vs {b.name}",
        "description": f"Battle from musters: {a.name} ({a.game_type}) against {b.name} ({b.game_type}) on an "
                       f"open {width} x {height} board.",
        "first": "A",
        "board": {"width": width, "height": height, "turn_limit": turn_limit},
        "armies": armies,
    }, roster, rules, where=f"musters {a.name!r} and {b.name!r}")
