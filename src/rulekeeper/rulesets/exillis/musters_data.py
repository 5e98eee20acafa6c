"""Schema and loader of the Ex illis muster data (``data/musters.yaml``).

Game types and their levels, the Shortage thresholds table, the Battle Points table, the
origin tags faction rules refer to ("Angelic units", "Celtic units", "human units"...), the
factions each hero may fight for, the faction rules with their cost effects, the General's
promotion cost per faction and the named characters. Every row carries its provenance
(``seed`` / ``wiki`` / ``estimated`` with a ``why``); see ``docs/rules/exillis-musters.md``.

The file is checked as a whole at load: unknown categories, tags, rules or factions named
anywhere raise one :class:`DataFileError` listing every problem with its field path.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, model_validator

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, UnknownNameError

from .profiles import CATEGORIES, normalise_name

__all__ = [
    "DATA_FILE", "BattlePointsTable", "BPRow", "Effect", "Faction", "FactionRule", "GameType", "HeroFactions",
    "MustersData", "NamedCharacter", "Origin", "ShortageBase", "Threshold", "load_musters_data",
]

DATA_FILE = Path(__file__).resolve().parent / "data" / "musters.yaml"
Source = Literal["seed", "wiki", "estimated", "user"]
_CONFIG = ConfigDict(frozen=True, extra="forbid")


class _Sourced(BaseModel):
    """A row with its provenance; an estimate must say why."""

    model_config = _CONFIG
    source: Source
    why: str = ""

    @model_validator(mode="after")
    def _estimates_explain_themselves(self) -> _Sourced:
        if self.source == "estimated" and not self.why.strip():
            raise ValueError("an estimated row needs a non-empty 'why' explaining the estimate")
        return self


class GameType(_Sourced):
    """"Common: level 1 to 10" ... "Anything Goes*: level 1 to 77" (*no BP)."""

    name: str = Field(min_length=1)
    min_level: StrictInt = Field(ge=1)
    max_level: StrictInt = Field(ge=1)
    earns_bp: bool = True

    @model_validator(mode="after")
    def _ordered(self) -> GameType:
        if self.min_level > self.max_level:
            raise ValueError(f"min_level {self.min_level} is above max_level {self.max_level}")
        return self

    @property
    def label(self) -> str:
        return f"{self.name} (levels {self.min_level}-{self.max_level})"


class Threshold(_Sourced):
    """One row of the Shortage table: past ``first`` the cost doubles, past ``second`` it triples."""

    name: str
    first: float = Field(gt=0, le=1)
    second: float | None = Field(default=None, gt=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> Threshold:
        if self.second is not None and self.second <= self.first:
            raise ValueError(f"second threshold {self.second:g} must be above the first {self.first:g}")
        return self


class ShortageBase(_Sourced):
    """What the Shortage thresholds are fractions of: the shape's total or the army's basic total."""

    value: Literal["shape", "army"]


class BPRow(BaseModel):
    model_config = _CONFIG
    at_least: StrictInt = Field(ge=0)
    bp: StrictInt = Field(ge=0)


class BattlePointsTable(_Sourced):
    table: tuple[BPRow, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _ascending(self) -> BattlePointsTable:
        counts = [row.at_least for row in self.table]
        if counts[0] != 0:
            raise ValueError("the first row must start at_least: 0")
        if counts != sorted(set(counts)):
            raise ValueError(f"rows must have strictly increasing at_least, got {counts}")
        return self

    def bp_for(self, count: int) -> int:
        """The BP an army of ``count`` units and Heroes brings (the last row it reaches)."""
        return max((row for row in self.table if count >= row.at_least), key=lambda r: r.at_least,
                   default=self.table[0]).bp


class Origin(_Sourced):
    tags: tuple[str, ...]


class HeroFactions(_Sourced):
    factions: tuple[str, ...] = Field(min_length=1)


class NamedCharacter(_Sourced):
    """A Character "set in time", always played at the highest level the game allows, up to ``level``."""

    level: StrictInt = Field(ge=1)


class Effect(BaseModel):
    """One cost effect of a faction rule on every unit/hero matching a tag, a special rule or a name."""

    model_config = _CONFIG
    tags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    cost_factor: float | None = Field(default=None, gt=0, le=10)
    shortage_factor: float | None = Field(default=None, ge=0, le=10)
    add_categories: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> Effect:
        if not (self.tags or self.rules or self.units):
            raise ValueError("an effect needs at least one of tags, rules or units to say what it applies to")
        if self.cost_factor is None and self.shortage_factor is None and not self.add_categories:
            raise ValueError("an effect needs cost_factor, shortage_factor or add_categories")
        bad = [c for c in self.add_categories if c not in CATEGORIES]
        if bad:
            raise ValueError(f"add_categories: expected muster categories among {', '.join(CATEGORIES)}, got {bad}")
        return self

    def matches(self, name: str, tags: Iterable[str], special_rules: Iterable[str]) -> bool:
        key = normalise_name(name)
        return (any(normalise_name(u) == key for u in self.units) or bool(set(self.tags) & set(tags))
                or bool(set(self.rules) & set(special_rules)))

    def target(self) -> str:
        """What the effect applies to, e.g. ``Angelic or Demonic`` or ``French or Generic (rule)``."""
        return " or ".join([*self.tags, *(f"{r} (rule)" for r in self.rules), *self.units])

    def describe(self) -> str:
        what = self.target()
        parts = []
        if self.cost_factor is not None:
            parts.append(f"cost x {self.cost_factor:g}")
        if self.shortage_factor is not None:
            parts.append(f"Shortage penalty x {self.shortage_factor:g}")
        if self.add_categories:
            parts.append(f"counts as {'/'.join(self.add_categories)}")
        return f"{what}: {', '.join(parts)}"


class FactionRule(_Sourced):
    text: str
    effects: tuple[Effect, ...] = ()


class Faction(_Sourced):
    rules: tuple[str, ...] = ()
    promotion: float = Field(default=0.0, ge=0, le=10)


class MustersData(BaseModel):
    """Everything :mod:`.pricing` needs besides the unit profiles."""

    model_config = _CONFIG
    game_types: tuple[GameType, ...] = Field(min_length=1)
    shortage: dict[str, Threshold]
    shortage_base: ShortageBase
    battle_points: BattlePointsTable
    tags: dict[str, str]
    origins: dict[str, Origin]
    heroes: dict[str, HeroFactions]
    named_characters: dict[str, NamedCharacter] = {}
    faction_rules: dict[str, FactionRule] = {}
    factions: dict[str, Faction] = {}

    @model_validator(mode="after")
    def _consistent(self) -> MustersData:
        problems: list[str] = []
        missing = [c for c in CATEGORIES if c not in self.shortage]
        unknown = [c for c in self.shortage if c not in CATEGORIES]
        if missing or unknown:
            problems.append(f"shortage: expected exactly the categories {', '.join(CATEGORIES)}"
                            f" (missing {missing or 'none'}, unknown {unknown or 'none'})")
        names = [normalise_name(g.name) for g in self.game_types]
        if len(set(names)) != len(names):
            problems.append("game_types: two game types have the same name")
        for unit, origin in self.origins.items():
            for tag in origin.tags:
                if tag not in self.tags:
                    problems.append(f"origins.{unit}.tags: unknown tag {tag!r} (declare it under 'tags')")
        for rule_name, rule in self.faction_rules.items():
            for i, effect in enumerate(rule.effects, 1):
                for tag in effect.tags:
                    if tag not in self.tags:
                        problems.append(f"faction_rules.{rule_name}.effects.{i}: unknown tag {tag!r}")
        for faction_name, faction in self.factions.items():
            for rule_name in faction.rules:
                if rule_name not in self.faction_rules:
                    problems.append(f"factions.{faction_name}.rules: unknown faction rule {rule_name!r}")
        for hero, hf in self.heroes.items():
            for faction_name in hf.factions:
                if faction_name not in self.factions:
                    problems.append(f"heroes.{hero}.factions: unknown faction {faction_name!r}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # -- lookups (case- and space-insensitive) -----------------------------------------------

    def find_game_type(self, name: str) -> GameType | None:
        key = normalise_name(name)
        return next((g for g in self.game_types if normalise_name(g.name) == key), None)

    def game_type(self, name: str) -> GameType:
        """The game type ``name``; :class:`UnknownNameError` suggests the closest if unknown."""
        found = self.find_game_type(name)
        if found is None:
            raise UnknownNameError("game type", name, [g.name for g in self.game_types])
        return found

    def find_faction(self, name: str) -> str | None:
        """The faction's name as written in the data, or None."""
        key = normalise_name(name)
        return next((f for f in self.factions if normalise_name(f) == key), None)

    def hero_factions(self, hero: str) -> tuple[str, ...]:
        """The factions ``hero`` (a canonical roster name) may fight for; () if none are recorded."""
        key = normalise_name(hero)
        return next((hf.factions for h, hf in self.heroes.items() if normalise_name(h) == key), ())

    def named(self, name: str) -> NamedCharacter | None:
        key = normalise_name(name)
        return next((nc for n, nc in self.named_characters.items() if normalise_name(n) == key), None)

    def origin(self, name: str) -> Origin | None:
        key = normalise_name(name)
        return next((o for n, o in self.origins.items() if normalise_name(n) == key), None)

    def effective_level(self, name: str, level: int, game_type: GameType | None, max_level: int) -> int:
        """The level a unit plays at: ``level``, except for a named character, who "is always played
        to the maximum level allowed by the game (without exceeding their personal maximum level)"."""
        named = self.named(name)
        if named is None:
            return level
        personal = min(named.level, max_level)
        return personal if game_type is None else min(game_type.max_level, personal)

    def rules_of(self, faction: str) -> list[tuple[str, FactionRule]]:
        known = self.factions.get(faction)
        return [] if known is None else [(r, self.faction_rules[r]) for r in known.rules]


