"""The state of one Battle System battle: plain frozen data, the RNG state inside, exact JSON.

A battle is a fold over its log (``core/game.py``), so everything a later action depends on
lives here: the map (terrain and elevation of every hex that is not open level ground), every
unit with its soldiers, morale, ammunition, movement points spent, attack used and pending
barrage, the side to act, the turn, the options and the RNG state. Units are found by their
unique names, the names players type and the chance labels show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import NotRequired, TypedDict, TypeVar

from rulekeeper.boards.hexes import Hex, HexCell, HexMap
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import JsonDict
from rulekeeper.core.memo import remembered
from rulekeeper.core.rng import RngState

from .combat import Unit
from .command import command
from .options import BattleSystemOptions
from .units import RALLIES, UnitType, UnitTypes, load_unit_types

SIDES = ("A", "B")
#: Terrains the guide names: "Walking up a hill, through a shallow river, or through a dense forest, all
#: give movement rate penalties, reducing the speed by half". A hill is elevation (+1), not a terrain.
SLOW_TERRAINS = ("shallow river", "dense forest")
#: "bridge": a river hex the Engineers bridged (support.py); a scenario may start with one.
TERRAINS = ("open", *SLOW_TERRAINS, "bridge")
#: Dense forest hides what is behind it (docs/rules/battlesystem.md, "in sight").
SIGHT_BLOCKING = ("dense forest",)
#: The four edges of a rectangular map a side may call its own (docs/rules/battlesystem.md, "Fleeing").
EDGES = ("west", "east", "north", "south")


T = TypeVar("T", "Piece", "BattleState")
_FIELDS: dict[type, tuple[str, ...]] = {}


def evolved(obj: T, **changes: object) -> T:
    """``dataclasses.replace(obj, **changes)`` for a :class:`Piece` or a :class:`BattleState` (plain frozen fields,
    no ``__post_init__``), a third of its cost: the field values copied straight into the new instance (never what
    ``core.memo`` kept on the old one). Every simulated step copies the state and a few pieces (issue 28)."""
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    unknown = set(changes).difference(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    src = obj.__dict__
    values = {n: src[n] for n in names}
    values.update(changes)
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)
    return new


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@lru_cache(maxsize=1)
def unit_types() -> UnitTypes:
    """The shipped unit cards, read once per process: the guide's thirteen, then our General (command.py)."""
    return UnitTypes((*load_unit_types().types, command().general))


class PieceJson(TypedDict):
    """A unit as a stored state keeps it (``broke`` may be missing from a state stored before pursuits)."""

    name: str
    side: str
    card: str
    hex: str
    soldiers: int
    morale: int
    ammunition: int
    spent: int
    attacked: bool
    barrage: str | None
    escaped: bool
    broke: NotRequired[str | None]


