"""Battle files: a small YAML/TOML description of one War Table battle.

A battle file names two sides and their units (by profile name, optionally with
current Health, Marks and Curses), says which side attacks, lists the region's
traits, and may name the Enclave whose settlement is in the region, rule options
and extra data files. Writing this down once lets a group replay and argue about
one battle without retyping flags. See ``examples/wartable/*.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, ValidationError

from rulekeeper.core.errors import DataFileError, InvalidStatError

from .data import Name, StatNumber, StrictModel, WarTableData, load_data, read_mapping, validation_problems
from .model import Battle, Combatant, EnclaveState, SideName, fold
from .rounding import exact


def _entry(value: Any) -> Any:
    """A side entry may be just a profile name; a mapping is validated as is."""
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

    title: str | None = None
    about: str | None = None
    action: Name = "attack"
    attacker: Name
    region_traits: list[Name] = []
    sides: dict[Name, list[Annotated[UnitEntrySchema, BeforeValidator(_entry)]]]
    enclave: EnclaveSchema | None = None
    options: dict[str, str] = {}
    data: list[Name] = []


def _side_key(sides: Sequence[str], name: str) -> str | None:
    for s in sides:
        if fold(s) == fold(name):
            return s
    return None


def battle_from_mapping(
    raw: Mapping[str, Any],
    where: str,
    base_dir: Path | None = None,
    extra_data: Sequence[Path | str] = (),
) -> tuple[Battle, WarTableData]:
    """Validate a parsed battle file; return the battle and the data it resolves against.

    Data files listed under ``data:`` (relative to ``base_dir``) overlay the shipped
    data, then ``extra_data`` (the CLI's ``--data``) overlays those.
    """
    try:
        doc = BattleSchema.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(where, validation_problems(exc)) from None
    names = list(doc.sides)
    problems: list[str] = []
    if len(names) != 2:
        problems.append(f"sides: expected exactly two sides, got {len(names)} ({', '.join(names) or 'none'})")
    attacker = _side_key(names, doc.attacker)
    if attacker is None:
        problems.append(f"attacker: expected one of the side names {names}, got {doc.attacker!r}")
    enclave_side: str | None = None
    if doc.enclave is not None:
        enclave_side = _side_key(names, doc.enclave.side)
        if enclave_side is None:
            problems.append(f"enclave.side: expected one of the side names {names}, got {doc.enclave.side!r}")
    if problems:
        raise DataFileError(where, problems)
    assert attacker is not None
    defender = next(n for n in names if n != attacker)

    base = base_dir or Path(".")
    data = load_data([*(base / p for p in doc.data), *extra_data])

    def side(name: str) -> tuple[Combatant, ...]:
        out: list[Combatant] = []
        for i, entry in enumerate(doc.sides[name]):
            e = entry
            if e.health is not None and e.health < 0:
                raise InvalidStatError(
                    f"{where}: sides.{name}[{i}].health must be >= 0, got {e.health}",
                    path=where,
                    field=f"sides.{name}[{i}].health",
                    value=e.health,
                )
            unit = data.unit(e.unit)
            out.append(Combatant.of(unit, e.health, e.marks, e.curses, e.label))
        return tuple(out)

    enclave = None
    if doc.enclave is not None:
        if doc.enclave.stability is not None and doc.enclave.stability < 0:
            raise InvalidStatError(
                f"{where}: enclave.stability must be >= 0, got {doc.enclave.stability}",
                path=where,
                field="enclave.stability",
                value=doc.enclave.stability,
            )
        role: SideName = "attackers" if enclave_side == attacker else "defenders"
        stab = None if doc.enclave.stability is None else exact(doc.enclave.stability)
        enclave = EnclaveState(doc.enclave.name, stab, role)
    battle = Battle(
        attackers=side(attacker),
        defenders=side(defender),
        region_traits=tuple(doc.region_traits),
        action=doc.action,
        enclave=enclave,
        options=dict(doc.options),
        title=doc.title or f"{attacker} attack {defender}",
    )
    return battle, data


def load_battle(path: Path | str, extra_data: Sequence[Path | str] = ()) -> tuple[Battle, WarTableData]:
    """Read a YAML/TOML battle file (see :func:`battle_from_mapping`)."""
    p = Path(path)
    return battle_from_mapping(read_mapping(p), str(p), p.parent, extra_data)
