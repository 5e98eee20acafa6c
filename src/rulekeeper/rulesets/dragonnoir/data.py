"""The game sheet and the counters of Dragon Noir, read from data files through the one bounded loader.

The seed does not reproduce the game sheet ("Look at the game sheet"), so its tables ship as
editable YAML (``data/*.yaml``): every value says whether the seed gives it (``source: seed``,
with the sentence) or we estimated it (``source: estimated``, with the reasoning). A group with
its own sheet puts files of the same names in a folder and passes it (``--sheet DIR``): each file
found there replaces the shipped one whole. Every problem is one :class:`DataFileError` naming the
file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulekeeper.core.datafiles import parse_file_text, read_text
from rulekeeper.core.errors import DataFileError, UnknownNameError
from rulekeeper.core.memo import remembered
from rulekeeper.core.wording import counted

Source = Literal["seed", "estimated", "user"]
Effect = Literal["+", "0", "-"]
Cover = Literal["none", "light", "medium", "strong", "total"]
Weapon = Literal["short bow", "long bow", "crossbow"]
Band = Literal["short", "medium", "long"]
Harm = Literal["retreat", "stunned", "wounded", "killed"]
Table = Literal["foot", "mounted"]
State = Literal["healthy", "wounded", "stunned", "berserk", "wounded_twice"]
Kind = Literal["man", "wizard", "elf", "dwarf", "troll", "goblin", "ork", "dog", "spectre", "dragon", "dragon part"]

#: Cover classes in increasing strength ("none, light, medium or strong"; "total": no shot).
COVERS: tuple[Cover, ...] = ("none", "light", "medium", "strong", "total")
#: The cover columns of the fire tables, in order.
COVER_COLUMNS: tuple[Cover, ...] = ("none", "light", "medium", "strong")
EFFECT_VALUE: Mapping[str, int] = {"+": 1, "0": 0, "-": -1}
FILES = ("terrain", "combat", "fire", "moves", "characters")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Provenance(_Strict):
    """Where a value comes from: the seed (``why`` quotes it) or an estimate (``why`` reasons)."""

    source: Source
    why: str = Field(min_length=1)


class IntValue(Provenance):
    value: int | None


class BoolValue(Provenance):
    value: bool


class EffectValue(Provenance):
    value: Effect


class CoverValue(Provenance):
    value: Cover


# -- terrain -------------------------------------------------------------------------------------


class Terrain(_Strict):
    """One row of the terrain types table: cost, horsemen, combat effect (+/0/−), cover, blocking."""

    cost: IntValue
    mounted: BoolValue
    combat: EffectValue
    cover: CoverValue
    blocks: BoolValue


class CombatShifts(Provenance):
    shifts: dict[Effect, dict[Effect, int]]

    @model_validator(mode="after")
    def _complete(self) -> CombatShifts:
        for a in EFFECT_VALUE:
            if set(self.shifts.get(a, {})) != set(EFFECT_VALUE):  # type: ignore[call-overload]
                raise ValueError(f"shifts[{a!r}] must give a shift for each of +, 0 and -")
        return self


class TerrainFile(_Strict):
    terrains: dict[str, Terrain]
    combat_shifts: CombatShifts


# -- combat --------------------------------------------------------------------------------------


class CombatResult(_Strict):
    """What one letter of a Combat Table means (``attacker``/``defender``: what befalls that side)."""

    text: str
    attacker: Harm | None = None
    defender: Harm | None = None
    horse: Literal["killed"] | None = None


def _check_rows(rows: Mapping[int, str], width: int, letters: Mapping[str, CombatResult | FireResult],
                where: str) -> None:
    if not rows:
        raise ValueError(f"{where}: no rows")
    numbers = sorted(rows)  # distinct keys: consecutive exactly when they span len(numbers) values
    if numbers[-1] - numbers[0] + 1 != len(numbers):
        raise ValueError(f"{where}: rows must be consecutive die numbers, got {numbers}")
    for n, row in rows.items():
        if len(row) != width:
            raise ValueError(f"{where} row {n}: {counted(len(row), 'letter')} for {counted(width, 'column')}")
        bad = sorted(set(row) - set(letters))
        if bad:
            raise ValueError(f"{where} row {n}: {'letter' if len(bad) == 1 else 'letters'} {bad} not in the table's key")


class CombatFile(_Strict):
    about: Provenance
    columns: list[str] = Field(min_length=1)
    keys: dict[Table, dict[str, CombatResult]]
    tables: dict[Table, dict[int, str]]

    @model_validator(mode="after")
    def _sound(self) -> CombatFile:
        for i, col in enumerate(self.columns, start=1):
            if col != f"{i}-1":
                raise ValueError(f"column {i} must be the ratio '{i}-1', got {col!r}")
        for t in ("foot", "mounted"):
            if t not in self.tables or t not in self.keys:
                raise ValueError(f"the {t} table and its key are required")
            _check_rows(self.tables[t], len(self.columns), self.keys[t], f"tables.{t}")
        return self


# -- fire ----------------------------------------------------------------------------------------


class FireResult(_Strict):
    """What one letter of a fire table means (``target``: the character hit or the horseman)."""

    text: str
    target: Harm | None = None
    horse: Literal["killed"] | None = None
    retreat: bool = False


class FireKeys(Provenance):
    foot: dict[str, FireResult]
    mounted: dict[str, FireResult]


class Bands(_Strict):
    short: int = Field(ge=1)
    medium: int = Field(ge=1)
    long: int = Field(ge=1)

    @model_validator(mode="after")
    def _increasing(self) -> Bands:
        if not self.short < self.medium < self.long:
            raise ValueError("ranges must grow: short < medium < long")
        return self


class BandModifiers(_Strict):
    short: int
    medium: int
    long: int


class RangeBands(Provenance):
    weapons: dict[Weapon, Bands]
    modifiers: BandModifiers


class HealthModifiers(Provenance):
    modifiers: dict[Literal["healthy", "wounded"], int]

    @model_validator(mode="after")
    def _both_states(self) -> HealthModifiers:
        """A wounded shooter and a healthy one both shoot: the sheet must say each one's modifier."""
        missing = sorted({"healthy", "wounded"} - set(self.modifiers))
        if missing:
            raise ValueError(f"modifiers: no value for {', '.join(missing)}")
        return self


