"""The War Table's domain values: units, modifiers, combatants, Enclaves, options.

Everything here is a frozen dataclass holding exact :class:`~fractions.Fraction`
numbers, so a battle is a pure function of its inputs and can be replayed or
compared. Validation of *values* (a negative Health, an unknown option) happens
here, once, with typed errors; validation of *file shapes* lives in :mod:`.data`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Literal, NotRequired, TypedDict, get_args

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError
from rulekeeper.core.ruleset import OptionInfo

from .rounding import Number, exact, num

Stat = Literal["health", "attack", "defense"]
Source = Literal["region_trait", "unit_trait", "mark", "curse", "action"]
Role = Literal["attacker", "defender", "any"]
ActionCondition = Literal["attack", "any"]
SideName = Literal["attackers", "defenders"]

STATS: tuple[Stat, ...] = get_args(Stat)
SOURCES: tuple[Source, ...] = get_args(Source)
ROLES: tuple[Role, ...] = get_args(Role)
ACTION_CONDITIONS: tuple[ActionCondition, ...] = get_args(ActionCondition)

BLOODLESS = "Bloodless"


def fold(text: str) -> str:
    """Case- and space-insensitive key, so ``"oathsworn  vanguard"`` finds the unit."""
    return " ".join(text.split()).casefold()


def _non_negative(owner: str, stat: str, value: Fraction, where: str | None) -> None:
    if value < 0:
        place = f"{where}: " if where else ""
        raise InvalidStatError(
            f"{place}{owner}: {stat} must be >= 0, got {num(value)}",
            unit=owner,
            field=stat,
            value=num(value),
            **({"path": where} if where else {}),
        )


class UnitJson(TypedDict):
    """A unit profile as the roster lists it (numbers as the report writes them)."""

    name: str
    health: int | float
    attack: int | float
    defense: int | float
    traits: list[str]
    origin: str


class ModifierJson(TypedDict):
    """A modifier as the data file lists it: its quote and estimate only when it has them."""

    name: str
    source: Source
    key: str
    role: Role
    action: ActionCondition
    stat: Stat
    amount: int | float
    origin: str
    quote: NotRequired[str]
    estimate: NotRequired[str]


@dataclass(frozen=True)
class UnitDef:
    """A unit profile from the data: base Health, Attack, Defense and its traits."""

    name: str
    health: Fraction
    attack: Fraction
    defense: Fraction
    traits: tuple[str, ...] = ()
    origin: str = "shipped"

    def __post_init__(self) -> None:
        for stat in STATS:
            _non_negative(self.name, stat, getattr(self, stat), None if self.origin == "shipped" else self.origin)

    @classmethod
    def make(
        cls,
        name: str,
        health: Number,
        attack: Number,
        defense: Number,
        traits: Sequence[str] = (),
        origin: str = "shipped",
    ) -> UnitDef:
        """Build from plain numbers (ints, floats, strings) converted exactly."""
        return cls(name, exact(health), exact(attack), exact(defense), tuple(traits), origin)

    def has_trait(self, trait: str) -> bool:
        return fold(trait) in {fold(t) for t in self.traits}

    @property
    def bloodless(self) -> bool:
        return self.has_trait(BLOODLESS)

    def to_dict(self) -> UnitJson:
        return {
            "name": self.name,
            "health": num(self.health),
            "attack": num(self.attack),
            "defense": num(self.defense),
            "traits": list(self.traits),
            "origin": self.origin,
        }


@dataclass(frozen=True)
class ModifierDef:
    """A conditional, additive stat modifier declared as data.

    It applies to a unit when its ``source``/``key`` matches (the region has trait
    ``key``, the unit has trait/mark/curse ``key``, or the battle's action is
    ``key``), the unit's ``role`` matches and the battle's action matches ``action``.
    ``estimate`` carries the reasoning when the amount is our guess, not the seed's.
    """

    name: str
    source: Source
    key: str
    stat: Stat
    amount: Fraction
    role: Role = "any"
    action: ActionCondition = "any"
    quote: str | None = None
    estimate: str | None = None
    origin: str = "shipped"

    def to_dict(self) -> ModifierJson:
        d: ModifierJson = {
            "name": self.name,
            "source": self.source,
            "key": self.key,
            "role": self.role,
            "action": self.action,
            "stat": self.stat,
            "amount": num(self.amount),
            "origin": self.origin,
        }
        if self.quote:
            d["quote"] = self.quote
        if self.estimate:
            d["estimate"] = self.estimate
        return d


@dataclass(frozen=True)
class Combatant:
    """One unit in one battle: its profile, current Health, Marks and Curses.

    ``health`` is the unit's current Health when it is below the profile's (a unit
    already wounded in an earlier battle); ``None`` means the profile's Health.
    """

    unit: UnitDef
    health: Fraction | None = None
    marks: tuple[str, ...] = ()
    curses: tuple[str, ...] = ()
    label: str | None = None

    def __post_init__(self) -> None:
        if self.health is not None:
            _non_negative(self.label or self.unit.name, "health", self.health, None)

    @classmethod
    def of(
        cls,
        unit: UnitDef,
        health: Number | None = None,
        marks: Sequence[str] = (),
        curses: Sequence[str] = (),
        label: str | None = None,
    ) -> Combatant:
        return cls(unit, None if health is None else exact(health), tuple(marks), tuple(curses), label)

    @property
    def base_health(self) -> Fraction:
        return self.unit.health if self.health is None else self.health


@dataclass(frozen=True)
class EnclaveState:
    """The Enclave whose settlement is in the battle's region, if any.

    ``side`` is the side that holds the settlement (its "Enclave unit" defends it);
    ``stability`` is its Stability before the battle, or ``None`` if unknown (the
    report then gives only the changes).
    """

    name: str
    stability: Fraction | None = None
    side: SideName = "defenders"

    def __post_init__(self) -> None:
        if self.stability is not None and self.stability < 0:
            raise InvalidStatError(
                f"Enclave {self.name!r}: Stability must be >= 0, got {num(self.stability)}",
                field="stability",
                value=num(self.stability),
            )
        if self.side not in get_args(SideName):
            raise UnknownNameError("Enclave side", self.side, get_args(SideName))


# ---------------------------------------------------------------- options


OPTION_INFO: tuple[OptionInfo, ...] = (
    OptionInfo(
        "step5",
        "example",
        ("example", "literal"),
        "Step 5 rounding. example: keep blocked hits exact and round the unblocked hits up "
        "(the seed's worked example: 13.5 -> 14, Oathsworn end at 86). literal: round the "
        "blocked hits up as the step list says (16.5 -> 17 blocked, Oathsworn end at 87).",
    ),
    OptionInfo(
        "stat_rounding",
        "tenth",
        ("tenth", "whole"),
        "Step 2 'fractions rounded to the nearest 1-digit'. tenth: one decimal place. "
        "whole: the nearest whole number. Both round half up.",
    ),
    OptionInfo(
        "enclave_loss",
        "per_battle",
        ("per_battle", "per_unit"),
        "The -10 Stability for an Enclave unit losing more than half its Health. per_battle: "
        "at most once per battle. per_unit: once for every defending unit that does.",
    ),
    OptionInfo(
        "bloodless_health",
        "before",
        ("before", "after"),
        "Which Health of a Bloodless unit attacking an Enclave sets the Stability loss "
        "(a tenth of it): before the battle (when it reaches/attacks) or after it.",
    ),
)


@dataclass(frozen=True)
class WarTableOptions:
    """The chosen reading of every contradictory or unclear rule (see OPTION_INFO)."""

    step5: Literal["example", "literal"] = "example"
    stat_rounding: Literal["tenth", "whole"] = "tenth"
    enclave_loss: Literal["per_battle", "per_unit"] = "per_battle"
    bloodless_health: Literal["before", "after"] = "before"

    def to_dict(self) -> dict[str, str]:
        return {f.name: str(getattr(self, f.name)) for f in fields(self)}


class UnknownOptionError(UnknownNameError):
    """An unknown option name or value; the message also lists every valid choice."""

    def __init__(self, kind: str, name: str, choices: Sequence[str]) -> None:
        super().__init__(kind, name, choices)
        self.message = f"{self.message} Choices: {', '.join(choices)}."
        self.args = (self.message,)
        self.details["choices"] = list(choices)


def parse_options(values: Mapping[str, str] | WarTableOptions | None = None) -> WarTableOptions:
    """Options from ``NAME -> VALUE`` pairs; unknown names/values raise typed errors."""
    if values is None:
        return WarTableOptions()
    if isinstance(values, WarTableOptions):
        return values
    known = {o.name: o for o in OPTION_INFO}
    chosen: dict[str, str] = {}
    for raw_name, raw_value in values.items():
        name = raw_name.strip().lower().replace("-", "_")
        if name not in known:
            raise UnknownOptionError("War Table option", raw_name, list(known))
        value = str(raw_value).strip().lower().replace("-", "_")
        if value not in known[name].choices:
            raise UnknownOptionError(f"value for option {name}", str(raw_value), known[name].choices)
        chosen[name] = value
    return WarTableOptions(**chosen)  # type: ignore[arg-type]


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["step5=literal"]`` → ``{"step5": "literal"}``; a pair without ``=`` is refused."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ImpossibleRequestError(f"--option expects NAME=VALUE, got {pair!r}", option=pair)
        out[name.strip()] = value.strip()
    return out


@dataclass(frozen=True)
class Battle:
    """Everything one battle needs (what a battle file or the CLI flags describe)."""

    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    region_traits: tuple[str, ...] = ()
    action: str = "attack"
    enclave: EnclaveState | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    title: str | None = None
    #: The side names a battle file gave (``oathsworn``, ``bloodless``), for display only.
    attacker_name: str | None = None
    defender_name: str | None = None
    about: str | None = None

    def side_name(self, side: SideName) -> str:
        """The battle file's name for ``side`` (the model's ``attackers``/``defenders`` otherwise)."""
        given = self.attacker_name if side == "attackers" else self.defender_name
        return given or side

    def shown_name(self, side: SideName) -> str:
        """:meth:`side_name` as sentences and pages write a name: capitalised. A battle file names its sides
        by their keys (``oathsworn``), and the pages read "oathsworn (attackers)" beside capitalised names."""
        name = self.side_name(side)
        return name[:1].upper() + name[1:] if name.islower() else name
