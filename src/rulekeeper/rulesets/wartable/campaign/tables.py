"""Delve tables (and quests, bounties, prayers, world events) as data, rolled through Fate.

The seed says the results of a delve "are determined randomly on a table such as the example
provided below" and then stops: the table itself is lost. So tables are files a game master
writes: a die with ranges ("d100: 01-20 …") or plain weights, each entry with its effects
(Health, Stability, Faith, items). A table is checked once (a gap or an overlap in the ranges is
refused, naming the entries) and every roll goes through :class:`rulekeeper.core.chance.Fate`
with the exact odds of every entry recorded, so a roll can be shown, re-checked and replayed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Annotated, TypedDict

from pydantic import Field, ValidationError, model_validator

from rulekeeper.core.chance import ChanceRecord, ChanceResult, Fate, discrete
from rulekeeper.core.errors import DataFileError, UnknownNameError

from ..data import Name, StatNumber, StrictModel, read_mapping, validation_problems
from ..report_json import Num
from ..rounding import exact, num

DICE = re.compile(r"^d([1-9][0-9]{0,3})$")
ROLL = re.compile(r"^\s*([0-9]{1,4})\s*(?:-\s*([0-9]{1,4})\s*)?$")
SHIPPED = "rulekeeper/rulesets/wartable/campaign/tables"
#: Bounds on a game master's table, far above any real one (a d100 has 100 faces): a hostile file
#: gets a typed refusal, not a stored campaign whose every roll walks 200,000 entries.
MAX_ENTRIES = 1000
MAX_WEIGHT = 1e9  # weights must sum to a finite float for Fate's draw
MAX_EFFECT = 1e6  # Health, Stability and Faith effects (the seed's stats are in the tens and hundreds)

Effect = Annotated[StatNumber, Field(ge=-MAX_EFFECT, le=MAX_EFFECT)]


class EffectsSchema(StrictModel):
    """What an entry does: Health to the delving unit, Stability to the Enclave, Faith, items."""

    health: Effect = 0
    stability: Effect = 0
    faith: Effect = 0
    items: list[Name] = []


class EntrySchema(StrictModel):
    """One entry: a die range (``roll: "01-20"``) or a ``weight``, never both."""

    result: Name
    roll: Annotated[str, Field(min_length=1)] | int | None = None
    weight: Annotated[StatNumber, Field(gt=0, le=MAX_WEIGHT)] | None = None
    text: str | None = None
    effects: EffectsSchema = EffectsSchema()

    @model_validator(mode="after")
    def _one_way(self) -> EntrySchema:
        if (self.roll is None) == (self.weight is None):
            raise ValueError("give either roll (a die range such as '01-20') or weight, not both or neither")
        return self


class TableSchema(StrictModel):
    """A whole table file; ``example``/``estimate`` mark a table that is ours, not the game's.

    ``replaces`` names the tables a game master's own table stands in for when it is given with
    ``--data`` (``[delve_example]``: every Dungeon that rolls on the shipped example rolls on it).
    """

    table: Name
    about: str | None = None
    example: bool = False
    estimate: str | None = None
    dice: str | None = None
    replaces: list[Name] = []
    entries: list[EntrySchema] = Field(min_length=1, max_length=MAX_ENTRIES)


class EffectsJson(TypedDict):
    health: Num
    stability: Num
    faith: Num
    items: list[str]


class RollJson(TypedDict):
    """A Delve roll in the round's report: the entry drawn, its odds, every entry's odds, Fate's record."""

    table: str
    result: str
    span: str
    odds: str
    all_odds: list[list[str]]
    effects: EffectsJson
    chance: ChanceRecord


@dataclass(frozen=True)
class Effects:
    health: Fraction = Fraction(0)
    stability: Fraction = Fraction(0)
    faith: Fraction = Fraction(0)
    items: tuple[str, ...] = ()

    def to_dict(self) -> EffectsJson:
        return {"health": num(self.health), "stability": num(self.stability), "faith": num(self.faith),
                "items": list(self.items)}


@dataclass(frozen=True)
class Entry:
    """A checked entry: its result, its share of the die (``low..high``) or weight, its effects."""

    result: str
    weight: Fraction
    effects: Effects
    low: int | None = None
    high: int | None = None
    text: str | None = None

    @property
    def span(self) -> str:
        if self.low is None:
            return f"weight {num(self.weight)}"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class RollTable:
    """A checked table: ``sides`` is the die's size (None for a weighted table)."""

    name: str
    entries: tuple[Entry, ...]
    sides: int | None = None
    example: bool = False
    estimate: str | None = None
    source: str = ""

    def odds(self) -> tuple[tuple[str, Fraction], ...]:
        """Every entry's exact chance (a range's share of the die, or weight / total weight)."""
        total = sum((e.weight for e in self.entries), Fraction(0))
        return tuple((e.result, e.weight / total) for e in self.entries)

    def entry(self, result: str) -> Entry:
        for e in self.entries:
            if e.result == result:
                return e
        raise UnknownNameError("table entry", result, [e.result for e in self.entries])


