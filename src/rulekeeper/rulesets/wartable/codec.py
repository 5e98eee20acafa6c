"""The War Table battle as exact JSON: units, combatants, modifiers and battles, both ways.

Non-whole numbers a float cannot hold exactly are kept as fraction strings (``"301/3"``), so
a stored battle rebuilds the very numbers it was set up with. Used by :mod:`.game` for the
stored initial document and the state's JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TypedDict, TypeVar

from rulekeeper.core.errors import RulekeeperError

from .model import (
    ACTION_CONDITIONS,
    ROLES,
    SOURCES,
    STATS,
    Battle,
    Combatant,
    EnclaveState,
    ModifierDef,
    SideName,
    UnitDef,
    parse_options,
)
from .rounding import exact

W = TypeVar("W", bound=str)

#: The sides of every War Table battle, in the model's words.
SIDES: tuple[SideName, SideName] = ("attackers", "defenders")

#: An exact number as stored (:func:`enc`): a whole number, an exact float or a fraction's text.
Exact = int | float | str


class StoredUnit(TypedDict):
    """A unit profile as a stored battle keeps it (:func:`unit_to_json`)."""

    name: str
    health: Exact
    attack: Exact
    defense: Exact
    traits: list[str]
    origin: str


class StoredCombatant(TypedDict):
    """One combatant as stored: its profile, its health when not full, its marks, curses and label."""

    unit: StoredUnit
    health: Exact | None
    marks: list[str]
    curses: list[str]
    label: str | None


class StoredModifier(TypedDict):
    """One modifier in force as stored (:func:`modifier_to_json`), every field present."""

    name: str
    source: str
    key: str
    role: str
    action: str
    stat: str
    amount: Exact
    quote: str | None
    estimate: str | None
    origin: str


class StoredSide(TypedDict):
    """One side of a stored battle: the file's name for it and its combatants."""

    name: str
    units: list[StoredCombatant]


class StoredEnclave(TypedDict):
    """The Enclave in a stored battle's region."""

    name: str
    stability: Exact | None
    side: str


class StoredBattle(TypedDict):
    """A battle as stored (:func:`battle_to_json`), its options complete."""

    title: str | None
    about: str | None
    action: str
    region_traits: list[str]
    attackers: StoredSide
    defenders: StoredSide
    enclave: StoredEnclave | None
    options: dict[str, str]


def enc(value: Fraction) -> Exact:
    """An exact number as JSON: ``86``, ``16.5`` (when the float is exact), else ``"1/3"``."""
    if value.denominator == 1:
        return int(value.numerator)
    as_float = float(value)
    if exact(as_float) == value:
        return as_float
    return f"{value.numerator}/{value.denominator}"


