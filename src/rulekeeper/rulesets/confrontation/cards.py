"""Fighter cards as data: the characteristics of a reference card, its size, HP and abilities.

A card file (YAML or TOML) holds a warband: a name, whether it is a shipped example, and its
fighters. Every file goes through the one bounded loader (:mod:`rulekeeper.core.datafiles`) and
a strict pydantic schema; any problem is one :class:`~rulekeeper.core.errors.DataFileError`
naming the file, the line, the fighter and the field, so a player's own cards fail loudly and
precisely rather than half-load. The shipped warbands (``data/warbands/``) are examples whose
every characteristic is marked ``estimated`` with its reasoning: the seed prints no card.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulekeeper.core.datafiles import parse_data_text, parse_file_text, read_text
from rulekeeper.core.errors import DataFileError, UnknownNameError, closest
from rulekeeper.core.yamlfiles import StrictLoader

from .abilities import ABILITIES, check_number
from .catalogue import ELSEWHERE, NOT_YET

WARBANDS = Path(__file__).parent / "data" / "warbands"
#: The characteristics of a reference card (COU or FEAR: a fighter has one of the two).
CHARACTERISTICS = ("MOV", "INI", "ATT", "STR", "DEF", "RES", "AIM", "COU", "FEAR", "DIS", "POW", "FAI")
SIZES = ("Small", "Medium", "Large", "Very Large")
#: Abilities of the catalogue whose X a rule reads as a number (checked when a card is loaded).
NUMERIC = frozenset({"Tall", "Regeneration", "Ephemeral", "Repair", "Ruin", "Charging strength", "Sequence", "Cure",
                     "War cry", "Leadership", "Emblem", "Piety", "Recovery", "Martyr", "Devotion", "Mana", "Faith",
                     "Concentration", "Absorb"})
#: "This is a fighter of Very Large Size; he has N HP": the sizes the seed fixes (Divine blood: "1 additional HP
#: than what his size dictates").
SIZE_HP = {"Enormous": 6, "Colossal": 7, "Gigantic": 8}
#: Names the seed gives only as "See …": read as the ability they point to.
ALIASES = {"heal": "Cure", "immortal of": "Being of", "hardboiled": "Hard-boiled"}


@cache
def _known() -> dict[str, str]:
    return {n.lower(): n for n in (*ABILITIES, *ELSEWHERE, *NOT_YET)}


@cache
def canonical_ability(written: str) -> tuple[str, str]:
    """``("Resolute", "2")`` for ``"resolute/2"``; :class:`ValueError` naming an unknown ability."""
    name, _, value = written.partition("/")
    key = " ".join(name.strip().lower().split())
    key = ALIASES.get(key, key).lower()
    known = _known()
    if key not in known:
        hint = closest(name.strip(), list(known.values()), n=1)
        raise ValueError(f"unknown ability {name.strip()!r}" + (f" (did you mean {hint[0]!r}?)" if hint else ""))
    canonical = known[key]
    ability = ABILITIES.get(canonical)
    if canonical in NUMERIC or (ability is not None and ability.value == "number"):
        check_number(canonical, written)
    return canonical, value.strip()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


Stat = int


class Weapon(_Strict):
    """A marksman's ranged weapon: its Strength and its three range bands (third-edition rules: "three range bands
    per weapon"), the farthest edge-to-edge distance of the short, medium and long bands in cm."""

    name: str = Field(min_length=1, max_length=80)
    STR: Stat = Field(ge=0, le=30)
    ranges: list[int] = Field(min_length=3, max_length=3)

    @model_validator(mode="after")
    def _bands(self) -> Weapon:
        short, medium, long = self.ranges
        if not 0 < short < medium < long <= 200:
            raise ValueError(f"weapon {self.name!r}: ranges must be short < medium < long cm (1..200)")
        return self


