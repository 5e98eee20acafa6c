"""Confrontation's skirmish actions as types, and their one JSON codec (``core.actioncodec``).

Why a module of its own: the offers of every phase, the checks, the previews and the resolution all read
them, and :mod:`.actions` imports those modules, so the types live in a leaf. The JSON each encodes to is
exactly the one the log has always stored: ``kind``, ``side``, ``fighter``, then the fields in the order
below; an optional field (a charge's ``leap`` or ``assault``, a pursuit's ``leap``) is left out when it is
absent, as it always was. Concentration's ``points`` keep the order of ``concentration.COMBAT`` (INI, ATT,
STR, DEF, RES), the order :func:`.concentration.points_of` always wrote them in; an absorb's ``from`` (a
Python keyword) is the field ``from_``, written ``from`` in JSON by :class:`SkirmishCodec`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import ClassVar, Literal

from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction

#: The kinds of action that name one fighter and nothing else (the side's General for a side's choice).
FighterKind = Literal["hold", "fight", "tactical", "flee", "stay", "remove", "keep", "authority", "decline", "pass",
                      "allow", "force", "ready", "counter", "let", "steady", "react", "withhold"]


@dataclass(frozen=True)
class ByFighter:
    """One fighter acts, or a side chooses through its General: hold, fight, flee, the Tactical roll, an answer…"""

    kind: FighterKind
    side: str
    fighter: str


@dataclass(frozen=True)
class ToPoint:
    """A fighter goes to a point of the table (cm, to the millimetre): a walk, a leap, a move under cover, a return
    from the area of losses (Reinforcement)."""

    kind: Literal["move", "leap", "cover", "return"]
    side: str
    fighter: str
    to: tuple[float, float]

    def __post_init__(self) -> None:
        _check_point(self.to, "to")


@dataclass(frozen=True)
class Charge:
    """A charge on an enemy; ``leap``: over what stands between (:mod:`.leap`); ``assault``: firing as he charges
    (:mod:`.assault`); ``resolute``: his Resolute spent on the charge's COU test (:mod:`.fear`)."""

    kind: ClassVar[str] = "charge"
    omit_none: ClassVar[bool] = True
    side: str
    fighter: str
    target: str
    leap: bool | None = None
    assault: bool | None = None
    resolute: bool | None = None


@dataclass(frozen=True)
class Pursue:
    """A pursuit movement into contact with a free enemy, ``leap``-ing if need be (:mod:`.flight`)."""

    kind: ClassVar[str] = "pursue"
    omit_none: ClassVar[bool] = True
    side: str
    fighter: str
    target: str
    leap: bool | None = None


@dataclass(frozen=True)
class Shoot:
    """A shooter fires at an enemy (:mod:`.shooting`)."""

    kind: ClassVar[str] = "shoot"
    side: str
    fighter: str
    target: str


@dataclass(frozen=True)
class Cast:
    """A Mystic casts a spell or calls a miracle on a target (:mod:`.magic`)."""

    kind: ClassVar[str] = "cast"
    side: str
    fighter: str
    spell: str
    target: str


@dataclass(frozen=True)
class Disengage:
    """An engaged fighter tries to walk out of his fight, testing ``test`` (INI or STR, :mod:`.disengage`)."""

    kind: ClassVar[str] = "disengage"
    side: str
    fighter: str
    test: str
    to: tuple[float, float]

    def __post_init__(self) -> None:
        _check_point(self.to, "to")


@dataclass(frozen=True)
class Split:
    """Fighters split off a fray: by the Tactical roll's winner (``split``) or with an Authority token
    (``authority_split``; none named: the fray is kept whole), :mod:`.splitting`."""

    kind: Literal["split", "authority_split"]
    side: str
    fighter: str
    apart: tuple[str, ...]


@dataclass(frozen=True)
class Lead:
    """The Tactical roll's winner chooses the side that acts first (``first``)."""

    kind: ClassVar[str] = "lead"
    side: str
    fighter: str
    first: str


@dataclass(frozen=True)
class Place:
    """A fighter of a fight places his combat dice after the INI tests: ``attack`` in attack, the rest in defence
    (:mod:`.placing`; War fury's and Brutish charge's dice go to attack on top)."""

    kind: ClassVar[str] = "place"
    side: str
    fighter: str
    attack: int


@dataclass(frozen=True)
class Declare:
    """Before a fight's INI test, a fighter's player declares one of his active abilities that "activates before
    the INI test" (:mod:`.before_ini`): War fury or Resolute (``value`` 1: used, 0: not) or Sequence/X (``value``: the dice
    he takes, 0 to what his ATT and DEF allow)."""

    kind: ClassVar[str] = "declare"
    side: str
    fighter: str
    ability: str
    value: int


