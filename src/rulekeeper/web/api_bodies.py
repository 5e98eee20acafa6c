"""The JSON API's answers, as typed shapes: what each route of ``/api`` sends back.

Why TypedDicts: the bodies are plain JSON with fixed keys, built from the service's typed
objects; FastAPI reads these shapes from the routes' return types, so ``/openapi.json``
describes every answer field by field (schemathesis then checks the answers against it) and
mypy checks each route builds all of them. The key order here is the order the routes always
sent (FastAPI writes an answer in the order of its shape's keys), so the bytes are unchanged.

What stays JSON, on purpose: what the game itself makes, which the API passes on as it is —
an action's fields, a side's view of the battle, the report lines and chance records of an
action, a result's summary. Those are each game's own shapes (its codec's and presenters').
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from typing_extensions import TypedDict  # pydantic reads TypedDicts on Python 3.11 only from here

from rulekeeper.core.game import JsonDict
from rulekeeper.service.dice import DiceStatus


class SeatBody(TypedDict):
    """The side the keeper plays itself: ``service.bot_seat.SeatJson``, key for key (see :class:`DiceStatusBody`
    for why a shape of its own)."""

    side: str
    strength: str
    policy: str
    seed: int | None


class CreatedBody(TypedDict):
    """``POST /api/battles``: the new battle, its secret links, and its dice."""

    id: str
    tokens: dict[str, str]
    bot: SeatBody | None
    verifiable: bool
    commitment: str | None
    links: dict[str, str]


class ViewBody(TypedDict):
    """``GET /api/battles/{id}``: the battle as one link sees it (``state``: the game's view for that role)."""

    id: str
    ruleset: str
    scenario: str
    position: int
    role: str
    pending: bool
    active: list[str]
    to_act: list[str]
    over: bool
    state: JsonDict
    result: JsonDict | None
    keeper_side: str | None


class ActionsBody(TypedDict):
    """``GET /api/battles/{id}/actions``: the legal actions (each the game's action fields, with ``text``,
    ``acp``, ``note`` and ``odds`` beside them)."""

    position: int
    active: list[str]
    side: str | None
    to_act: list[str]
    yours: bool
    pending: bool
    actions: list[JsonDict]


class ActedBody(TypedDict):
    """``POST /api/battles/{id}/actions``: the action as logged and what it produced."""

    position: int
    action: JsonDict
    report: list[JsonDict]
    chance: list[Mapping[str, object]]  # core.chance.ChanceRecord, passed on as the log keeps it (no coercion)
    over: bool


class ShownBody(TypedDict):
    """``POST /api/battles/{id}/shown``."""

    position: int
    shown: Literal[True]


class UndoneBody(TypedDict):
    """``POST /api/battles/{id}/undo``: the log position after the undo."""

    position: int


class LoggedEntry(TypedDict):
    """One entry of ``GET /api/battles/{id}/log`` (``report`` empty while face down or hidden from the link)."""

    index: int
    action: Mapping[str, object]  # as logged, or ``core.game.ConcealedAction`` while secret: passed on as it is
    shown: bool
    report: list[JsonDict]


class LogBody(TypedDict):
    """``GET /api/battles/{id}/log``: ``fingerprint`` once nothing is face down."""

    position: int
    fingerprint: str | None
    entries: list[LoggedEntry]


class ReplayBody(TypedDict):
    """``GET /api/battles/{id}/replay``: at most 20 differences."""

    identical: bool
    actions: int
    differences: list[str]


class DiceStatusBody(TypedDict):
    """``service.dice.DiceStatusJson``, key for key (FastAPI's pydantic reads a TypedDict on Python 3.11 only
    from ``typing_extensions``; mypy checks the two agree wherever one is given as the other)."""

    verifiable: bool
    commitment: str | None
    roles: list[str]
    contributions: dict[str, str | None] | None
    waiting: list[str]
    ready: bool
    revealed: bool
    secret: str | None
    seed: str | None
    scheme: str
    commitments: dict[str, str | None] | None
    uncommitted: list[str]
    committed: bool


class DiceBody(DiceStatusBody):
    """``GET``/``POST /api/battles/{id}/dice``: the battle's dice, and the role of the link that asked."""

    role: str


def dice_body(dice: DiceStatus, role: str) -> DiceBody:
    """The dice for one link: ``DiceStatus.to_dict`` and the link's role."""
    return {**dice.to_dict(), "role": role}