class FighterCard(_Strict):
    """One reference card. ``AIM``, ``POW`` and ``FAI`` are absent (``null``) for a fighter without them."""

    name: str = Field(min_length=1, max_length=80)
    people: str = Field(default="", max_length=80)
    keywords: list[str] = Field(default_factory=list, max_length=40)
    character: bool = False
    size: Literal["Small", "Medium", "Large", "Very Large"] = "Medium"
    cost: int = Field(default=0, ge=0, le=10_000)
    MOV: Stat = Field(ge=0, le=99)
    INI: Stat = Field(ge=-9, le=30)
    ATT: Stat = Field(ge=-9, le=30)
    STR: Stat = Field(ge=-9, le=30)
    DEF: Stat = Field(ge=-9, le=30)
    RES: Stat = Field(ge=-9, le=30)
    AIM: Stat | None = Field(default=None, ge=-9, le=30)
    COU: Stat | None = Field(default=None, ge=-9, le=30)
    FEAR: Stat | None = Field(default=None, ge=-9, le=30)
    DIS: Stat = Field(ge=-9, le=30)
    POW: Stat | None = Field(default=None, ge=-9, le=30)
    FAI: Stat | None = Field(default=None, ge=-9, le=30)
    HP: int = Field(ge=1, le=20)
    abilities: list[str] = Field(default_factory=list, max_length=60)
    weapon: Weapon | None = None
    #: The characteristics printed in bold type, which Concentration/X's points may raise (concentration.py).
    bold: list[Literal["MOV", "INI", "ATT", "STR", "DEF", "RES", "AIM", "COU", "FEAR", "DIS"]] = \
        Field(default_factory=list, max_length=10)
    #: His rank (Absorb/X designates "a number of fighters equal to his rank"); absent: 1, **estimated**.
    rank: int | None = Field(default=None, ge=1, le=5)
    estimated: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> FighterCard:
        if (self.COU is None) == (self.FEAR is None):
            raise ValueError("a card has either COU or FEAR (exactly one of them)")
        for written in self.abilities:
            canonical_ability(written)
        names = {canonical_ability(a)[0] for a in self.abilities}
        for ability, hp in SIZE_HP.items():
            want = hp + (1 if "Divine blood" in names else 0)
            if ability in names and (self.size != "Very Large" or self.HP != want):
                raise ValueError(f"{ability}: \"This is a fighter of Very Large Size; he has {hp} HP\" (+1 with Divine "
                                 f"blood): the card needs size Very Large and HP {want}")
        if "Concentration" in names and not self.bold:
            raise ValueError("Concentration/X: \"X indicates the total number of points the player can distribute … "
                             "among the Characteristic that this ability is bound to (… printed in bold type on their "
                             "reference card)\": list them, e.g. bold: [ATT, DEF] (POW and FAI can never be raised)")
        for key in self.estimated:
            if key not in CHARACTERISTICS and key not in ("size", "HP", "abilities", "cost", "weapon", "bold",
                                                          "rank"):
                raise ValueError(f"`estimated` names {key!r}, which is not a characteristic of a card")
        return self

    @property
    def ability_names(self) -> tuple[str, ...]:
        """The canonical names of the card's abilities (an ability listed twice appears twice)."""
        return tuple(canonical_ability(a)[0] for a in self.abilities)

    def value_of(self, ability: str) -> str | None:
        """The X of ``ability`` on the card (``""`` without one), or ``None`` if the card lacks it."""
        for written in self.abilities:
            name, value = canonical_ability(written)
            if name == ability:
                return value
        return None

    def has(self, ability: str) -> bool:
        return self.value_of(ability) is not None

    def characteristics(self) -> dict[str, int | None]:
        return {c: getattr(self, c) for c in CHARACTERISTICS}


class Warband(_Strict):
    """A file of cards: a warband (``example: true`` for the shipped, estimated ones)."""

    warband: str = Field(min_length=1, max_length=80)
    example: bool = False
    note: str = Field(default="", max_length=2000)
    fighters: list[FighterCard] = Field(min_length=1, max_length=200)

    @model_validator(mode="after")
    def _examples_say_what_is_estimated(self) -> Warband:
        names = [f.name for f in self.fighters]
        if len(set(names)) != len(names):
            raise ValueError("two fighters share a name")
        if self.example:
            for f in self.fighters:
                missing = [c for c, v in f.characteristics().items() if v is not None and c not in f.estimated]
                if missing:
                    raise ValueError(f"example fighter {f.name!r}: every characteristic must be marked "
                                     f"`estimated` with its reasoning; missing {', '.join(missing)}")
        return self

    def fighter(self, name: str) -> FighterCard:
        for f in self.fighters:
            if f.name.lower() == name.strip().lower():
                return f
        raise UnknownNameError("fighter", name, [f.name for f in self.fighters])


