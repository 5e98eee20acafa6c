"""Dragon Noir's actions as types, and their one JSON codec (``core.actioncodec``).

Why a module of its own: every rules module that offers an action (placing, sorcery, the saddle, the
bridle, the dead...) builds it here, and :mod:`.actions` imports those modules, so the types live in a
leaf. The JSON each encodes to is exactly the one the log has always stored: ``kind``, ``side``, then
the fields in the order below; an optional field (a borrowed ``horse``, the ``via`` of an attack on the
dragon's centre from a disabled limb's hex) is left out when it is absent, as it always was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from types import UnionType
from typing import ClassVar, Literal, Union, get_args, get_origin

from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.game import LegalAction


@dataclass(frozen=True)
class Shoot:
    """A shooter fires at a target (offensive or defensive fire)."""

    kind: ClassVar[str] = "shoot"
    side: str
    unit: str
    target: str


@dataclass(frozen=True)
class ToHex:
    """A character goes to a hex: a step, a dismount, an advance, carrying a stunned man, setting him down, a
    jump, a Gargoyle's flight, or where its owner places a piece the rules moved."""

    kind: Literal["move", "dismount", "advance", "carry", "set_down", "jump", "fly", "place"]
    side: str
    unit: str
    to: str


@dataclass(frozen=True)
class ByUnit:
    """One character acts alone: a horseman's half-turn, a defender taking the blow, a wizard's counterspell."""

    kind: Literal["half_turn", "take_blow", "counter"]
    side: str
    unit: str


@dataclass(frozen=True)
class Mount:
    """A character mounts his own horse, or (``horse``) another character's riderless horse."""

    kind: ClassVar[str] = "mount"
    side: str
    unit: str
    horse: str | None = None


@dataclass(frozen=True)
class Decide:
    """A side's decision without a character: hold fire, stay, end the sequence, let a spell be, no spell now."""

    kind: Literal["hold", "stay", "end_phase", "let_be", "no_spell"]
    side: str


@dataclass(frozen=True)
class DragonMove:
    """The Black Dragon's centre steps one hex."""

    kind: ClassVar[str] = "dragon_move"
    side: str
    to: str


@dataclass(frozen=True)
class Attack:
    """Characters attack defenders together; ``via`` (character, hex): he strikes the dragon's centre from the hex
    of a disabled limb (:mod:`.centre`)."""

    kind: ClassVar[str] = "attack"
    side: str
    units: tuple[str, ...]
    targets: tuple[str, ...]
    via: tuple[str, str] | None = None


@dataclass(frozen=True)
class Cast:
    """A wizard casts a spell on a target (himself for a spell on himself or a summoning)."""

    kind: ClassVar[str] = "cast"
    side: str
    unit: str
    spell: str
    target: str


@dataclass(frozen=True)
class Clear:
    """Two characters move the dead off hex ``frm`` onto ``to`` (:mod:`.corpses`)."""

    kind: ClassVar[str] = "clear"
    side: str
    units: tuple[str, ...]
    frm: str
    to: str


@dataclass(frozen=True)
class Lead:
    """A character takes a riderless horse by the bridle (:mod:`.bridle`)."""

    kind: ClassVar[str] = "lead"
    side: str
    unit: str
    horse: str


DNAction = Shoot | ToHex | ByUnit | Mount | Decide | DragonMove | Attack | Cast | Clear | Lead


def _is_list(hint: object) -> bool:
    """Whether a field's type hint is a tuple (a list in JSON), alone or in a union with None."""
    if get_origin(hint) in (Union, UnionType):
        return any(_is_list(h) for h in get_args(hint))
    return get_origin(hint) is tuple


class DNCodec(ActionCodec[DNAction]):
    """The core codec, leaving out an optional field that is absent (``None``), as the log always stored it.

    Why its own :meth:`encode`: every legal action of every state is encoded once, and the core's, which reads
    ``dataclasses.fields`` on each call, took a third of the time of building a move (measured); this one reads
    the field names once per class, and writes the same canonical JSON (``kind`` first, then the fields in their
    declared order, tuples as lists)."""

    def __init__(self, *classes: type[DNAction]) -> None:
        super().__init__(*classes)
        self._names = {cls: tuple(f.name for f in fields(cls) if f.name != "kind") for cls in classes}
        #: each kind's class as a constructor, and whether it takes the kind (a ``Literal`` field) or not (a ClassVar)
        self._make: dict[str, tuple[Callable[..., DNAction], bool]] = {
            kind: (cls, any(f.name == "kind" for f in fields(cls))) for cls in classes for kind in self._kinds_of(cls)}
        #: each kind's fields: a word (``str``) or a list of words (``tuple``), and those without a default
        self._shape: dict[str, dict[str, type]] = {
            kind: {f.name: tuple if _is_list(self._hints[cls][f.name]) else str for f in fields(cls) if f.name != "kind"}
            for cls in classes for kind in self._kinds_of(cls)}
        self._required: dict[str, set[str]] = {
            kind: {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
            for cls in classes for kind in self._kinds_of(cls)}

    def encode(self, action: DNAction) -> dict[str, object]:
        out: dict[str, object] = {"kind": action.kind}
        for name in self._names[type(action)]:
            value = getattr(action, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> DNAction:
        """The core's decode, read straight when ``data`` is already what :meth:`encode` writes (the log's and the
        legal list's actions, decoded for every preview: the core's coercions took 30 µs an action, measured)."""
        return self._as_written(data) or super().decode(data, defaults)

    def _as_written(self, data: Mapping[str, object]) -> DNAction | None:
        """The action ``data`` spells if it is exactly canonical — a known kind as written, every required field
        there, each a word with nothing to trim or a list of words, no other key — else None (the core decodes it
        then: it coerces, fills the defaults, or refuses naming the field)."""
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in self._make:
            return None
        make, with_kind = self._make[kind]
        values: dict[str, object] = {"kind": kind} if with_kind else {}
        shape = self._shape[kind]
        for key, value in data.items():
            if key == "kind":
                continue
            wanted = shape.get(key)
            if wanted is str and isinstance(value, str) and value and value == value.strip():
                values[key] = value
            elif wanted is tuple and isinstance(value, list) and all(isinstance(v, str) for v in value):
                values[key] = tuple(value)
            else:
                return None
        return make(**values) if self._required[kind] <= values.keys() else None

    def listed(self, data: Mapping[str, object]) -> DNAction:
        """The typed action of a JSON action this codec wrote itself (one of a legal list's): no checks to make,
        nothing to coerce but the lists back into tuples (a policy reads every action of a list)."""
        make, with_kind = self._make[str(data["kind"])]
        return make(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if with_kind or k != "kind"})


#: The one JSON codec of Dragon Noir's actions.
ACTIONS = DNCodec(Shoot, ToHex, ByUnit, Mount, Decide, DragonMove, Attack, Cast, Clear, Lead)
#: Every kind, in the order the rules describe them.
KINDS = ("shoot", "hold", "move", "half_turn", "mount", "dismount", "attack", "take_blow", "advance", "stay",
         "cast", "counter", "let_be", "dragon_move", "clear", "carry", "set_down", "jump", "lead",
         "fly", "no_spell", "place", "end_phase")


def offered(action: DNAction, text: str, cost: float | None = None, note: str = "", label: str = "",
            group: str = "") -> LegalAction:
    """A legal action as the protocol lists it: its JSON (through :data:`ACTIONS`) and its words."""
    return LegalAction(ACTIONS.encode(action), text, action.side, cost, note, label, group)
