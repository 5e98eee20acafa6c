"""Ex illis zone events: every change a resolution makes, and the reducer that replays them.

A resolution records a ``unit`` event each time it changes a combatant (a miniature's
HP, the morale base, the live modifiers — Intimidation, Verses, Leadership — Fleeing, Fatigue,
Veil, the elemental chain).
Folding those events over the zone before the resolution gives the zone after it,
exactly — the test suite checks this for every kind of resolution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.events import Event

from .combatants import Combatant, Modifier

TRACKED = ("hp", "morale_base", "modifiers", "fleeing", "fatigue", "veil", "chain")


def _saved(value: Any) -> Any:
    if isinstance(value, tuple):
        return [x.to_list() if isinstance(x, Modifier) else x for x in value]
    return value


def _loaded(field: str, value: Any) -> Any:
    if field == "modifiers":
        return tuple(Modifier.from_list(x) for x in value)
    return tuple(value) if isinstance(value, (list, tuple)) else value


def diff(before: Combatant, after: Combatant, cause: str) -> list[Event]:
    """The ``unit`` event turning ``before`` into ``after`` (none if nothing changed)."""
    changes: dict[str, Any] = {}
    for f in TRACKED:
        a, b = getattr(before, f), getattr(after, f)
        if a != b:
            changes[f] = _saved(b)
    if not changes:
        return []
    return [Event("unit", {"unit": after.key, "cause": cause, "set": changes})]


def record(units: dict[str, Combatant], new: Combatant, log: list[Event], cause: str) -> None:
    """Replace ``new.key`` in ``units`` and log what changed."""
    log.extend(diff(units[new.key], new, cause))
    units[new.key] = new


def reduce_zone(zone: Mapping[str, Combatant], event: Event) -> dict[str, Combatant]:
    """Apply one zone event; unknown kinds or units are refused, never ignored."""
    if event.kind != "unit":
        raise IllegalActionError(f"unknown zone event {event.kind!r}")
    key = str(event.data["unit"])
    if key not in zone:
        raise IllegalActionError(f"event names unit {key!r} that is not in the zone")
    changes: dict[str, Any] = {}
    for f, v in event.data["set"].items():
        if f not in TRACKED:
            raise IllegalActionError(f"event sets unknown field {f!r}")
        changes[f] = _loaded(f, v)
    out = dict(zone)
    out[key] = replace(zone[key], **changes)
    return out