class OverValue(Provenance):
    value: Literal["never", "medium"]


class WeaponRules(_Strict):
    """One row of the Rate of Fire & Movement table."""

    shoots_mounted: BoolValue
    move_after_offensive_fire: BoolValue
    defensive_fire_after_moving: BoolValue
    defensive_fire_after_shooting: BoolValue
    over_characters: OverValue


class Errare(Provenance):
    """The optional rule "Errare humanum est": the stray rolls and how the six hexes are numbered."""

    rolls: list[int]
    numbering: list[Literal["E", "NE", "NW", "W", "SW", "SE"]]

    @model_validator(mode="after")
    def _sound(self) -> Errare:
        if sorted(set(self.numbering)) != sorted(["E", "NE", "NW", "W", "SW", "SE"]) or len(self.numbering) != 6:
            raise ValueError("numbering must name each of the six directions once")
        if not set(self.rolls) <= set(range(1, 7)):
            raise ValueError("a stray roll names one of the six hexes: 1 to 6")
        return self


class FireFile(_Strict):
    about: Provenance
    keys: FireKeys
    range_bands: RangeBands
    health_modifiers: HealthModifiers
    armour_modifier: IntValue
    elf_modifier: IntValue
    weapons: dict[Weapon, WeaponRules]
    errare: Errare
    tables: dict[Table, dict[Weapon, dict[int, str]]]

    @model_validator(mode="after")
    def _sound(self) -> FireFile:
        for t in ("foot", "mounted"):
            key = getattr(self.keys, t)
            for w in ("short bow", "long bow", "crossbow"):
                rows = self.tables.get(t, {}).get(w)
                if rows is None:
                    raise ValueError(f"tables.{t}.{w} is required")
                _check_rows(rows, len(COVER_COLUMNS), key, f"tables.{t}.{w}")
                if w not in self.range_bands.weapons or w not in self.weapons:
                    raise ValueError(f"{w}: range bands and weapon rules are required")
        return self


