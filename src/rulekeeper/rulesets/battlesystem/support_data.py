"""The numbers of the support units' work and of the ground in combat, from ``data/support.yaml``.

The guide lists "Support units: Engineers, Medics, Supply" and leaves "Special Abilities" empty; of
terrain it says "how they affect the units still remains unknown". So every number is ours, marked
``estimated`` with its reason in the data file (docs/rules/battlesystem.md, "Support units" and
"Terrain and elevation in combat").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulekeeper.core.datafiles import parse_data_text
from rulekeeper.core.errors import DataFileError

SHIPPED = "rulekeeper/rulesets/battlesystem/data/support.yaml"


class _Number(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    value: int = Field(ge=0)
    source: Literal["seed", "estimated", "user"]
    why: str = Field(min_length=1)


class _Support(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    tend_dice: _Number
    tend_sides: _Number
    resupply: _Number


class _Ground(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    higher_ground: _Number
    forest_cover: _Number
    river_footing: _Number


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    support: _Support
    ground: _Ground


@dataclass(frozen=True)
class SupportNumbers:
    """Medics tend ``tend_dice``d``tend_sides`` soldiers; Supply hand over ``resupply`` ammunition; the ground adds
    ``higher_ground`` a level, takes ``forest_cover`` against a unit in a forest, ``river_footing`` from a river."""

    tend_dice: int
    tend_sides: int
    resupply: int
    higher_ground: int
    forest_cover: int
    river_footing: int


@lru_cache(maxsize=1)
def support_numbers() -> SupportNumbers:
    """The shipped numbers, read once per process."""
    text = resources.files("rulekeeper.rulesets.battlesystem").joinpath("data", "support.yaml").read_text("utf-8")
    doc: Any = parse_data_text(text, SHIPPED, ".yaml")
    try:
        f = _File.model_validate(doc)
    except ValidationError as exc:
        raise DataFileError(SHIPPED, [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]) from None
    s, g = f.support, f.ground
    return SupportNumbers(s.tend_dice.value, s.tend_sides.value, s.resupply.value, g.higher_ground.value,
                          g.forest_cover.value, g.river_footing.value)
