"""A house rule: ruleset options and unit stats changed for a duel or a whole sweep.

The file is YAML or TOML, read through the one bounded loader (:mod:`rulekeeper.core.datafiles`)::

    name: Stronger billmen          # optional, shown in the sweep's manifest
    options:                        # ruleset option readings (rulekeeper units GAME lists them)
      luck_damage: x2.5
    units:                          # unit name → stat → new value (the kernel checks the stats)
      Billmen:
        attack: 5

Options are checked against the game's own list (``Game.options``); unit and stat names are
checked by the game's duel kernel, which is the one that knows them.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, UnknownNameError
from rulekeeper.core.ruleset import Ruleset

Stat = int | float | str | bool


class HouseRule(BaseModel):
    """What a house-rule file holds (unknown keys refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    options: dict[str, str] = Field(default_factory=dict)
    units: dict[str, dict[str, Stat]] = Field(default_factory=dict)


def read_house_rule(path: Path) -> HouseRule:
    """The house rule in ``path``; a :class:`DataFileError` listing every problem."""
    raw = read_data_file(path)
    try:
        return HouseRule.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()]
        raise DataFileError(str(path), problems) from None


def check_options(game: Ruleset, options: dict[str, str], where: str) -> None:
    """Every option named by the game, with one of its values (typed errors naming the file)."""
    known = {info.name: info for info in game.options()}
    for name, value in options.items():
        if name not in known:
            raise UnknownNameError(f"option of {game.name} (in {where})", name, known)
        if known[name].choices and value not in known[name].choices:
            raise UnknownNameError(f"value of option {name} (in {where})", value, known[name].choices)


def option_pairs(items: list[str] | None) -> dict[str, str]:
    """``--option NAME=VALUE`` flags as a mapping."""
    from .errors import LabRequestError

    out: dict[str, str] = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise LabRequestError(f"--option {item!r}: write NAME=VALUE", option=item)
        out[name.strip()] = value.strip()
    return out
