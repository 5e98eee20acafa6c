"""Events and the event log: state changes only by events, and state is their fold.

An :class:`Event` is an immutable record (kind + JSON-able data). A ruleset supplies a
reducer ``(state, event) -> state``; :func:`fold` rebuilds any state from an initial one
and a log, which is how a resolution (and later a whole battle) is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypedDict, TypeGuard, TypeVar

S = TypeVar("S")


#: Leaves that are neither mappings nor lists (their exact types: a subclass takes the long way), returned as
#: they are by :func:`_freeze` and :func:`_thaw` before any ``isinstance`` against an abstract class (an Ex illis
#: simulation freezes ~70 values an action, the abstract checks a twentieth of its time: issue 28).
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _mapping(value: object, kind: type) -> TypeGuard[Mapping[object, object]]:
    """``isinstance(value, Mapping)``, answered without the abstract check for the usual types."""
    if kind is dict or kind is MappingProxyType:
        return True
    return kind is not list and kind is not tuple and isinstance(value, Mapping)


def _freeze(value: object) -> object:
    kind = type(value)
    if kind in _LEAVES:
        return value
    if _mapping(value, kind):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: object) -> object:
    kind = type(value)
    if kind in _LEAVES:
        return value
    if _mapping(value, kind):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


class EventJson(TypedDict):
    """An :class:`Event` as a record stores it: its kind and its data (lists where the event holds tuples)."""

    kind: str
    data: dict[str, object]


@dataclass(frozen=True)
class Event:
    """One change of state. ``data`` is frozen (read-only mapping, tuples for lists)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", _freeze(self.data))

    def to_dict(self) -> EventJson:
        return {"kind": self.kind, "data": {k: _thaw(v) for k, v in self.data.items()}}

    @classmethod
    def from_dict(cls, d: EventJson) -> Event:
        return cls(str(d["kind"]), dict(d.get("data", {})))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True, default=str))


def fold(initial: S, events: Iterable[Event], reducer: Callable[[S, Event], S]) -> S:
    """The state after applying ``events`` in order to ``initial``."""
    state = initial
    for ev in events:
        state = reducer(state, ev)
    return state


@dataclass(frozen=True)
class EventLog:
    """An append-only, immutable sequence of events; ``position`` is its length."""

    events: tuple[Event, ...] = ()

    @property
    def position(self) -> int:
        return len(self.events)

    def append(self, *events: Event) -> EventLog:
        return EventLog(self.events + events)

    def to_json(self) -> str:
        return json.dumps([e.to_dict() for e in self.events], sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> EventLog:
        return cls(tuple(Event.from_dict(d) for d in json.loads(text)))