@dataclass(frozen=True)
class Piece:
    """One unit on (or off) the map: what changes during a battle, its card by name."""

    name: str
    side: str
    card: str
    hex: str
    soldiers: int
    morale: int
    ammunition: int
    spent: int = 0  # movement points spent this turn
    attacked: bool = False  # its one attack (or barrage choice) of this turn is used
    barrage: str | None = None  # the hex its barrage will hit at the start of its next turn
    escaped: bool = False
    #: the enemy its normal attack broke this turn: it may still pursue that unit (actions.py, "pursue")
    broke: str | None = None

    @property
    def type(self) -> UnitType:
        return unit_types().get(self.card)

    @property
    def destroyed(self) -> bool:
        return self.soldiers == 0

    @property
    def fleeing(self) -> bool:
        return self.morale == 0 and not self.destroyed and not self.escaped

    @property
    def on_map(self) -> bool:
        """Destroyed and escaped units have left the map: they occupy no hex and cannot be hit."""
        return not self.destroyed and not self.escaped

    @property
    def can_fight(self) -> bool:
        """On the map and not fleeing: what keeps a side in the battle."""
        return self.on_map and self.morale > 0

    @property
    def general(self) -> bool:
        """A side's general (data/command.yaml): it rallies, and does not alone keep its side in the battle."""
        return self.type.has(RALLIES)

    @property
    def holds_field(self) -> bool:
        """Able to fight and not the general: a side with none of these has lost (turns.decided)."""
        return self.can_fight and not self.general

    def unit(self) -> Unit:
        """The rules library's view of this unit (combat.py and barrage.py resolve with it)."""
        return Unit(self.type, self.name, self.soldiers, self.morale, self.ammunition)

    def took(self, after: Unit) -> Piece:
        """This piece with the soldiers, morale and ammunition a resolution left it."""
        return evolved(self, soldiers=after.soldiers, morale=after.morale, ammunition=after.ammunition)

    def to_json(self) -> PieceJson:
        return {"name": self.name, "side": self.side, "card": self.card, "hex": self.hex,
                "soldiers": self.soldiers, "morale": self.morale, "ammunition": self.ammunition,
                "spent": self.spent, "attacked": self.attacked, "barrage": self.barrage, "escaped": self.escaped,
                "broke": self.broke}

    @classmethod
    def from_json(cls, d: PieceJson) -> Piece:
        return cls(str(d["name"]), str(d["side"]), str(d["card"]), str(d["hex"]), int(d["soldiers"]),
                   int(d["morale"]), int(d["ammunition"]), int(d["spent"]), bool(d["attacked"]),
                   None if d["barrage"] is None else str(d["barrage"]), bool(d["escaped"]),
                   None if d.get("broke") is None else str(d["broke"]))


Terrain = tuple[tuple[str, str, int], ...]  # (hex label, terrain, elevation) of every hex not open and level


@dataclass(frozen=True)
class BattleState:
    """The whole battle, RNG state included; ``apply`` returns a new one and never changes this one."""

    scenario: str
    names: tuple[str, str]
    width: int
    height: int
    terrain: Terrain
    units: tuple[Piece, ...]
    to_act: str
    turn: int  # side-turns begun: 1 is the first side's first turn
    turn_limit: int
    options: tuple[tuple[str, str], ...]
    over: bool
    winner: str | None
    reason: str
    rng: RngState
    #: each side's own edge of the map (west, east, north or south), A's then B's: where its broken units run
    #: (``flight_edge=own``); from the scenario, else from where the sides stand at the start (scenario.py)
    home: tuple[str, str] = ("west", "east")

    def name(self, side: str) -> str:
        return self.names[SIDES.index(side)]

    @property
    def board(self) -> HexMap:
        """The map (``board_of``), kept on the state: finding it in ``board_of``'s cache hashed the whole terrain,
        and a simulated step asks for it tens of times (issue 28)."""
        return remembered(self, board_of, lambda: board_of(self.width, self.height, self.terrain))

    @property
    def rules(self) -> BattleSystemOptions:
        return rules_of(self.options)

    def piece(self, name: str) -> Piece:
        for p in self.units:
            if p.name == name:
                return p
        raise KeyError(name)

    def at(self, label: str) -> Piece | None:
        """The unit on hex ``label`` (one unit per hex), if any (the index is built once per state: a barrage's
        preview asks about seven hexes for each of the forty it may choose)."""
        return remembered(self, occupants, lambda: occupants(self)).get(label)

    def with_pieces(self, *pieces: Piece) -> BattleState:
        changed = {p.name: p for p in pieces}
        return evolved(self, units=tuple(changed.get(p.name, p) for p in self.units))


def occupants(state: BattleState) -> dict[str, Piece]:
    """Each hex label with a unit on the map and that unit (the first listed, should two ever share one)."""
    out: dict[str, Piece] = {}
    for p in state.units:
        if p.on_map:
            out.setdefault(p.hex, p)
    return out


@lru_cache(maxsize=64)
def rules_of(options: tuple[tuple[str, str], ...]) -> BattleSystemOptions:
    """A battle's readings (``BattleState.rules``), parsed once per set of options: every odds asks for them."""
    return BattleSystemOptions.parse([f"{k}={v}" for k, v in options])


@lru_cache(maxsize=64)
def board_of(width: int, height: int, terrain: Terrain) -> HexMap:
    """The hex map of a battle, built once per map (a state keeps only what differs from open ground)."""
    base = HexMap.rectangle(width, height)
    cells = {base.parse(label): HexCell(kind, elevation, kind in SIGHT_BLOCKING) for label, kind, elevation in terrain}
    return base.with_cells(cells)


