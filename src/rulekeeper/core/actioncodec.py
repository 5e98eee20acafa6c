"""One JSON codec for a game's typed actions: frozen dataclasses in the rules, JSON objects on the wire.

Why: an action crosses four boundaries — the web form (every value a string), the JSON API, the
command line's words and the log — and each game used to convert its fields by hand in
``parse_action``. A game now declares its actions as frozen dataclasses, each naming its ``kind``
(a ``ClassVar[str]``, or a ``kind`` field typed ``Literal[...]`` for one class serving several
kinds), and :class:`ActionCodec` turns them into the canonical JSON object and back. Decoding
checks the shape once, by the type hints: an unknown kind or field, a missing field or a value of
the wrong type is an :class:`~rulekeeper.core.errors.IllegalActionError` naming it; numbers
arrive as numbers (``"3"`` from a form becomes ``3`` for an ``int`` field), words are trimmed, a
``Literal`` is matched without regard to case. Whether the action is legal now is the game's
question, not the codec's.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import MISSING, fields, is_dataclass
from typing import Generic, Literal, Protocol, TypeVar, Union, get_args, get_origin, get_type_hints

from .errors import IllegalActionError

A = TypeVar("A")


class Codec(Protocol[A]):
    """What the registry's adapter (``core.registered``) needs of a game's actions: the logged JSON object
    of one, and the action a JSON object spells (an :class:`ActionCodec`, or :data:`JSON_ACTIONS`)."""

    def encode(self, action: A) -> dict[str, object]: ...

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> A: ...


class JsonActions:
    """The codec of a game whose actions are still their JSON objects: each way, a copy of the object.

    Why: the protocol speaks typed actions, and a game that has none yet (``BaseGame``'s default) must keep
    working unchanged, its logged actions byte for byte what they were."""

    def encode(self, action: Mapping[str, object]) -> dict[str, object]:
        return dict(action)

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> dict[str, object]:
        return dict(data)


#: The identity codec (a game without typed actions).
JSON_ACTIONS = JsonActions()


class ActionCodec(Generic[A]):
    """The JSON form of the actions ``classes`` (frozen dataclasses), and back (see the module's docstring)."""

    def __init__(self, *classes: type[A]) -> None:
        self.classes = classes
        self._hints = {cls: get_type_hints(cls) for cls in classes}
        self._by_kind: dict[str, type[A]] = {}
        for cls in classes:
            if not is_dataclass(cls):
                raise TypeError(f"{cls.__name__} is not a dataclass")
            for kind in self._kinds_of(cls):
                self._by_kind[kind] = cls

    def _kinds_of(self, cls: type[A]) -> tuple[str, ...]:
        hint = self._hints[cls].get("kind")
        if any(f.name == "kind" for f in fields(cls)):  # type: ignore[arg-type]
            return tuple(str(k) for k in get_args(hint))
        return (str(cls.kind),)  # type: ignore[attr-defined]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._by_kind)

    def fields_of(self, kind: str) -> tuple[str, ...]:
        """The fields an action of ``kind`` carries besides its kind, in order (``unit``, ``to``…)."""
        return tuple(f.name for f in fields(self._by_kind[kind]) if f.name != "kind")  # type: ignore[arg-type]

    def encode(self, action: A) -> dict[str, object]:
        """The canonical JSON object: ``kind`` first, then the fields in their declared order."""
        out: dict[str, object] = {"kind": getattr(action, "kind")}  # noqa: B009  # a field or a ClassVar
        for f in fields(action):  # type: ignore[arg-type]
            value = getattr(action, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> A:
        """The typed action ``data`` spells (a field it leaves out taken from ``defaults`` when the
        action has that field: the side to act, say); an :class:`IllegalActionError` naming what is wrong."""
        typed = str(data.get("kind", "")).strip().casefold()
        cls = self._by_kind.get(typed)
        if cls is None:
            raise IllegalActionError(f"not an action here: kind {data.get('kind')!r} (one of {', '.join(self.kinds)})",
                                     kind=str(data.get("kind")), legal=list(self.kinds))
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        unknown = sorted(str(k) for k in data if k != "kind" and k not in names)
        if unknown:
            raise IllegalActionError(f"a {typed} has no {', '.join(unknown)} (its fields: {', '.join(names)})",
                                     field=unknown[0])
        values: dict[str, object] = {"kind": typed} if "kind" in names else {}
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name == "kind":
                continue
            value = data.get(f.name)
            if (value is None or value == "") and defaults is not None:
                value = defaults.get(f.name)
            if value is None or (isinstance(value, str) and not value.strip()):
                if f.default is MISSING and f.default_factory is MISSING:
                    raise IllegalActionError(f"a {typed} needs a {f.name}", field=f.name)
                continue
            values[f.name] = _coerced(value, self._hints[cls][f.name], f"{typed}.{f.name}")
        return cls(**values)


def _coerced(value: object, hint: object, where: str) -> object:
    """``value`` as the type ``hint`` asks, from JSON or from a form's text; else a typed refusal naming ``where``."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [h for h in get_args(hint) if h is not type(None)]
        for option in options:
            try:
                return _coerced(value, option, where)
            except IllegalActionError:
                continue
        raise IllegalActionError(f"{where}: {value!r} is not {hint}", field=where)
    if origin is Literal:
        for allowed in get_args(hint):
            if value == allowed or (isinstance(value, str) and str(allowed).casefold() == value.strip().casefold()):
                return allowed
        raise IllegalActionError(f"{where}: {value!r} is not one of {', '.join(map(str, get_args(hint)))}",
                                 field=where)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise IllegalActionError(f"{where}: expected a list, got {value!r}", field=where)
        item = get_args(hint)[0]
        return tuple(_coerced(v, item, where) for v in value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().casefold() in ("true", "false"):
            return value.strip().casefold() == "true"
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value.strip())
    elif hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError:
                pass
    elif hint is str:
        if isinstance(value, str):
            return value.strip()
    else:
        return value
    raise IllegalActionError(f"{where}: expected {getattr(hint, '__name__', hint)}, got {value!r}", field=where)