# -- movement tables -----------------------------------------------------------------------------


class Outcome(_Strict):
    text: str
    rolls: list[int]


def _check_partition(results: Mapping[str, Outcome], where: str) -> None:
    rolls = sorted(r for o in results.values() for r in o.rolls)
    if rolls != list(range(1, 11)):
        raise ValueError(f"{where}: the rolls must share out 1 to 10 exactly once, got {rolls}")


class Infiltration(Provenance):
    results: dict[str, Outcome]

    @model_validator(mode="after")
    def _partition(self) -> Infiltration:
        _check_partition(self.results, "infiltration")
        return self


class Jump(Provenance):
    results: dict[Literal["water", "crevasse"], dict[str, Outcome]]

    @model_validator(mode="after")
    def _partition(self) -> Jump:
        for k, v in self.results.items():
            _check_partition(v, f"jump.{k}")
        return self


class TurnExtra(_Strict):
    ahead: int = Field(ge=0)
    beside: int = Field(ge=0)
    rear_side: int = Field(ge=0)
    behind: int = Field(ge=0)


class MountedTurns(Provenance):
    extra: TurnExtra
    half_turn: IntValue


class Mounting(_Strict):
    light: IntValue
    heavy: IntValue


class CorpseCount(Provenance):
    dead_men: int = Field(ge=1)
    dead_horses: int = Field(ge=1)


class Corpses(_Strict):
    extra_cost_at: CorpseCount
    impassable_at: CorpseCount


class MovesFile(_Strict):
    infiltration: Infiltration
    jump: Jump
    mounted_turns: MountedTurns
    mounting: Mounting
    corpses: Corpses


# -- characters ----------------------------------------------------------------------------------


class Counter(_Strict):
    """One side of a counter: attack (black), movement (blue), defence (red)."""

    attack: int = Field(default=0, ge=0)
    movement: int = Field(default=0, ge=0)
    defence: int = Field(ge=0)


class Horse(_Strict):
    defence: int = Field(ge=1)
    barded: bool


class Character(_Strict):
    """A character's counters (foot, mounted, horse alone) and what the seed says of him."""

    kind: Kind
    weapon: str
    horseman: Literal["light", "heavy"] | None
    armour: bool
    dismount_divisor: int = Field(default=2, ge=1)
    poison: bool = False
    wizard_level: int | None = None
    target_as_mounted: bool = False
    untargetable: bool = False
    foot: dict[State, Counter]
    mounted: dict[State, Counter] | None = None
    horse: Horse | None = None
    why: str = Field(min_length=1)
    seed: dict[str, str] = {}

    @model_validator(mode="after")
    def _sound(self) -> Character:
        if "healthy" not in self.foot:
            raise ValueError("foot.healthy is required")
        if (self.horseman is None) != (self.mounted is None) or (self.horseman is None) != (self.horse is None):
            raise ValueError("a horseman (light or heavy) needs mounted counters and a horse; others neither")
        data = self.model_dump()
        for path in self.seed:
            node: Any = data
            for part in path.split("."):
                if not isinstance(node, dict) or part not in node:
                    raise ValueError(f"seed: {path!r} names no value of this character")
                node = node[part]
        return self

    def source(self, path: str) -> tuple[Source, str]:
        """Where the value at ``path`` (``mounted.healthy.movement``) comes from, and why."""
        for p, quote in self.seed.items():
            if path == p or path.startswith(p + "."):
                return "seed", quote
        return "estimated", self.why