@dataclass(frozen=True)
class Cure:
    """In the maintenance phase, a curer's player chooses whom he cures (``target``; ``None``: no one) (:mod:`.cure`)."""

    kind: ClassVar[str] = "cure"
    omit_none: ClassVar[bool] = True
    side: str
    fighter: str
    target: str | None = None


@dataclass(frozen=True)
class Points:
    """Concentration's points on each characteristic a fight reads (``concentration.COMBAT``; none: not raised)."""

    omit_none: ClassVar[bool] = True
    INI: int | None = None
    ATT: int | None = None
    STR: int | None = None
    DEF: int | None = None
    RES: int | None = None

    def given(self) -> dict[str, int]:
        """The points as the rules read them, in the order of ``concentration.COMBAT``."""
        return {f.name: value for f in fields(self) if (value := getattr(self, f.name)) is not None}

    @staticmethod
    def of(given: Mapping[str, int]) -> Points:
        """The points of a ``{"ATT": 2}`` mapping (its characteristics already checked)."""
        return Points(**given)


@dataclass(frozen=True)
class Concentrate:
    """A fighter concentrates: points on his bold characteristics until the end of the round (:mod:`.concentration`)."""

    kind: ClassVar[str] = "concentrate"
    side: str
    fighter: str
    points: Points


@dataclass(frozen=True)
class Absorb:
    """An accumulator absorbs from friends (``from``: their keys, :mod:`.accumulators`)."""

    kind: ClassVar[str] = "absorb"
    side: str
    fighter: str
    from_: tuple[str, ...]


SkirmishAction = ByFighter | ToPoint | Charge | Pursue | Shoot | Cast | Disengage | Split | Lead | Concentrate | Absorb \
    | Place | Declare | Cure


def _check_point(to: tuple[float, float], name: str) -> None:
    """A destination is two finite numbers of cm (the codec reads a list of any length)."""
    if len(to) != 2 or not all(math.isfinite(v) for v in to):
        raise IllegalActionError(f"a destination is two finite numbers of cm [x, y], got {list(to)!r}", field=name)


#: JSON keys that are Python keywords, and the field that holds each.
RENAMED = {"from": "from_"}
_JSON_KEY = {field: key for key, field in RENAMED.items()}


class SkirmishCodec(ActionCodec[SkirmishAction]):
    """The core codec, an absorb's ``from`` held in the field ``from_`` (a Python keyword cannot be a field).

    Why its own :meth:`encode`: every legal action of every state is encoded once (the offers build typed actions),
    and the core's reads ``dataclasses.fields`` on each call; this one reads the field names once per class and
    writes the same canonical JSON (``kind`` first, then the fields in their declared order, tuples as lists, a
    ``None`` left out, ``points`` as the object of its given characteristics)."""

    def __init__(self, *classes: type[SkirmishAction]) -> None:
        super().__init__(*classes)
        self._names = {cls: tuple((f.name, _JSON_KEY.get(f.name, f.name)) for f in fields(cls) if f.name != "kind")
                       for cls in classes}

    def encode(self, action: SkirmishAction) -> dict[str, object]:
        out: dict[str, object] = {"kind": action.kind}
        for name, key in self._names[type(action)]:
            value = getattr(action, name)
            if value is None:
                continue
            out[key] = list(value) if isinstance(value, tuple) else value.given() if isinstance(value, Points) \
                else value
        return out

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> SkirmishAction:
        """The core's decode (``from`` read into ``from_``); a refused field says what the rules ask of it."""
        if any(key in data for key in RENAMED):
            data = {RENAMED.get(str(k), str(k)): v for k, v in data.items()}
        try:
            return super().decode(data, defaults)
        except IllegalActionError as refused:
            field = str(refused.details.get("field", ""))
            if field not in ASKED:
                raise
            raise IllegalActionError(f"{refused.message}: {ASKED[field]}", **refused.details) from None


#: What the rules ask of a field the codec refused (the words the checks always used).
ASKED = {"charge.assault": "assault is true or absent", "pursue.leap": "leap is true or absent",
         "charge.leap": "leap is true or absent"}


#: The one JSON codec of Confrontation's skirmish actions.
ACTIONS = SkirmishCodec(ByFighter, ToPoint, Charge, Pursue, Shoot, Cast, Disengage, Split, Lead, Concentrate, Absorb,
                        Place, Declare, Cure)


def at(to: Sequence[float]) -> tuple[float, float]:
    """A destination the rules measured (``[x, y]`` in cm, to the millimetre) as an action holds it."""
    return to[0], to[1]


def offer(action: SkirmishAction, text: str, side: str, cost: float | None = None, note: str = "", label: str = "",
          group: str = "") -> LegalAction:
    """A legal action as the protocol lists it: its JSON (through :data:`ACTIONS`, the log's bytes) and its words."""
    return LegalAction(ACTIONS.encode(action), text, side, cost, note, label, group)
