"""The state of a Confrontation skirmish: fighters on a table measured in cm, the round, the RNG.

A skirmish is a fold over its log (:mod:`rulekeeper.core.game`): this frozen state is all there is
between two actions. Each fighter keeps its reference card (so a player's own cards replay from the
stored document), its base's centre, radius and facing in cm and degrees, its HP, whether it is
Stunned, whether it already acted this round, and the fighters it is engaged with (base contact made
by a charge). The RNG state rides along and never reaches a view. Rules: docs/rules/confrontation.md,
"Skirmishes".
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, fields
from functools import cached_property
from typing import TypeVar

from pydantic import ValidationError

from rulekeeper.boards.table import Base, Obstacle
from rulekeeper.core.errors import RulekeeperError, UnknownNameError
from rulekeeper.core.game import JsonDict
from rulekeeper.core.rng import RngState

from .cards import FighterCard
from .ground import Terrain
from .measures import edge_distance

SIDES = ("A", "B")
#: Base radius (cm) by size: 25 mm round bases for Small and Medium infantry, 37.5 mm for Large
#: creatures, 50 mm for Very Large ones. **Estimated** (the seed prints no base size).
RADIUS = {"Small": 1.25, "Medium": 1.25, "Large": 1.875, "Very Large": 2.5}
#: The phases of a round (docs/rules/confrontation.md, "Skirmishes").
PHASES = ("tactical", "lead", "activation", "combat", "maintenance")


class DamagedStateError(RulekeeperError):
    """A stored skirmish state or initial document that cannot be read back."""


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class Fighter:
    """One fighter on the table (``key`` is unique in the skirmish; the card keeps the printed name)."""

    key: str
    side: str
    card: FighterCard
    x: float
    y: float
    facing: float
    hp: int
    stunned: bool = False
    fierce: bool = False  # standing only thanks to Fierce (removed at the maintenance phase)
    killed: bool = False
    activated: bool = False
    charged: bool = False  # charged this round and has not fought yet (Brutish charge, Charging strength…)
    engaged: tuple[str, ...] = ()
    fought: tuple[str, ...] = ()  # opponents already fought this round
    rout: int = 0  # in rout: the difficulty of the failed COU test (0: not in rout); morale.py
    braved: int = 0  # the highest FEAR rate he passed a COU test against (immune up to it from then on)
    cried: bool = False  # he used his Rallying cry ("once per game")
    heartened: bool = False  # a friendly Rallying cry this round: +1 to the natural result of his COU tests
    fled: bool = False  # he fled off the field (a loss, like a killed fighter: ``killed`` is set too)
    pursuing: bool = False  # his fight left him free, every opponent killed: he may make a pursuit movement now
    pursued: int = 0  # pursuit movements made this combat phase
    aiming: bool = False  # he walked this activation and may still shoot, at +1 difficulty (shooting.py)
    walked: bool = False  # he walked this activation (his shots are at +1 difficulty)
    fired: int = 0  # shots made this activation (a Master marksman may make two)
    removed: bool = False  # removed from play (no longer in the area of losses: reinforcement.py)
    returning: str = ""  # a Reinforcement roll left his player a choice: "remove?" (1-2) or "place" (5-6)
    leaps: int = 0  # leaps made this round (Leap: "up to two leaps per round"; leap.py)
    covered: bool = False  # he moved under cover before this round's Tactical roll (cover_move.py)
    gems: int = 0  # a Magician's mana Gems (magic.py)
    faith: int = 0  # a Faithful's T.F. (magic.py)
    unfocused: bool = False  # a Mystic who lost his focus this round (a spell of his countered: magic.py)
    charges: int = 0  # Concentration/X's points left this round (an accumulator's charges: concentration.py)
    boosts: tuple[tuple[str, int], ...] = ()  # Concentration's bonuses given this round, by characteristic
    absorbed: bool = False  # he used Absorb/X this round ("once per round": accumulators.py)
    reacted: bool = False  # he made his reaction fire this round (reaction.py)
    furious: bool = False  # he used War fury this round: its constraints last until the round's end (before_ini.py)
    resolute: bool = False  # he used Resolute this round ("once per round": before_ini.py)
    curing: bool = False  # the maintenance phase waits for his player to choose whom he cures (cure.py)
    cure_used: bool = False  # he used Cure this round as a simple action ("once per round": cure.py)
    steeled: bool = False  # his Resolute is on the COU test of the charge he is making (fear.py)

    @property
    def radius(self) -> float:
        return RADIUS[self.card.size]

    @cached_property
    def base(self) -> Base:
        """His base (built once per fighter value: a search bot's simulations ask for it ~100 times an action; a
        changed fighter is a new value, ``dataclasses.replace``)."""
        arc = 360.0 if self.card.has("Extended vision") else 180.0  # "The front … covers 360°"
        return Base(self.x, self.y, self.radius, self.facing, arc, self.key)

    @property
    def standing(self) -> bool:
        return not self.killed

    @property
    def free(self) -> bool:
        """Standing and not engaged: he may move or charge when activated."""
        return not self.killed and not self.engaged

    def to_json(self) -> JsonDict:
        return {"key": self.key, "side": self.side, "card": self.card.name, "x": self.x, "y": self.y,
                "facing": self.facing, "hp": self.hp, "stunned": self.stunned, "fierce": self.fierce, "killed": self.killed,
                "activated": self.activated, "charged": self.charged, "engaged": list(self.engaged),
                "fought": list(self.fought), "rout": self.rout, "braved": self.braved,
                "cried": self.cried, "heartened": self.heartened, "fled": self.fled, "pursuing": self.pursuing,
                "pursued": self.pursued, "aiming": self.aiming, "removed": self.removed, "walked": self.walked, "fired": self.fired,
                "returning": self.returning, **({"leaps": self.leaps} if self.leaps else {}),
                **({"covered": True} if self.covered else {}),
                **{k: v for k, v in (("gems", self.gems), ("faith", self.faith), ("unfocused", self.unfocused),
                                     ("charges", self.charges), ("absorbed", self.absorbed),
                                     ("reacted", self.reacted), ("furious", self.furious),
                                     ("resolute", self.resolute), ("curing", self.curing),
                                     ("cure_used", self.cure_used), ("steeled", self.steeled)) if v},
                **({"boosts": [list(b) for b in self.boosts]} if self.boosts else {})}

    @staticmethod
    def from_json(d: JsonDict, cards: dict[str, FighterCard]) -> Fighter:
        return Fighter(str(d["key"]), str(d["side"]), cards[str(d["card"])], float(d["x"]), float(d["y"]),
                       float(d["facing"]), int(d["hp"]), bool(d["stunned"]), bool(d["fierce"]), bool(d["killed"]),
                       bool(d["activated"]), bool(d["charged"]), tuple(str(e) for e in d["engaged"]),
                       tuple(str(e) for e in d["fought"]), int(d.get("rout", 0)), int(d.get("braved", 0)),
                       bool(d.get("cried", False)), bool(d.get("heartened", False)), bool(d.get("fled", False)),
                       bool(d.get("pursuing", False)), int(d.get("pursued", 0)), bool(d.get("aiming", False)),
                       walked=bool(d.get("walked", False)), fired=int(d.get("fired", 0)),
                       removed=bool(d.get("removed", False)), returning=str(d.get("returning", "")),
                       leaps=int(d.get("leaps", 0)), covered=bool(d.get("covered", False)),
                       gems=int(d.get("gems", 0)), faith=int(d.get("faith", 0)),
                       unfocused=bool(d.get("unfocused", False)), charges=int(d.get("charges", 0)),
                       boosts=tuple((str(c), int(n)) for c, n in d.get("boosts", [])),
                       absorbed=bool(d.get("absorbed", False)), reacted=bool(d.get("reacted", False)),
                       furious=bool(d.get("furious", False)), resolute=bool(d.get("resolute", False)),
                       curing=bool(d.get("curing", False)), cure_used=bool(d.get("cure_used", False)),
                       steeled=bool(d.get("steeled", False)))


@dataclass(frozen=True)
class SkirmishState:
    """A skirmish between two warbands: the table, the fighters, the round and phase, who acts, the RNG."""

    scenario: str
    names: tuple[str, str]
    width: float
    height: float
    obstacles: tuple[Obstacle, ...]
    fighters: tuple[Fighter, ...]
    round: int
    round_limit: int
    phase: str
    first: str  # the side that acts first this round
    to_act: str
    options: tuple[tuple[str, str], ...]
    over: bool
    winner: str | None
    reason: str
    rng: RngState
    leader: str = "A"  # who won this round's Tactical roll (he chooses who acts first and orders the fights)
    terrain: tuple[Terrain, ...] = ()  # encumbered ground, water, obstacles with a Size (terrain.py)
    splits: tuple[tuple[str, ...], ...] = ()  # frays split off by the Tactical roll's winner (splitting.py)
    drawn: bool = False  # the Tactical roll was a draw and a side holds Authority tokens (authority.py)
    held: tuple[int, int] = (0, 0)  # Authority tokens held this round by A and B, after the cancelling (authority.py)
    settled: tuple[str, ...] = ()  # fighters of frays whose split a token chose this round (authority_uses.py)
    no_pass: str = ""  # the side that may not pass now: its opponent just passed, or a token forced it to play
    asking: str = ""  # the side whose pass waits for the opponent's answer (allow, or force with a token)
    declared: str = ""  # the sides done declaring moves under cover before this round's Tactical roll (cover_move.py)
    casting: tuple[str, ...] = ()  # a spell waiting for the enemy's counter: (caster, card, target) (magic.py)
    concentrated: str = ""  # the sides done declaring Concentration this combat phase (concentration.py)
    reacting: tuple[str, ...] = ()  # a charge waiting for the charged fighter's reaction fire: (charger, target,
    # "assault" or "leap" or "") (reaction.py)
    placing: tuple[str, ...] = ()  # a fight's dice being placed: (its side, its lead fighter, the camp that won
    # initiative, then each placed fighter's attack dice, the losing camp's first) (placing.py)
    before_ini: tuple[str, ...] = ()  # a fight's active abilities being declared before its INI test: (its side,
    # its lead fighter, then fighter, ability, value for each declaration made) (before_ini.py)
    rapid_flight: str = ""  # a fleeing fighter with Rapidity waiting for his opponent's choice (flight.py)
    crying: str = ""  # a fighter with Rallying cry whose player announces it or not (rallying_cry.py)
    steeling: tuple[str, ...] = ()  # a COU test waiting for its taker's Resolute: (tester, "rally") or (tester,
    # "charged", charger) (steeling.py)

    def name(self, side: str) -> str:
        return self.names[SIDES.index(side)]

    def fighter(self, key: str) -> Fighter:
        for f in self.fighters:
            if f.key == key:
                return f
        raise UnknownNameError("fighter", key, [f.key for f in self.fighters])

    def option(self, name: str, default: str) -> str:
        return dict(self.options).get(name, default)

    def standing(self, side: str | None = None) -> list[Fighter]:
        return [f for f in self.fighters if f.standing and (side is None or f.side == side)]

    def with_fighters(self, *changed: Fighter) -> SkirmishState:
        by_key = {f.key: f for f in changed}
        return replace(self, fighters=tuple(by_key.get(f.key, f) for f in self.fighters))

    def others(self, *keys: str) -> list[Base]:
        """The bases of every standing fighter but ``keys`` (what blocks a path or a line of sight)."""
        return [f.base for f in self.fighters if f.standing and f.key not in keys]

    def nearest_enemy(self, f: Fighter) -> Fighter | None:
        enemies = self.standing(other(f.side))
        return min(enemies, key=lambda e: (edge_distance(f.base, e.base), e.key)) if enemies else None


_T = TypeVar("_T")
#: The fields of the values :func:`replace` builds directly, by class.
_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in (Fighter, SkirmishState)}
_NAMES = {cls: frozenset(names) for cls, names in _FIELDS.items()}


def replace(value: _T, /, **changes: object) -> _T:
    """``dataclasses.replace``: the same value, built faster for a fighter and a skirmish state.

    Why: every action replaces the state and its fighters about ten times, and ``dataclasses.replace`` goes through
    the frozen class's ``__init__`` (one ``object.__setattr__`` per field, ~35 of them): a tenth of a search bot's
    simulation (issue 28, profiled). These classes have no ``__post_init__`` and no field left out of ``__init__``,
    so setting every field is all ``__init__`` does; what a value remembers of itself (``Fighter.base``, the
    state's memo of :mod:`rulekeeper.core.memo`) is not copied, as with ``dataclasses.replace``. Any other value,
    or a name that is no field (the error), goes to ``dataclasses.replace``.
    """
    cls = type(value)
    names = _FIELDS.get(cls)
    if names is None or not changes.keys() <= _NAMES[cls]:
        return dataclasses.replace(value, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    old = value.__dict__
    new.__dict__.update({name: changes[name] if name in changes else old[name] for name in names})
    return new


def card_to_json(card: FighterCard) -> JsonDict:
    out = card.model_dump(mode="json")
    if out.get("weapon") is None:
        out.pop("weapon", None)  # a card without a ranged weapon is stored as before shooting existed
    for late in ("bold", "rank"):  # a card without them is stored as before Concentration and Absorb existed
        if not out.get(late):
            out.pop(late, None)
    return out


def cards_from_json(rows: list[object]) -> dict[str, FighterCard]:
    try:
        cards = [FighterCard.model_validate(r) for r in rows]
    except ValidationError as exc:
        raise DamagedStateError(f"a stored fighter card is damaged: {exc.errors()[0]['msg']}") from None
    return {c.name: c for c in cards}


def state_to_json(state: SkirmishState) -> JsonDict:
    cards = {f.card.name: f.card for f in state.fighters}
    doc = {"scenario": state.scenario, "names": list(state.names), "width": state.width, "height": state.height,
            "obstacles": [{"name": o.name, "corners": [list(c) for c in o.corners]} for o in state.obstacles],
            "cards": [card_to_json(c) for c in cards.values()],
            "fighters": [f.to_json() for f in state.fighters], "round": state.round,
            "round_limit": state.round_limit, "phase": state.phase, "first": state.first, "to_act": state.to_act,
            "options": dict(state.options), "over": state.over, "winner": state.winner, "reason": state.reason,
            "rng": state.rng.to_dict(), "leader": state.leader}
    if state.terrain:  # a skirmish without terrain is stored as before terrain existed
        doc["terrain"] = [p.to_json() for p in state.terrain]
    if state.splits:  # only while the combat phase has split frays to fight
        doc["splits"] = [list(b) for b in state.splits]
    if state.drawn:  # only while a drawn Tactical roll waits for an Authority token's holder
        doc["drawn"] = True
    if state.held != (0, 0):  # only while a side holds Authority tokens
        doc["held"] = list(state.held)
    for name in ("settled", "no_pass", "asking", "declared", "casting", "concentrated", "reacting", "placing",
                 "before_ini", "rapid_flight", "crying", "steeling"):  # only while set (authority_uses.py,
        value = getattr(state, name)  # cover_move.py, magic.py)
        if value:
            doc[name] = list(value) if isinstance(value, tuple) else value
    return doc


def obstacles_from_json(rows: object) -> tuple[Obstacle, ...]:
    """The table's obstacles from their JSON rows (``name`` and ``corners``), checked to be a list of them."""
    if not isinstance(rows, list):
        raise TypeError(f"obstacles are a list, not {rows!r:.80}")
    return tuple(Obstacle(tuple((float(x), float(y)) for x, y in o["corners"]), str(o["name"])) for o in rows)


def state_from_json(d: JsonDict) -> SkirmishState:
    try:
        cards = cards_from_json(d["cards"])
        return SkirmishState(
            str(d["scenario"]), (str(d["names"][0]), str(d["names"][1])), float(d["width"]), float(d["height"]),
            obstacles_from_json(d["obstacles"]), tuple(Fighter.from_json(f, cards) for f in d["fighters"]),
            int(d["round"]), int(d["round_limit"]), str(d["phase"]), str(d["first"]), str(d["to_act"]),
            tuple((str(k), str(v)) for k, v in d["options"].items()), bool(d["over"]),
            None if d["winner"] is None else str(d["winner"]), str(d["reason"]), RngState.from_dict(d["rng"]),
            str(d.get("leader", d["first"])), tuple(Terrain.from_json(p) for p in d.get("terrain", [])),
            tuple(tuple(str(k) for k in b) for b in d.get("splits", [])), bool(d.get("drawn", False)),
            _pair(d.get("held", [0, 0])), tuple(str(k) for k in d.get("settled", [])), str(d.get("no_pass", "")),
            str(d.get("asking", "")), str(d.get("declared", "")), tuple(str(k) for k in d.get("casting", [])),
            str(d.get("concentrated", "")), tuple(str(k) for k in d.get("reacting", [])),
            tuple(str(k) for k in d.get("placing", [])), tuple(str(k) for k in d.get("before_ini", [])),
            str(d.get("rapid_flight", "")), str(d.get("crying", "")), tuple(str(k) for k in d.get("steeling", [])))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, RulekeeperError):
            raise
        raise DamagedStateError(f"a stored Confrontation skirmish state is damaged: {exc!r}") from None


def _pair(value: object) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"a pair of whole numbers, not {value!r:.80}")
    a, b = value
    return int(a), int(b)


def distance(a: Fighter, b: Fighter) -> float:
    """Base edge to base edge, in cm, rounded to the millimetre for display."""
    return round(edge_distance(a.base, b.base), 1)


def view_of(state: SkirmishState) -> JsonDict:
    """Everything a link may see: the skirmish without its RNG state (nothing else is secret)."""
    doc = state_to_json(state)
    del doc["rng"]
    doc["to_act"] = None if state.over else state.to_act
    doc["sides"] = {s: {"name": state.name(s), "standing": len(state.standing(s))} for s in SIDES}
    for row, f in zip(doc["fighters"], state.fighters, strict=True):
        row["radius"] = f.radius
        row["MOV"] = f.card.MOV
        near = state.nearest_enemy(f) if f.standing else None
        row["nearest_enemy"] = None if near is None else {"key": near.key, "cm": distance(f, near)}
    return doc


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """Degrees anticlockwise from the x axis, rounded to a tenth (a facing as stored)."""
    return round(math.degrees(math.atan2(y1 - y0, x1 - x0)), 1)
