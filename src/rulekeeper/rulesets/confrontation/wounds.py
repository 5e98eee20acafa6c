"""The Wound Table as data (estimated) and damage rolls on it, with exact odds and a draw.

The seed refers to "the Wound Table (page 78)" without giving it, so the table lives in
``data/wound_table.yaml``, marked ``estimated``, and a player may load their own book's instead
through :func:`load_wound_table` (typed :class:`~rulekeeper.core.errors.DataFileError` on any
problem). Damage hooks compose in this order (docs/rules/confrontation.md, "Damage rolls"):
cancellation rolls first ("before any Damage Roll"), then the roll, then the sum of every line
shift clamped once to the table (so Bane and Hard-boiled "cancel each other out" exactly, even
on the first or last line), then Ferocious ("Stunned (after applying modifiers)").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError

from .effects import Amount
from .rolls import OPENING_CAP, opening_chain

WOUND_TABLE = Path(__file__).parent / "data" / "wound_table.yaml"
#: The lines a table may use: the seed's names, plus the line of a roll that does nothing.
LINE_NAMES = ("No effect", "Stunned", "Light", "Serious", "Critical", "Killed outright")
CANCELLED = "Cancelled"
#: A damage roll cancelled by Survival instinct's Instinct roll: told apart, since "A fighter who successfully uses
#: this ability during an exchange cannot use it anymore for the duration of the exchange".
INSTINCT = "Cancelled (Survival instinct)"
#: HP each wound line costs (estimated: Light, Serious and Critical as one, two and three steps).
DEFAULT_HP_LOST = (("Light", 1), ("Serious", 2), ("Critical", 3))
#: Wound levels by HP lost, their penalties and the characteristics they touch (estimated but Serious's 2,
#: the seed's Sequence example; ``data/wound_table.yaml`` says why). Used when a table file omits them.
DEFAULT_LEVELS = (("Light", 1), ("Serious", 2), ("Critical", 3))
DEFAULT_PENALTIES = (("Light", 1), ("Serious", 2), ("Critical", 3), ("Stunned", 1))
DEFAULT_PENALISED = ("INI", "ATT", "STR", "DEF", "AIM")
WOUND_LEVELS = ("Light", "Serious", "Critical")
#: How the damage roll is read, by dice rolled. Third-edition rules: "2d6; the higher die + the attack's Strength −
#: the target's Resilience is read on the Wound Table; the lower die gives the hit location where location matters".
ROLLS = {1: "D6 + STR - RES", 2: "2D6 highest + STR - RES"}


class LineShift(Amount):
    """Read the damage ``value`` lines lower (positive: more severe, Bane) or higher (negative, Hard-boiled)."""

    __slots__ = ()


class CancellationRoll(Amount):
    """Before the damage roll, 1d6: on ``value`` or more the damage roll is cancelled."""

    __slots__ = ()


class InstinctRoll(CancellationRoll):
    """Survival instinct's Instinct roll: rolled first (a decision), before any other cancellation roll."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class StunnedReadAs:
    """Ferocious: a Stunned result (after modifiers) is read as this line instead."""

    line: str


DamageHook = LineShift | StunnedReadAs | CancellationRoll | InstinctRoll


@dataclass(frozen=True, slots=True)
class WoundTable:
    """Lines from the first (least severe) to the last, each with the lowest result read on it."""

    lines: tuple[str, ...]
    starts: tuple[int, ...]  # starts[i] is where line i+1 begins
    opens: frozenset[int]
    estimated: bool
    hp_lost: tuple[tuple[str, int], ...] = DEFAULT_HP_LOST
    levels: tuple[tuple[str, int], ...] = DEFAULT_LEVELS
    penalties: tuple[tuple[str, int], ...] = DEFAULT_PENALTIES
    penalised: tuple[str, ...] = DEFAULT_PENALISED
    dice: int = 1  # 1: one die; 2: the higher of two dice (third-edition rules)

    @property
    def roll(self) -> str:
        return ROLLS[self.dice]

    def hp_of(self, line: str) -> int:
        """HP a line costs (``Killed outright`` kills whatever the HP: it is not in this table)."""
        return dict(self.hp_lost).get(line, 0)

    def level_of(self, hp_lost: int) -> int:
        """The wound level (0 none, 1 Light, 2 Serious, 3 Critical) of a fighter who lost ``hp_lost`` HP."""
        return sum(1 for _name, start in self.levels if hp_lost >= start)

    def penalty_of(self, level: str) -> int:
        """What a wound level (or ``Stunned``) subtracts from each penalised characteristic."""
        return dict(self.penalties).get(level, 0)

    def line_of(self, result: int) -> int:
        return sum(1 for s in self.starts if result >= s)


