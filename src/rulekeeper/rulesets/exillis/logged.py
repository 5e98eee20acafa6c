"""Reading back the report lines the log keeps (the Fate Screen's melee, shots, casts, Morale tests).

Why: the web and terminal presenters draw a logged report again, long after it was written, from the stored
JSON. Each entry is checked to be what the engine wrote (an object, a list, a number) as it is read, so a
damaged log is a :class:`RulekeeperError` naming what was expected, never a ``KeyError`` or ``TypeError``
while drawing. The shapes the engine writes are :mod:`.records`.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulekeeper.core.errors import RulekeeperError


def damaged(what: str, value: object) -> RulekeeperError:
    return RulekeeperError(f"a logged Ex illis report is damaged: expected {what}, got {value!r:.80}")


def number(value: object) -> float:
    """A logged number (a Morale value), checked."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise damaged("a number", value)
    return value


def listed(value: object) -> list[object]:
    """A logged list (casualties, reasons), checked."""
    if not isinstance(value, list):
        raise damaged("a list", value)
    return value


def entry(value: object) -> Mapping[str, object]:
    """One logged entry (a strike, a shot, a cast, a Morale test), checked to be an object as the log stores it."""
    if not isinstance(value, Mapping):
        raise damaged("an object", value)
    return value


def entries(value: object) -> list[Mapping[str, object]]:
    """The logged entries under a report line's key (duels, shots, casts, Morale tests), each checked; none when
    the key is absent."""
    return [entry(x) for x in listed([] if value is None else value)]
