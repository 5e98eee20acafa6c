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


#: What a tracked field holds on a :class:`Combatant` (hp, morale base, modifiers, fleeing, fatigue, veil, chain).
FieldValue = float | bool | tuple[float, ...] | tuple[Modifier, ...] | tuple[str, int]
#: The same value as an event carries it: a number, a yes/no, or a list (a modifier as its own list).
SavedValue = float | bool | list[float | str | list[str | float]]


def _saved(value: FieldValue) -> SavedValue:
    if isinstance(value, tuple):
        return [x.to_list() if isinstance(x, Modifier) else x for x in value]
    return value


def _loaded(field: str, value: object) -> FieldValue:
    """A field's value read back from an event (frozen: its lists are tuples); kept as stored, only checked."""
    if isinstance(value, (bool, int, float)):
        return value
    if not isinstance(value, (list, tuple)):
        raise IllegalActionError(f"event sets {field!r} to {value!r:.40}, not a number, a yes/no or a list")
    if field == "modifiers":
        return tuple(Modifier.from_list(x) for x in value)
    if field == "chain":
        element, links = value
        return (str(element), int(links))
    return tuple(_number(field, x) for x in value)


def _number(field: str, x: object) -> float:
    if isinstance(x, (int, float)):
        return x
    raise IllegalActionError(f"event sets {field!r} to a list holding {x!r:.40}, not a number")


def diff(before: Combatant, after: Combatant, cause: str) -> list[Event]:
    """The ``unit`` event turning ``before`` into ``after`` (none if nothing changed)."""
    changes: dict[str, SavedValue] = {}
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
    changes: dict[str, Any] = {}  # keyword arguments of replace(): each checked by name and value
    for f, v in event.data["set"].items():
        if f not in TRACKED:
            raise IllegalActionError(f"event sets unknown field {f!r}")
        changes[f] = _loaded(f, v)
    out = dict(zone)
    out[key] = replace(zone[key], **changes)
    return out