def _describe(where: str, exc: ValidationError) -> DataFileError:
    problems = []
    for err in exc.errors(include_url=False):
        path = ".".join(str(p) for p in err["loc"]) or "(top level)"
        msg = str(err["msg"]).removeprefix("Value error, ")
        got = f" (got {err['input']!r})" if err["type"] not in ("missing", "value_error", "extra_forbidden") else ""
        problems.append(f"field {path}: {msg}{got}")
    return DataFileError(where, problems)


def _load(path: Path) -> MustersData:
    data = read_data_file(path)
    if not isinstance(data, dict):
        raise DataFileError(str(path), [f"expected a mapping at the top, got {type(data).__name__}"])
    try:
        return MustersData.model_validate(data)
    except ValidationError as exc:
        raise _describe(str(path), exc) from None


_SHIPPED_LOCK = threading.Lock()


def _shipped() -> MustersData:
    """The shipped file, parsed once per process.  Why the lock: a keeper's first requests arrive on
    many worker threads at once, and each of 16 parsed the file before the first had cached it
    (1.8 s of CPU at every keeper start, in the convention-hall bench)."""
    with _SHIPPED_LOCK:
        return _shipped_once()


@functools.lru_cache(maxsize=1)
def _shipped_once() -> MustersData:
    return _load(DATA_FILE)


