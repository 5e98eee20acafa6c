"""The estimated numbers of the core rules the seed names without printing (``data/core_rules.yaml``).

One small, checked data file so every number a new rule needs (the Tactical roll's die and characteristic,
fleeing, pursuit, disengaging, terrain) is in one place, marked ``estimated`` with its reasoning, and
replaceable by a player's own book. Rules: docs/rules/confrontation.md.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError

CORE_RULES = Path(__file__).resolve().parent / "data" / "core_rules.yaml"


@cache
def core_rules(path: Path = CORE_RULES) -> dict[str, object]:
    """The file's sections as read (checked to be a mapping marked ``estimated``)."""
    data = read_data_file(path)
    if not isinstance(data, dict) or "estimated" not in data:
        raise DataFileError(str(path), ["the core rules' numbers must be a mapping marked 'estimated'"])
    return data


def _value(section: str, key: str) -> object:
    """One value of a section as read (None when the section or the key is missing)."""
    part = core_rules().get(section)
    return part.get(key) if isinstance(part, dict) else None


def number(section: str, key: str) -> int:
    """One whole number of a section (``number("flee", "factor")``), a typed error naming it when missing."""
    value = _value(section, key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataFileError(str(CORE_RULES), [f"{section}.{key} must be a whole number, got {value!r}"])
    return value


def word(section: str, key: str) -> str:
    value = _value(section, key)
    if not isinstance(value, str):
        raise DataFileError(str(CORE_RULES), [f"{section}.{key} must be a word, got {value!r}"])
    return value