def _whole_numbers(value: object, key: str, names: tuple[str, ...]) -> list[str]:
    """The one check of the table's small mappings (``hp_lost``, ``levels``, ``penalties``): name -> 0..20."""
    if isinstance(value, dict) and all(k in names and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20
                                       for k, v in value.items()):
        return []
    return [f"`{key}` must map {', '.join(names)} to a whole number 0..20"]


def _problems(data: object) -> list[str]:
    if not isinstance(data, dict):
        return ["the wound table must be a mapping"]
    out = [f"unknown key {k!r}" for k in data if k not in ("estimated", "source", "roll", "opens", "lines", "hp_lost",
                                                                   "levels", "penalties", "penalised")]
    if not isinstance(data.get("estimated"), bool):
        out.append("`estimated` must be true or false (say whether the table is the book's)")
    opens = data.get("opens", [])
    if not isinstance(opens, list) or any(not isinstance(f, int) or isinstance(f, bool) or not 2 <= f <= 6 for f in opens):
        out.append("`opens` must be a list of faces 2..6")
    for key, allowed in (("hp_lost", ("Stunned", *WOUND_LEVELS)), ("levels", WOUND_LEVELS),
                         ("penalties", ("Stunned", *WOUND_LEVELS))):
        out += _whole_numbers(data.get(key, {}), key, allowed)
    if str(data.get("roll", ROLLS[1])).upper() not in (r.upper() for r in ROLLS.values()):
        out.append(f"`roll` must be {' or '.join(repr(r) for r in ROLLS.values())}")
    penalised = data.get("penalised", [])
    if not isinstance(penalised, list) or any(c not in ("INI", "ATT", "STR", "DEF", "RES", "AIM", "COU", "DIS",
                                                         "POW", "FAI") for c in penalised):
        out.append("`penalised` must list characteristics (INI, ATT, STR, DEF, RES, AIM, COU, DIS, POW, FAI)")
    lines = data.get("lines")
    if not isinstance(lines, list) or len(lines) < 2:
        return [*out, "`lines` must list at least two lines"]
    for i, entry in enumerate(lines):
        if not isinstance(entry, dict) or entry.get("line") not in LINE_NAMES:
            out.append(f"line {i + 1}: `line` must be one of {', '.join(LINE_NAMES)}")
        elif i and (not isinstance(entry.get("from"), int) or isinstance(entry.get("from"), bool)):
            out.append(f"line {i + 1} ({entry['line']}): `from` must be a whole number")
        elif i == 0 and "from" in entry:
            out.append("line 1 reads every result below line 2: it takes no `from`")
    if not out:
        names = [e["line"] for e in lines]
        starts = [e["from"] for e in lines[1:]]
        if len(set(names)) != len(names):
            out.append("a line is listed twice")
        if any(b <= a for a, b in zip(starts, starts[1:], strict=False)):
            out.append("`from` must increase from line to line")
    return out


def parse_wound_table(data: object, where: str) -> WoundTable:
    problems = _problems(data)
    if problems or not isinstance(data, dict):  # _problems refuses every non-mapping
        raise DataFileError(where, problems)
    lines = data["lines"]
    return WoundTable(tuple(e["line"] for e in lines), tuple(e["from"] for e in lines[1:]),
                      frozenset(data.get("opens", [])), data["estimated"],
                      tuple(data["hp_lost"].items()) if "hp_lost" in data else DEFAULT_HP_LOST,
                      tuple(data["levels"].items()) if "levels" in data else DEFAULT_LEVELS,
                      tuple(data["penalties"].items()) if "penalties" in data else DEFAULT_PENALTIES,
                      tuple(data["penalised"]) if "penalised" in data else DEFAULT_PENALISED,
                      2 if str(data.get("roll", "")).upper() == ROLLS[2].upper() else 1)


