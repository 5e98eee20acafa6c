"""The ruleset protocol and registry.

Rule systems are small classes found by name or alias, like python-chess variants,
either built in or contributed by other distributions through the entry-point group
``rulekeeper.rulesets``. Every registered ruleset must pass the one conformance test
(``tests/test_conformance.py``), which drives it only through this protocol.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, ClassVar, Protocol, runtime_checkable

from .chance import Fate
from .errors import RulekeeperError, UnknownNameError

ENTRY_POINT_GROUP = "rulekeeper.rulesets"


@dataclass(frozen=True)
class Resolution:
    """What one resolution produced: JSON-able summary plus every chance drawn."""

    ruleset: str
    kind: str
    summary: dict[str, Any]
    chance: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "kind": self.kind, "summary": self.summary, "chance": self.chance}


@dataclass(frozen=True)
class OptionInfo:
    """A ruleset option that switches between readings of a contradictory rule."""

    name: str
    default: str
    choices: tuple[str, ...]
    help: str


@runtime_checkable
class Ruleset(Protocol):
    """What every rule system offers to the core, the CLI and the conformance test."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    title: ClassVar[str]
    deterministic: ClassVar[bool]

    def options(self) -> list[OptionInfo]:
        """The ruleset options (readings of contradictory rules) with their defaults."""
        ...

    def roster(self) -> list[dict[str, Any]]:
        """Every unit the shipped data knows, as JSON-able dicts (at least ``name``)."""
        ...

    def sample_resolution(self, fate: Fate) -> Resolution:
        """One representative resolution drawing all chance through ``fate``."""
        ...


_BUILTIN: dict[str, str] = {
    "exillis": "rulekeeper.rulesets.exillis:ExIllis",
    "wartable": "rulekeeper.rulesets.wartable:WarTable",
}


def _load(ref: str) -> type[Any]:
    module, _, attr = ref.partition(":")
    mod = __import__(module, fromlist=[attr])
    cls: type[Any] = getattr(mod, attr)
    return cls


def registered() -> dict[str, type[Any]]:
    """Name → ruleset class, from the built-ins and the entry-point group."""
    found: dict[str, type[Any]] = {}
    for name, ref in _BUILTIN.items():
        found[name] = _load(ref)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in found:
            try:
                found[ep.name] = ep.load()
            except Exception as exc:  # a broken third-party plugin must not break the tool
                raise RulekeeperError(f"ruleset plugin {ep.name!r} failed to load: {exc}") from exc
    return found


def _names(cls: type[Any]) -> Iterator[str]:
    yield str(cls.name)
    yield from (str(a) for a in cls.aliases)


def find_ruleset(name: str) -> type[Any]:
    """The ruleset class called ``name`` or one of its aliases (case-insensitive)."""
    wanted = name.strip().lower().replace(" ", "").replace("-", "").replace("_", "")
    all_names: list[str] = []
    for cls in registered().values():
        for n in _names(cls):
            all_names.append(n)
            if n.lower().replace(" ", "").replace("-", "").replace("_", "") == wanted:
                return cls
    raise UnknownNameError("ruleset", name, all_names)
