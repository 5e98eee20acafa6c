"""The general: its unit card and the numbers of a rally, from ``data/command.yaml``.

The guide: "Other units will be able to pursue them and their general will be able to rally
them back into the fight." It prints no general and no rally, so the card and the rally dice
are ours, every number marked ``estimated`` with its reason (docs/rules/battlesystem.md,
"Generals, rally, pursuit"); the general is a unit card like the thirteen (same schema, category
``command``, ability ``Rallies``) so it moves, fights and is fought as any unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulekeeper.core.datafiles import parse_data_text
from rulekeeper.core.errors import DataFileError

from .units import UnitType, build_unit_types

SHIPPED = "rulekeeper/rulesets/battlesystem/data/command.yaml"


class _Number(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    value: int = Field(ge=1)
    source: Literal["seed", "estimated", "user"]
    why: str = Field(min_length=1)


class _Rally(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    dice: _Number
    sides: _Number


@dataclass(frozen=True)
class Command:
    """The general's card and the rally roll (``dice``d``sides`` morale restored)."""

    general: UnitType
    rally_dice: int
    rally_sides: int
    why: str


@lru_cache(maxsize=1)
def command() -> Command:
    """The shipped general and rally numbers, read once per process."""
    text = resources.files("rulekeeper.rulesets.battlesystem").joinpath("data", "command.yaml").read_text("utf-8")
    doc: Any = parse_data_text(text, SHIPPED, ".yaml")
    if not isinstance(doc, dict) or set(doc) != {"general", "rally"} or not isinstance(doc["general"], dict):
        raise DataFileError(SHIPPED, ["(top level): exactly `general` (one unit card) and `rally` are required"])
    cards = build_unit_types(doc["general"], SHIPPED)
    if len(cards.types) != 1:
        raise DataFileError(SHIPPED, ["general: exactly one card is required"])
    try:
        rally = _Rally.model_validate(doc["rally"])
    except ValidationError as exc:
        raise DataFileError(SHIPPED, [f"rally.{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]) from None
    return Command(cards.types[0], rally.dice.value, rally.sides.value, rally.dice.why)
