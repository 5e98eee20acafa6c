"""Ruleset options that switch between readings of a rule, parsed the same way for every rule system.

Why one place: each rule system keeps, per option, its allowed values and a one-line help
(``CHOICES``) and a frozen dataclass of the chosen values; turning ``--option NAME=VALUE``
strings into that dataclass, refusing unknown names or values with typed errors, and
listing the options for ``rulekeeper options`` are the same work for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Self

from .errors import InvalidStatError, UnknownNameError
from .ruleset import OptionInfo


@dataclass(frozen=True)
class Readings:
    """Base of a rule system's options: subclasses add one ``Literal`` field per option."""

    #: option name → (allowed values, default first; one-line help)
    CHOICES: ClassVar[dict[str, tuple[tuple[str, ...], str]]] = {}

    @classmethod
    def parse(cls, pairs: list[str] | None) -> Self:
        """Build from ``NAME=VALUE`` strings (``-`` or ``_`` in names), refusing unknown names or values."""
        opts = cls()
        for pair in pairs or []:
            name, sep, value = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not sep:
                raise InvalidStatError(f"option {pair!r} must look like NAME=VALUE", option=pair)
            if name not in cls.CHOICES:
                raise UnknownNameError("option", name, cls.CHOICES)
            choices = cls.CHOICES[name][0]
            if value.strip() not in choices:
                raise UnknownNameError(f"value for option {name}", value, choices)
            change: dict[str, Any] = {name: value.strip()}
            opts = replace(opts, **change)
        return opts

    def to_dict(self) -> dict[str, str]:
        return {f.name: str(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def infos(cls) -> list[OptionInfo]:
        """Every option with its default, its values and its help (what ``rulekeeper options`` lists)."""
        defaults = cls().to_dict()
        return [OptionInfo(name, defaults[name], values, help_text) for name, (values, help_text) in cls.CHOICES.items()]
