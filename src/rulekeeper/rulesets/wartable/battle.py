"""Battle files: a small YAML/TOML description of one War Table battle.

A battle file names two sides and their units (by profile name, optionally with
current Health, Marks and Curses), says which side attacks, lists the region's
traits, and may name the Enclave whose settlement is in the region, rule options
and extra data files. Writing this down once lets a group replay and argue about
one battle without retyping flags. See ``examples/wartable/*.yaml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

from pydantic import BeforeValidator, ValidationError

from rulekeeper.core.errors import DataFileError, InvalidStatError, RulekeeperError, UnknownNameError

from .data import (
    Name,
    StatNumber,
    StrictModel,
    WarTableData,
    load_data_file,
    read_mapping,
    shipped_data,
    validation_problems,
)
from .model import Battle, Combatant, EnclaveState, SideName, fold, parse_options
from .rounding import exact


def _entry(value: object) -> object:
    """A side entry may be just a profile name; a mapping is validated as is (raw YAML, before pydantic reads it)."""
    if isinstance(value, str):
        return {"unit": value}
    if isinstance(value, dict):
        return value
    raise ValueError("expected a unit name or a mapping with a 'unit' key")


class UnitEntrySchema(StrictModel):
    """A unit on a side: its profile name and its state in this battle."""

    unit: Name
    health: StatNumber | None = None
    marks: list[Name] = []
    curses: list[Name] = []
    label: Name | None = None


class EnclaveSchema(StrictModel):
    """The Enclave in the region: its name, Stability, and the side holding it."""

    name: Name
    stability: StatNumber | None = None
    side: Name


class BattleSchema(StrictModel):
    """A whole battle file."""

    ruleset: str | None = None  # which game the file is for (``wartable``); read by the battle service
    title: str | None = None
    about: str | None = None
    action: Name = "attack"
    attacker: Name
    region_traits: list[Name] = []
    sides: dict[Name, list[Annotated[UnitEntrySchema, BeforeValidator(_entry)]]]
    enclave: EnclaveSchema | None = None
    options: dict[str, str] = {}
    data: list[Name] = []


#: The names a battle file's ``ruleset:`` key may give the War Table (as the registry folds them).
RULESET_NAMES = ("wartable", "war-table", "war table", "wt")


class BattleFileError(DataFileError):
    """A battle file with problems, every one of them listed (``problems``), each naming its field.

    Raised by :func:`battle_from_mapping` with ``every_problem=True`` (how a stored battle is
    set up), so a player fixes the whole file in one pass instead of one error at a time.
    """


def _side_key(sides: Sequence[str], name: str) -> str | None:
    for s in sides:
        if fold(s) == fold(name):
            return s
    return None


def _folded_ruleset(name: str) -> str:
    return name.strip().lower().replace(" ", "").replace("-", "").replace("_", "")


class _Problems:
    """Problems of one battle file: raised one by one (the calculator's historic behaviour:
    the typed error of the first bad unit), or all together as one :class:`BattleFileError`."""

    def __init__(self, where: str, every: bool) -> None:
        self.where = where
        self.every = every
        self.lines: list[str] = []

    def shape(self, line: str) -> None:
        """A problem of the file's shape (raised together with the other shape problems)."""
        self.lines.append(line)

    def value(self, line: str, exc: RulekeeperError) -> None:
        """A value problem: ``exc`` alone in the historic mode, ``line`` in the full list otherwise."""
        if not self.every:
            raise exc
        self.lines.append(line)

    def check(self) -> None:
        if self.lines:
            if self.every:
                raise BattleFileError(self.where, self.lines)
            raise DataFileError(self.where, self.lines)


def _roles(doc: BattleSchema, found: _Problems) -> tuple[list[str], str | None, str | None]:
    """The file's side names, the attacking side and the side holding the Enclave.

    Problems of shape (wrong ``ruleset``, not two sides, an ``attacker`` or ``enclave.side``
    naming no side) are recorded in ``found``; an unknown side comes back as ``None``.
    """
    names = list(doc.sides)
    if doc.ruleset is not None and _folded_ruleset(doc.ruleset) not in {_folded_ruleset(n) for n in RULESET_NAMES}:
        found.shape(f"ruleset: this file is for the game {doc.ruleset!r}, not the War Table (expected 'wartable')")
    if len(names) != 2:
        found.shape(f"sides: expected exactly two sides, got {len(names)} ({', '.join(names) or 'none'})")
    attacker = _side_key(names, doc.attacker)
    if attacker is None:
        found.shape(f"attacker: expected one of the side names {names}, got {doc.attacker!r}")
    enclave_side: str | None = None
    if doc.enclave is not None:
        enclave_side = _side_key(names, doc.enclave.side)
        if enclave_side is None:
            found.shape(f"enclave.side: expected one of the side names {names}, got {doc.enclave.side!r}")
    return names, attacker, enclave_side


