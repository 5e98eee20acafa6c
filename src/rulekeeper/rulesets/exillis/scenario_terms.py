"""The terms an Ex illis scenario is written in: sides, zone names, board limits, partial units and their cost.

Kept apart from the scenario model (:mod:`.scenario`) so the rule checks
(:mod:`.scenario_checks`), the muster rules and the pricing can use them without the model;
:mod:`.scenario` re-exports every name.
"""

from __future__ import annotations

import math
import re
from typing import Literal

Side = Literal["A", "B"]
SIDES: tuple[Side, Side] = ("A", "B")
#: One column letter per column, so at most 26 columns.
MAX_WIDTH = 26
#: Rows are numbered from 1; two digits are plenty (the seed's longest board is 20 x 3).
MAX_HEIGHT = 99
#: Special rules that change deployment: a Loner has no Retinue, a Huge unit takes 2 spaces.
LONER = "Loner"
HUGE = "Huge"
#: A zone without a terrain entry is open ground ("Field ... does not count as a terrain feature").
DEFAULT_FEATURE = "fields"

_ZONE = re.compile(r"^([A-Za-z])([1-9][0-9]*)$")


def parse_zone(name: str) -> tuple[int, int]:
    """``"C2"`` -> ``(2, 1)``: 0-based (column, row); letters are case-insensitive.

    Our own tiny parser, so scenarios do not depend on the board module. ValueError if
    the name is not one letter followed by a row number from 1.
    """
    match = _ZONE.match(name.strip())
    if match is None:
        raise ValueError(f"malformed zone name {name!r}: expected a column letter and a row number from 1, like 'C4'")
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1


def zone_name(col: int, row: int) -> str:
    """``(2, 1)`` -> ``"C2"``, the inverse of :func:`parse_zone`."""
    return f"{chr(ord('A') + col)}{row + 1}"


def minimum_miniatures(full: int) -> int:
    """The smallest legal partial unit: "the majority (50% + 1)" -- 8 -> 5, 4 -> 3, 2 -> 2, 1 -> 1."""
    return full // 2 + 1


def unit_cost(basic_cost: float, level: int, miniatures: int, full: int) -> int:
    """The seed's "Unit's Cost = Basic Cost x 2^(Level/10) x Number of miniatures" (/ full size).

    Rounded half up ("rounded up to the closest whole number"); the tiny epsilon keeps a
    true .5 that floating point stores as .4999... from rounding down. Level 1 already
    costs Basic x 2^(1/10), read literally (6 Billmen at level 8: 40 x 1.7411 x 6/8 = 52).
    """
    return math.floor(basic_cost * 2 ** (level / 10) * miniatures / full + 0.5 + 1e-9)