def load_wound_table(path: Path = WOUND_TABLE) -> WoundTable:
    """The table in ``path`` (the shipped estimate by default), checked.

    The shipped table is read once per process: every fight's preview and roll asks for it, and
    reading it each time cost about a fifth of the action list with odds. A table is immutable.
    """
    if path == WOUND_TABLE:
        return _shipped_wound_table()
    return parse_wound_table(read_data_file(path), str(path))


@functools.cache
def _shipped_wound_table() -> WoundTable:
    return parse_wound_table(read_data_file(WOUND_TABLE), str(WOUND_TABLE))


@functools.cache
def damage_die(table: WoundTable) -> tuple[tuple[int, Fraction], ...]:
    """The die read on the table: one d6, or the higher of 2d6 (each kept face opening as ``opens`` says)."""
    if table.dice == 1:
        return opening_chain(table.opens, OPENING_CAP)
    out: dict[int, Fraction] = {}
    for face in range(1, 7):
        kept = Fraction(2 * face - 1, 36)  # the higher of two dice is ``face``
        chain = opening_chain(table.opens, OPENING_CAP - 1) if face in table.opens else ((face, Fraction(1)),)
        for value, p in chain:
            value = 6 + value if face in table.opens else value
            out[value] = out.get(value, Fraction(0)) + kept * p
    return tuple(sorted(out.items()))


def damage_odds(table: WoundTable, strength: int, resilience: int,
                hooks: tuple[DamageHook, ...] = ()) -> dict[str, Fraction]:
    """Exact odds of every line (and of ``Cancelled``, or of :data:`INSTINCT` for Survival instinct's roll, rolled
    first) for a damage roll: the table's die (:func:`damage_die`) + STR − RES."""
    instinct = cancel = Fraction(1)
    for hook in hooks:
        if isinstance(hook, CancellationRoll):
            fails = Fraction(min(6, max(0, hook.value - 1)), 6)
            if isinstance(hook, InstinctRoll):
                instinct *= fails
            else:
                cancel *= fails
    kept = instinct * cancel
    shift = sum(h.value for h in hooks if isinstance(h, LineShift))
    stunned_as = [h.line for h in hooks if isinstance(h, StunnedReadAs)]
    out: dict[str, Fraction] = {INSTINCT: 1 - instinct, CANCELLED: instinct * (1 - cancel)}
    for die, p in damage_die(table):
        index = min(len(table.lines) - 1, max(0, table.line_of(die + strength - resilience) + shift))
        line = table.lines[index]
        if line == "Stunned" and stunned_as and stunned_as[0] in table.lines:
            line = stunned_as[0]
        out[line] = out.get(line, Fraction(0)) + kept * p
    return {line: out[line] for line in (INSTINCT, CANCELLED, *table.lines) if out.get(line)}


def damage_request(label: str, table: WoundTable, strength: int, resilience: int,
                   hooks: tuple[DamageHook, ...] = ()) -> ChanceRequest:
    odds = damage_odds(table, strength, resilience, hooks)
    explain = (f"{table.roll.split(' +')[0]} + STR {strength} - RES {resilience}",) + (("wound table estimated",) if table.estimated else ())
    return discrete(label, [(line, float(p)) for line, p in odds.items()], explain)


def roll_damage(fate: Fate, label: str, table: WoundTable, strength: int, resilience: int,
                hooks: tuple[DamageHook, ...] = ()) -> str:
    """Draw the damage roll's line (or ``Cancelled``) through ``fate``, with :func:`damage_request`'s odds."""
    return fate.draw(damage_request(label, table, strength, resilience, hooks)).outcome