def _side_units(doc: BattleSchema, name: str, data: WarTableData, found: _Problems) -> tuple[Combatant, ...]:
    """The combatants of side ``name``; an unknown profile or a negative Health is a problem, not a unit."""
    out: list[Combatant] = []
    for i, e in enumerate(doc.sides[name]):
        field = f"sides.{name}[{i}]"
        try:
            unit = data.unit(e.unit)
        except UnknownNameError as exc:
            found.value(f"{field}.unit: {exc.message}", exc)
            continue
        if e.health is not None and e.health < 0:
            found.value(
                f"{field}.health: must be >= 0, got {e.health}",
                InvalidStatError(
                    f"{found.where}: {field}.health must be >= 0, got {e.health}",
                    path=found.where,
                    field=f"{field}.health",
                    value=e.health,
                ),
            )
            continue
        out.append(Combatant.of(unit, e.health, e.marks, e.curses, e.label))
    return tuple(out)


def _enclave(
    doc: BattleSchema, enclave_side: str | None, attacker: str | None, found: _Problems
) -> EnclaveState | None:
    """The Enclave in the region, on the attackers' or defenders' side (``None`` if none or unplaceable)."""
    if doc.enclave is None:
        return None
    stab = doc.enclave.stability
    if stab is not None and stab < 0:
        found.value(
            f"enclave.stability: must be >= 0, got {stab}",
            InvalidStatError(
                f"{found.where}: enclave.stability must be >= 0, got {stab}",
                path=found.where,
                field="enclave.stability",
                value=stab,
            ),
        )
    elif enclave_side is not None and attacker is not None:
        role: SideName = "attackers" if enclave_side == attacker else "defenders"
        return EnclaveState(doc.enclave.name, None if stab is None else exact(stab), role)
    return None


def _check_options(doc: BattleSchema, found: _Problems) -> None:
    """Every unknown option name or value is a problem of its own (only when listing every problem)."""
    for key, value in doc.options.items():
        try:
            parse_options({key: value})
        except UnknownNameError as exc:
            found.shape(f"options.{key}: {exc.message}")


def battle_from_mapping(
    raw: object,
    where: str,
    base_dir: Path | None = None,
    extra_data: Sequence[Path | str] = (),
    *,
    every_problem: bool = False,
) -> tuple[Battle, WarTableData]:
    """Validate a parsed battle file; return the battle and the data it resolves against.

    Data files listed under ``data:`` (relative to ``base_dir``) overlay the shipped
    data, then ``extra_data`` (the CLI's ``--data``) overlays those.

    By default a bad unit raises its own typed error (:class:`UnknownNameError`,
    :class:`InvalidStatError`) and shape problems one :class:`DataFileError`. With
    ``every_problem=True`` every problem of the file (shape, ``ruleset``, data files,
    units, Health, Stability, option names and values) is listed in one
    :class:`BattleFileError`.
    """
    try:
        doc = BattleSchema.model_validate(raw)
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise (BattleFileError if every_problem else DataFileError)(where, problems) from None
    found = _Problems(where, every_problem)
    names, attacker, enclave_side = _roles(doc, found)
    if not every_problem:
        found.check()

    base = base_dir or Path(".")
    data = _load_data(found, [*(base / p for p in doc.data), *extra_data], [f"data[{i}]" for i in range(len(doc.data))])
    sides = {name: _side_units(doc, name, data, found) for name in names}
    enclave = _enclave(doc, enclave_side, attacker, found)
    if every_problem:
        _check_options(doc, found)
    found.check()
    assert attacker is not None
    defender = next(n for n in names if n != attacker)
    battle = Battle(
        attackers=sides[attacker],
        defenders=sides[defender],
        region_traits=tuple(doc.region_traits),
        action=doc.action,
        enclave=enclave,
        options=dict(doc.options),
        title=doc.title or f"{attacker} attack {defender}",
        attacker_name=attacker,
        defender_name=defender,
        about=doc.about,
    )
    return battle, data


def _load_data(found: _Problems, paths: Sequence[Path | str], fields: Sequence[str]) -> WarTableData:
    """Shipped data overlaid by each file in turn; every bad file is a problem of its own."""
    data = shipped_data()
    for i, p in enumerate(paths):
        try:
            data = data.overlay(load_data_file(p))
        except RulekeeperError as exc:
            label = fields[i] if i < len(fields) else "--data"
            found.value(f"{label}: {exc.message}", exc)
    return data


def load_battle(
    path: Path | str, extra_data: Sequence[Path | str] = (), *, every_problem: bool = False
) -> tuple[Battle, WarTableData]:
    """Read a YAML/TOML battle file (see :func:`battle_from_mapping`)."""
    p = Path(path)
    return battle_from_mapping(read_mapping(p), str(p), p.parent, extra_data, every_problem=every_problem)