@dataclass(frozen=True)
class TableRoll:
    """One roll: the entry drawn, its exact odds, every entry's odds, and Fate's record of the draw."""

    table: str
    entry: Entry
    odds: Fraction
    all_odds: tuple[tuple[str, Fraction], ...]
    chance: ChanceResult

    def to_dict(self) -> RollJson:
        return {
            "table": self.table,
            "result": self.entry.result,
            "span": self.entry.span,
            "odds": str(self.odds),
            "all_odds": [[r, str(p)] for r, p in self.all_odds],
            "effects": self.entry.effects.to_dict(),
            "chance": self.chance.to_dict(),
        }


def _range(value: str | int, sides: int) -> tuple[int, int] | None:
    """``"01-20"`` → (1, 20); on a d100 (d10…) "00" ("0") reads as 100 (10), as players write it."""
    m = ROLL.match(str(value))
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2) or m.group(1))
    low, high = (sides if low == 0 else low), (sides if high == 0 else high)
    return (low, high) if 1 <= low <= high <= sides else None


def _coverage(ranges: list[tuple[int, int, int, str]], sides: int) -> list[str]:
    """Problems of the ranges on a d``sides``: overlaps and gaps, naming the entries on both sides."""
    problems: list[str] = []
    ordered = sorted(ranges)
    nxt, prev = 1, "the start of the die"
    for low, high, i, result in ordered:
        here = f"entries[{i}] {result!r} ({low}-{high})"
        if low < nxt and nxt > 1:
            problems.append(f"entries[{i}].roll: {here} overlaps {prev} on {low}-{min(high, nxt - 1)}")
        elif low > nxt:
            problems.append(f"entries[{i}].roll: no entry covers {nxt}-{low - 1} (a gap between {prev} and {here})")
        if high + 1 > nxt:
            nxt, prev = high + 1, here
    if nxt <= sides:
        problems.append(f"entries: no entry covers {nxt}-{sides} (a gap after {prev})")
    return problems


def _entries(doc: TableSchema, sides: int | None) -> tuple[list[Entry], list[str]]:
    """Each schema entry as a checked :class:`Entry`, and the problems found on the way."""
    entries: list[Entry] = []
    problems: list[str] = []
    ranges: list[tuple[int, int, int, str]] = []
    seen: dict[str, int] = {}
    for i, e in enumerate(doc.entries):
        if e.result in seen:
            problems.append(f"entries[{i}].result: {e.result!r} repeats entries[{seen[e.result]}]")
        seen.setdefault(e.result, i)
        fx = e.effects
        effects = Effects(exact(fx.health), exact(fx.stability), exact(fx.faith), tuple(fx.items))
        if sides is None:
            if e.roll is not None:
                problems.append(f"entries[{i}].roll: a die range needs the table's dice (e.g. dice: d100)")
                continue
            entries.append(Entry(e.result, exact(e.weight or 0), effects, text=e.text))
            continue
        span = None if e.roll is None else _range(e.roll, sides)
        if span is None:
            problems.append(f"entries[{i}].roll: expected a range such as '01-20' within 1-{sides}, got {e.roll!r}")
            continue
        ranges.append((span[0], span[1], i, e.result))
        entries.append(Entry(e.result, Fraction(span[1] - span[0] + 1), effects, span[0], span[1], e.text))
    if sides is not None and not problems:
        problems += _coverage(ranges, sides)
    return entries, problems


def parse_table(raw: object, where: str) -> RollTable:
    """Validate a parsed table file; every problem in one :class:`DataFileError` naming file and field."""
    try:
        doc = TableSchema.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(where, validation_problems(exc)) from None
    sides: int | None = None
    if doc.dice is not None:
        m = DICE.match(doc.dice.strip().lower())
        if m is None:
            raise DataFileError(where, [f"dice: expected a die such as 'd100' or 'd20', got {doc.dice!r}"])
        sides = int(m.group(1))
    entries, problems = _entries(doc, sides)
    if problems:
        raise DataFileError(where, problems)
    return RollTable(doc.table, tuple(entries), sides, doc.example, doc.estimate, where)


def load_table(path: Path | str) -> RollTable:
    """A table file (YAML, or TOML by suffix) read through the core's bounded loader."""
    return parse_table(read_mapping(path), str(path))


def shipped_table(name: str) -> RollTable:
    """A table shipped in the package (``campaign/tables/NAME.yaml``), e.g. ``delve_example``."""
    base = resources.files("rulekeeper.rulesets.wartable.campaign").joinpath("tables")
    res = base.joinpath(f"{name}.yaml")
    if not res.is_file():
        known = [p.name.removesuffix(".yaml") for p in base.iterdir() if p.name.endswith(".yaml")]
        raise UnknownNameError("shipped table", name, known)
    where = f"{SHIPPED}/{name}.yaml"
    return parse_table(read_mapping(where, res.read_text(encoding="utf-8")), where)


def roll_on(table: RollTable, fate: Fate, label: str | None = None) -> TableRoll:
    """Roll once on ``table`` through ``fate`` (never ``random``): one discrete draw, odds recorded.

    The draw's weights are the entries' exact weights (a range's size on the die), so the
    probabilities Fate records are exactly the table's odds.
    """
    odds = table.odds()
    explain = tuple(f"{e.span}: {e.result}" for e in table.entries)
    request = discrete(label or table.name, [(e.result, float(e.weight)) for e in table.entries], explain)
    drawn = fate.draw(request)
    entry = table.entry(drawn.outcome)
    return TableRoll(table.name, entry, dict(odds)[entry.result], odds, drawn)