class CharactersFile(_Strict):
    scale_why: str
    characters: dict[str, Character]


# -- loading -------------------------------------------------------------------------------------

M = TypeVar("M", bound=BaseModel)


def _user_file(name: str, sheet: Path | None) -> Path | None:
    path = None if sheet is None else Path(sheet) / f"{name}.yaml"
    try:
        return path if path is not None and path.exists() else None
    except OSError as exc:  # a name longer than the file system allows
        raise DataFileError(str(path), [f"cannot read the file ({exc.strerror or type(exc).__name__})"]) from None


def _read(name: str, model: type[M], sheet: Path | None) -> M:
    path = _user_file(name, sheet)
    if path is not None:
        where, text = str(path), read_text(path)
    else:
        where = f"rulekeeper/rulesets/dragonnoir/data/{name}.yaml"
        text = resources.files("rulekeeper.rulesets.dragonnoir").joinpath("data", f"{name}.yaml").read_text("utf-8")
    raw = parse_file_text(text, where, ".yaml")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}" for e in exc.errors()]
        raise DataFileError(where, problems) from None


@dataclass(frozen=True)
class SheetData:
    """The whole game sheet and counter sheet."""

    terrain: TerrainFile
    combat: CombatFile
    fire: FireFile
    moves: MovesFile
    characters: CharactersFile
    user_files: frozenset[str] = frozenset()
    """The files (``"characters"``, ``"combat"`` …) a player's sheet replaced: their values are the user's."""

    # Each name asked is looked up once per sheet (a dict ``core.memo`` keeps on it): the rules ask the same few names tens of thousands
    # of times in a search bot's simulations (issue 28, profiled); a sheet never changes.

    def terrain_named(self, name: str) -> Terrain:
        return self.terrain.terrains[self.terrain_name(name)]

    def terrain_name(self, name: str) -> str:
        found: dict[str, str] = remembered(self, (SheetData.terrain_name, "found"), dict)
        try:
            return found[name]
        except KeyError:
            key = name.strip().casefold()
            for n in self.terrain.terrains:
                if n.casefold() == key:
                    found[name] = n
                    return n
        raise UnknownNameError("terrain", name, self.terrain.terrains)

    def character(self, name: str) -> tuple[str, Character]:
        """The character called ``name`` (case and spaces do not matter), with his canonical name."""
        found: dict[str, tuple[str, Character]] = remembered(self, (SheetData.character, "found"), dict)
        try:
            return found[name]
        except KeyError:
            key = " ".join(name.split()).casefold()
            for n, c in self.characters.characters.items():
                if n.casefold() == key:
                    found[name] = n, c
                    return n, c
        raise UnknownNameError("character", name, self.characters.characters)


def _is_folder(path: Path) -> bool:
    """``is_dir`` that answers no (rather than raising) for a path the OS refuses, e.g. one too long."""
    try:
        return path.is_dir()
    except OSError:
        return False


def load_sheet(sheet: Path | None = None) -> SheetData:
    """The shipped sheet, each file replaced by the same-named file in ``sheet`` when there is one."""
    if sheet is not None and not _is_folder(Path(sheet)):
        raise DataFileError(str(sheet), ["not a folder: --sheet takes a folder of terrain/combat/fire/moves/"
                                         "characters .yaml files"])
    return SheetData(_read("terrain", TerrainFile, sheet), _read("combat", CombatFile, sheet),
                     _read("fire", FireFile, sheet), _read("moves", MovesFile, sheet),
                     _read("characters", CharactersFile, sheet),
                     frozenset(n for n in FILES if _user_file(n, sheet) is not None))


@lru_cache(maxsize=1)
def shipped_sheet() -> SheetData:
    """The shipped sheet, read once per process."""
    return load_sheet(None)