def load_musters_data(path: Path | None = None, overrides: Path | None = None) -> MustersData:
    """The shipped ``musters.yaml`` (parsed once) or a complete replacement ``path``, then ``overrides``.

    An override file (YAML or TOML) holds a top-level ``musters`` mapping with any of this file's
    keys: a mapping (``shortage``, ``factions``, ``origins``...) is merged row by row, a list or a
    value (``game_types``, ``shortage_base``) replaces the shipped one. Rows keep the schema, so an
    estimate still needs its ``why`` (write ``source: user`` for your own numbers).
    """
    # the shipped file without a file-system call: battles ask for it at every Affinity check (5,552
    # ``Path.resolve`` calls, 19 % of an autoplayed battle, when it was resolved each time)
    base = _shipped() if path is None or Path(path).resolve() == DATA_FILE else _load(Path(path))
    if overrides is None:
        return base
    where = str(overrides)
    raw = read_data_file(Path(overrides))
    patch = raw.get("musters") if isinstance(raw, dict) else None
    if not isinstance(patch, dict):
        raise DataFileError(where, ["expected a top-level 'musters' mapping of muster-data keys to replace"])
    merged: dict[str, Any] = base.model_dump(mode="python")
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    try:
        return MustersData.model_validate(merged)
    except ValidationError as exc:
        raise _describe(where, exc) from None