def dec(value: object, where: str) -> Fraction:
    """The inverse of :func:`enc` (a damaged value is a :class:`RulekeeperError`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise RulekeeperError(f"{where}: expected a number, got {value!r}")
    try:
        return Fraction(value) if isinstance(value, str) else exact(value)
    except (ValueError, ZeroDivisionError):
        raise RulekeeperError(f"{where}: expected a number, got {value!r}") from None


def _opt(value: Fraction | None) -> Exact | None:
    return None if value is None else enc(value)


def _choice(value: object, choices: Sequence[W], where: str) -> W:
    """The one of ``choices`` that ``value`` is (a document's word for a ``Literal`` field), else a typed error."""
    for choice in choices:
        if value == choice:
            return choice
    raise RulekeeperError(f"{where}: expected one of {list(choices)}, got {value!r}")


def _strs(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulekeeperError(f"{where}: expected a list of names, got {value!r}")
    return tuple(value)


def fields_of(value: object, where: str) -> Mapping[str, object]:
    """A stored record's fields (a mapping), checked before they are read one by one; else a typed error."""
    if not isinstance(value, Mapping):
        raise RulekeeperError(f"{where}: expected a mapping, got {value!r}")
    return value


def records_of(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise RulekeeperError(f"{where}: expected a list, got {value!r}")
    return value


def unit_to_json(u: UnitDef) -> StoredUnit:
    return {
        "name": u.name,
        "health": enc(u.health),
        "attack": enc(u.attack),
        "defense": enc(u.defense),
        "traits": list(u.traits),
        "origin": u.origin,
    }


def unit_from_json(d: Mapping[str, object], where: str) -> UnitDef:
    return UnitDef(
        str(d["name"]),
        dec(d["health"], f"{where}.health"),
        dec(d["attack"], f"{where}.attack"),
        dec(d["defense"], f"{where}.defense"),
        _strs(d["traits"], f"{where}.traits"),
        str(d["origin"]),
    )


def combatant_to_json(c: Combatant) -> StoredCombatant:
    return {
        "unit": unit_to_json(c.unit),
        "health": _opt(c.health),
        "marks": list(c.marks),
        "curses": list(c.curses),
        "label": c.label,
    }


def combatant_from_json(d: Mapping[str, object], where: str) -> Combatant:
    health = d["health"]
    label = d["label"]
    return Combatant(
        unit_from_json(fields_of(d["unit"], f"{where}.unit"), f"{where}.unit"),
        None if health is None else dec(health, where),
        _strs(d["marks"], f"{where}.marks"),
        _strs(d["curses"], f"{where}.curses"),
        None if label is None else str(label),
    )


def modifier_to_json(m: ModifierDef) -> StoredModifier:
    return {
        "name": m.name,
        "source": m.source,
        "key": m.key,
        "role": m.role,
        "action": m.action,
        "stat": m.stat,
        "amount": enc(m.amount),
        "quote": m.quote,
        "estimate": m.estimate,
        "origin": m.origin,
    }


def modifier_from_json(d: Mapping[str, object], where: str) -> ModifierDef:
    return ModifierDef(
        name=str(d["name"]),
        source=_choice(d["source"], SOURCES, f"{where}.source"),
        key=str(d["key"]),
        stat=_choice(d["stat"], STATS, f"{where}.stat"),
        amount=dec(d["amount"], f"{where}.amount"),
        role=_choice(d["role"], ROLES, f"{where}.role"),
        action=_choice(d["action"], ACTION_CONDITIONS, f"{where}.action"),
        quote=None if d["quote"] is None else str(d["quote"]),
        estimate=None if d["estimate"] is None else str(d["estimate"]),
        origin=str(d["origin"]),
    )


def battle_to_json(b: Battle) -> StoredBattle:
    """A battle as JSON, its options complete (every option with its chosen value)."""
    enclave: StoredEnclave | None = (
        None
        if b.enclave is None
        else {"name": b.enclave.name, "stability": _opt(b.enclave.stability), "side": b.enclave.side}
    )
    return {
        "title": b.title,
        "about": b.about,
        "action": b.action,
        "region_traits": list(b.region_traits),
        "attackers": {"name": b.side_name("attackers"), "units": [combatant_to_json(c) for c in b.attackers]},
        "defenders": {"name": b.side_name("defenders"), "units": [combatant_to_json(c) for c in b.defenders]},
        "enclave": enclave,
        "options": parse_options(b.options).to_dict(),
    }


def battle_from_json(d: Mapping[str, object]) -> Battle:
    named = {s: fields_of(d[s], f"battle.{s}") for s in SIDES}
    sides = {s: [combatant_from_json(fields_of(c, f"battle.{s}.units[{i}]"), f"battle.{s}.units[{i}]")
                 for i, c in enumerate(records_of(named[s]["units"], f"battle.{s}.units"))] for s in SIDES}
    e = None if d["enclave"] is None else fields_of(d["enclave"], "battle.enclave")
    enclave = (
        None
        if e is None
        else EnclaveState(
            str(e["name"]),
            None if e["stability"] is None else dec(e["stability"], "battle.enclave.stability"),
            _choice(e["side"], SIDES, "battle.enclave.side"),
        )
    )
    options = d["options"]
    if not isinstance(options, dict):
        raise RulekeeperError(f"battle.options: expected a mapping, got {d['options']!r}")
    return Battle(
        attackers=tuple(sides["attackers"]),
        defenders=tuple(sides["defenders"]),
        region_traits=_strs(d["region_traits"], "battle.region_traits"),
        action=str(d["action"]),
        enclave=enclave,
        options=parse_options({str(k): str(v) for k, v in options.items()}).to_dict(),
        title=None if d["title"] is None else str(d["title"]),
        attacker_name=str(named["attackers"]["name"]),
        defender_name=str(named["defenders"]["name"]),
        about=None if d["about"] is None else str(d["about"]),
    )