def hex_of(state: BattleState, label: str) -> Hex:
    return state.board.parse(label)


def state_to_json(state: BattleState) -> JsonDict:
    return {"scenario": state.scenario, "names": list(state.names), "width": state.width, "height": state.height,
            "terrain": [list(t) for t in state.terrain], "units": [p.to_json() for p in state.units],
            "to_act": state.to_act, "turn": state.turn, "turn_limit": state.turn_limit,
            "options": dict(state.options), "over": state.over, "winner": state.winner, "reason": state.reason,
            "rng": state.rng.to_dict(), "home": list(state.home)}


def state_from_json(d: JsonDict) -> BattleState:
    try:
        return BattleState(
            str(d["scenario"]), (str(d["names"][0]), str(d["names"][1])), int(d["width"]), int(d["height"]),
            tuple((str(a), str(b), int(c)) for a, b, c in d["terrain"]),
            tuple(Piece.from_json(p) for p in d["units"]), str(d["to_act"]), int(d["turn"]), int(d["turn_limit"]),
            tuple((str(k), str(v)) for k, v in d["options"].items()), bool(d["over"]),
            None if d["winner"] is None else str(d["winner"]), str(d["reason"]), RngState.from_dict(d["rng"]),
            _home(d.get("home")))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, RulekeeperError):
            raise
        raise RulekeeperError(f"a stored Battle System state is damaged: {exc!r}") from None


def _home(raw: Sequence[str] | None) -> tuple[str, str]:
    """A stored state's home edges; states stored before issue 25 had none: the shipped sides' west and east."""
    if raw is None:
        return ("west", "east")
    return (str(raw[0]), str(raw[1]))


def view_of(state: BattleState) -> JsonDict:
    """Everything a link may see: the battle without its RNG state (the Battle System hides nothing else)."""
    doc = state_to_json(state)
    del doc["rng"]
    doc["to_act"] = None if state.over else state.to_act
    doc["sides"] = {s: {"name": state.name(s), "able": sum(1 for p in state.units if p.side == s and p.can_fight),
                        "general": next((p.name for p in state.units if p.side == s and p.general), None)}
                    for s in SIDES}
    marks = marks_of(state)
    for u, p in zip(doc["units"], state.units, strict=True):
        u["fleeing"], u["destroyed"], u["movement"] = p.fleeing, p.destroyed, p.type.movement
        u["mark"] = marks[p.name]
        u["general"] = p.general
    doc["map"] = map_rows(state, marks)
    return doc


GLYPHS = {"shallow river": "~~", "dense forest": "##", "bridge": "=="}


def marks_of(state: BattleState) -> dict[str, str]:
    """Each unit's two-character mark on the text map: its side in lower case and its number (``a1``, ``b3``)."""
    out: dict[str, str] = {}
    for s in SIDES:
        for i, p in enumerate((p for p in state.units if p.side == s), start=1):
            out[p.name] = f"{s.lower()}{i}"
    return out


def map_rows(state: BattleState, marks: dict[str, str]) -> list[str]:
    """The map as text, one line per row, odd rows shifted half a hex (the generic presenters print it).

    A unit shows as its mark, a shallow river as ``~~``, a dense forest as ``##``, a raised hex as its
    level (``+1``), open level ground as ``..``.
    """
    cells = {label: (kind, elevation) for label, kind, elevation in state.terrain}
    units = {p.hex: marks[p.name] for p in state.units if p.on_map}
    rows: list[str] = []
    for row in range(state.height):
        line = []
        for col in range(state.width):
            label = f"{chr(ord('A') + col)}{row + 1}"
            kind, elevation = cells.get(label, ("open", 0))
            line.append(units.get(label) or GLYPHS.get(kind) or (f"{elevation:+d}" if elevation else ".."))
        rows.append(f"{row + 1:>2} " + ("  " if row % 2 else "") + "  ".join(line))
    return ["   " + "   ".join(chr(ord("A") + c) for c in range(state.width)), *rows]
