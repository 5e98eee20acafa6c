"""One JSON codec for typed states: a frozen dataclass goes to JSON and back by its type hints.

Every game wrote ``state_to_json``/``state_from_json`` by hand, field by field, with the same
conversions (tuples to lists and back, the RNG state as its dict, nested records). A state that
is a dataclass of plain values, tuples, dicts, nested dataclasses and a
:class:`~rulekeeper.core.rng.RngState` needs none of that: :func:`to_json` walks the value,
:func:`from_json` walks the declared types, and a damaged document is refused with a typed error
naming the field (never a ``KeyError`` from deep inside).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Race:
...     scores: tuple[int, int]
...     winner: str | None
>>> to_json(Race((3, 4), None))
{'scores': [3, 4], 'winner': None}
>>> from_json(Race, {'scores': [3, 4], 'winner': None})
Race(scores=(3, 4), winner=None)
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union

from .errors import RulekeeperError
from .rng import RngState
from .wording import counted

T = TypeVar("T")


class DamagedStateError(RulekeeperError):
    """A stored state does not have the shape its game's state class declares."""

    code = "damaged_state"


def to_json(value: object) -> Any:
    """``value`` as JSON (dataclasses as objects of their fields, tuples as lists, enums as values)."""
    if isinstance(value, RngState):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


@cache
def _hints(cls: type) -> dict[str, object]:
    return typing.get_type_hints(cls)


def from_json(cls: type[T], data: object, where: str = "state") -> T:
    """The ``cls`` instance ``data`` encodes (the inverse of :func:`to_json`)."""
    value = _read(cls, data, where)
    if not isinstance(value, cls):  # a class read is an instance of it: said to the type checker, not cast
        raise DamagedStateError(f"{where}: {cls.__name__} expected, not {type(value).__name__}")
    return value


def _read(kind: object, data: object, where: str) -> object:
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        return _union(kind, data, where)
    if origin is tuple:
        return _tuple(kind, data, where)
    if origin is list:
        (item,) = typing.get_args(kind)
        return [_read(item, v, f"{where}[{i}]") for i, v in enumerate(_sequence(data, where))]
    if origin is dict:
        key, item = typing.get_args(kind)
        if not isinstance(data, dict):
            raise DamagedStateError(f"{where}: an object is expected, not {type(data).__name__}")
        return {_read(key, k, where): _read(item, v, f"{where}.{k}") for k, v in data.items()}
    if kind is Any:
        return data
    if isinstance(kind, type):
        return _plain(kind, data, where)
    raise DamagedStateError(f"{where}: cannot read the type {kind!r}")


def _union(kind: object, data: object, where: str) -> object:
    choices = typing.get_args(kind)
    if data is None and type(None) in choices:
        return None
    for choice in (c for c in choices if c is not type(None)):
        try:
            return _read(choice, data, where)
        except DamagedStateError:
            continue
    raise DamagedStateError(f"{where}: {data!r:.60} is none of {kind!r}")


def _sequence(data: object, where: str) -> list[object]:
    if not isinstance(data, (list, tuple)):
        raise DamagedStateError(f"{where}: a list is expected, not {type(data).__name__}")
    return list(data)


def _tuple(kind: object, data: object, where: str) -> tuple[object, ...]:
    args = typing.get_args(kind)
    items = _sequence(data, where)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_read(args[0], v, f"{where}[{i}]") for i, v in enumerate(items))
    if len(items) != len(args):
        raise DamagedStateError(f"{where}: {counted(len(args), 'item')} {'is' if len(args) == 1 else 'are'} expected, "
                                f"not {len(items)}")
    return tuple(_read(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, items, strict=True)))


def _plain(kind: type, data: object, where: str) -> object:
    if kind is RngState:
        if not isinstance(data, dict):
            raise DamagedStateError(f"{where}: not an RNG state (an object is expected, not {type(data).__name__})")
        try:
            return RngState.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise DamagedStateError(f"{where}: not an RNG state ({exc!r:.80})") from None
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise DamagedStateError(f"{where}: an object is expected, not {type(data).__name__}")
        hints = _hints(kind)
        fields = [f for f in dataclasses.fields(kind) if f.init]
        missing = [f.name for f in fields if f.name not in data and f.default is dataclasses.MISSING
                   and f.default_factory is dataclasses.MISSING]
        if missing:
            raise DamagedStateError(f"{where}: missing {', '.join(missing)}")
        return kind(**{f.name: _read(hints[f.name], data[f.name], f"{where}.{f.name}")
                       for f in fields if f.name in data})
    if issubclass(kind, Enum):
        return kind(data)
    if kind is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if kind is type(None) and data is None:
        return None
    if not isinstance(data, kind) or (kind is int and isinstance(data, bool)):
        raise DamagedStateError(f"{where}: {kind.__name__} expected, not {type(data).__name__}")
    return data