# -- loading, with the line of every problem -------------------------------------------------------


def _line(text: str, loc: tuple[int | str, ...]) -> int | None:
    """The 1-based line of ``loc`` in YAML ``text`` (its parent's line for a missing field)."""
    try:
        node: Any = yaml.compose(text, Loader=StrictLoader)
    except yaml.YAMLError:
        return None
    line = None if node is None else node.start_mark.line + 1
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if str(getattr(k, "value", "")) == str(part)), None)
            if pair is None:
                return line
            line, node = pair[0].start_mark.line + 1, pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _problems(data: object, text: str, yaml_text: bool, exc: ValidationError) -> list[str]:
    found: list[tuple[int, str]] = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        label = ""
        rest: list[int | str] = list(loc)
        if rest[:1] == ["fighters"] and len(rest) > 1 and isinstance(rest[1], int):
            items = data.get("fighters") if isinstance(data, dict) else None
            item = items[rest[1]] if isinstance(items, list) and rest[1] < len(items) else None
            name = f" ({item['name']!r})" if isinstance(item, dict) and isinstance(item.get("name"), str) else ""
            label, rest = f"fighter {rest[1] + 1}{name}", rest[2:]
        field = ".".join(str(p) for p in rest if not str(p).startswith(("function-", "literal[", "int", "str")))
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] not in ("missing", "value_error", "extra_forbidden") and "input" in err:
            msg += f", got {err['input']!r}"[:120]
        line = _line(text, loc) if yaml_text else None
        where = ", ".join(p for p in (f"line {line}" if line else "", label, f"field {field}" if field else "") if p)
        found.append((line or 0, f"{where or '(top level)'}: {msg}"))
    return [p for _, p in sorted(found, key=lambda x: x[0])]


def parse_warband(text: str, where: str, suffix: str = ".yaml", *, from_file: bool = False) -> Warband:
    """A warband from a document's text; :class:`DataFileError` naming ``where``, line and field.

    ``from_file``: the text is a file's, so its parse may be recalled (a scenario reads two warbands, about
    12 ms of YAML each, every time it is set up or listed).
    """
    data = (parse_file_text if from_file else parse_data_text)(text, where, suffix)
    lines = suffix in (".yaml", ".yml")
    if isinstance(data, dict) and "fighters" not in data and "name" in data:  # a file with a single card
        try:
            card = FighterCard.model_validate(data)
        except ValidationError as exc:
            raise DataFileError(where, _problems(data, text, lines, exc)) from None
        return Warband(warband=card.name, fighters=[card])
    try:
        return Warband.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(where, _problems(data, text, lines, exc)) from None


def load_warband(path: Path) -> Warband:
    """A card file from disk (YAML or TOML), checked."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".yaml", ".yml", ".toml"):
        raise DataFileError(str(path), [f"unsupported file type {suffix or '(none)'!r}: expected .yaml, .yml or .toml"])
    return parse_warband(read_text(Path(path)), str(path), suffix, from_file=True)


@cache
def shipped_warbands() -> tuple[Warband, ...]:
    """The two example warbands shipped with the ruleset (estimated characteristics)."""
    return tuple(load_warband(p) for p in sorted(WARBANDS.glob("*.yaml")))


def shipped_fighter(name: str) -> FighterCard:
    """A shipped example fighter by name (case-insensitive)."""
    pool = [f for w in shipped_warbands() for f in w.fighters]
    for f in pool:
        if f.name.lower() == name.strip().lower():
            return f
    raise UnknownNameError("Confrontation fighter", name, [f.name for f in pool])


def fighter_from(spec: str, pick: str | None = None) -> FighterCard:
    """A fighter given on the command line: a card file (``.yaml``/``.yml``/``.toml``) or a shipped name.

    A file with several fighters needs ``pick`` (the fighter's name), else its first is refused
    with the list: choosing silently would fight the wrong card.
    """
    if Path(spec).suffix.lower() in (".yaml", ".yml", ".toml"):
        band = load_warband(Path(spec))
        if pick is not None:
            return band.fighter(pick)
        if len(band.fighters) > 1:
            raise DataFileError(spec, [f"holds {len(band.fighters)} fighters; name one with --fighter-a/--fighter-b "
                                       f"({', '.join(f.name for f in band.fighters)})"])
        return band.fighters[0]
    return shipped_fighter(spec)
