"""Ex illis zone events: every change a resolution makes, and the reducer that replays them.

A resolution records a ``unit`` event each time it changes a combatant (a miniature's
HP, morale, the Intimidation modifier, Fleeing, Fatigue, Veil, the elemental chain).
Folding those events over the zone before the resolution gives the zone after it,
exactly — the test suite checks this for every kind of resolution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.events import Event

from .combatants import Combatant

TRACKED = ("hp", "morale", "intimidation_mod", "fleeing", "fatigue", "veil", "chain")


def diff(before: Combatant, after: Combatant, cause: str) -> list[Event]:
    """The ``unit`` event turning ``before`` into ``after`` (none if nothing changed)."""
    changes: dict[str, Any] = {}
    for f in TRACKED:
        a, b = getattr(before, f), getattr(after, f)
        if a != b:
            changes[f] = list(b) if isinstance(b, tuple) else b
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
        changes[f] = tuple(v) if isinstance(v, (list, tuple)) else v
    out = dict(zone)
    out[key] = replace(zone[key], **changes)
    return out
