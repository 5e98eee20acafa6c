"""The state of one Dragon Noir battle: plain frozen data, the RNG state inside, exact JSON.

A battle is a fold over its log (``core/game.py``), so everything a later action depends on lives
here: the map (terrain and level of every hex that is not flat ground, the walls, doors and
windows on hex edges), every character (his counter side, hexes, facing when mounted, movement
points left, what he did this turn), riderless horses as pieces of their own, the player turn and
its sequence ("OFFENSIVE FIRE", "MOVEMENT AND DEFENSIVE FIRE", "COMBAT"), a decision the other
side owes in the middle of it (:class:`Pending`), the options and the RNG state. The dead stay on
their hexes: they are the corpses that clog a hex ("Hexes containing three dead men or one dead
horse cost one movement point more").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, NotRequired, TypedDict

from rulekeeper.boards.hexedges import Edge, EdgeFeature, EdgeMap
from rulekeeper.boards.hexes import Hex, HexCell, HexMap
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import JsonDict
from rulekeeper.core.memo import remembered
from rulekeeper.core.rng import RngState

from .blackdragon import BlackDragon
from .data import Character, SheetData, State, shipped_sheet
from .fighters import Fighter
from .magic import Wizard
from .scene import FEATURES, Piece, Scene

if TYPE_CHECKING:
    from .placing import Place, PlaceJson

SIDES = ("A", "B")
PHASES = ("fire", "move", "combat")
PHASE_NAMES = {"fire": "offensive fire", "move": "movement and defensive fire", "combat": "combat"}
HEALTHS = ("healthy", "wounded", "stunned", "berserk", "wounded_twice", "dead")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


class ManJson(TypedDict):
    """A piece as a stored state keeps it; the last four only when they are not empty (older states lack them)."""

    name: str
    character: str
    side: str
    hexes: list[str]
    health: str
    mounted: bool
    horse: bool
    facing: int | None
    stunned_at: int
    mp: int
    steps: int
    moved: bool
    shot: bool
    fired: bool
    attacked: bool
    unloaded: bool
    carrying: NotRequired[str]
    leading: NotRequired[list[str]]
    riding: NotRequired[str]
    fades: NotRequired[int]


@dataclass(frozen=True)
class Man:
    """One piece on the map: a character (on foot or mounted) or a horse without its rider.

    ``name`` is unique (a horse is ``"Grast's horse"``); ``hexes`` are labels, a horseman's front
    hex (the arrow's end) first; ``health`` is the counter side up, or ``dead``.
    """

    name: str
    character: str
    side: str
    hexes: tuple[str, ...]
    health: str = "healthy"
    mounted: bool = False
    horse: bool = False
    facing: int | None = None
    stunned_at: int = 0  # the player turn he was stunned in (0: not stunned)
    mp: int = 0  # movement points left this player turn
    steps: int = 0  # hexes entered this movement (the hex he stands on was "crossed" once he steps on)
    moved: bool = False  # moved during his side's last player turn (defensive fire of long bows, crossbows)
    shot: bool = False  # shot during his side's last player turn
    fired: bool = False  # shot defensively during this enemy movement
    attacked: bool = False
    unloaded: bool = False  # a crossbow shot from the saddle: 'obliged to dismount to reload'
    carrying: str = ""  # the stunned character he carries on his back this movement (:mod:`.carry`)
    leading: tuple[str, ...] = ()  # the riderless horses he leads by the bridle, in the order taken (:mod:`.bridle`)
    riding: str = ""  # the piece name of another character's horse he sits on (:mod:`.saddle`); "" his own
    fades: int = 0  # a summoned spectre: the last player turn it stays (:mod:`.summons`); 0 for everyone else

    @property
    def alive(self) -> bool:
        return self.health != "dead"

    @property
    def standing(self) -> bool:
        """Neither stunned nor dead: he can act, and he blocks lines of fire and movement."""
        return self.health not in ("stunned", "dead")

    @property
    def hex(self) -> str:
        return self.hexes[0]

    def to_json(self) -> ManJson:
        out: ManJson = {
            "name": self.name, "character": self.character, "side": self.side, "hexes": list(self.hexes),
            "health": self.health, "mounted": self.mounted, "horse": self.horse, "facing": self.facing,
            "stunned_at": self.stunned_at, "mp": self.mp, "steps": self.steps, "moved": self.moved,
            "shot": self.shot, "fired": self.fired, "attacked": self.attacked, "unloaded": self.unloaded}
        if self.carrying:
            out["carrying"] = self.carrying
        if self.leading:
            out["leading"] = list(self.leading)
        if self.riding:
            out["riding"] = self.riding
        if self.fades:
            out["fades"] = self.fades
        return out

    @classmethod
    def from_json(cls, d: ManJson) -> Man:
        facing = d["facing"]
        return cls(str(d["name"]), str(d["character"]), str(d["side"]), tuple(str(h) for h in d["hexes"]),
                   str(d["health"]), bool(d["mounted"]), bool(d["horse"]), None if facing is None else int(facing),
                   int(d["stunned_at"]), int(d["mp"]), int(d["steps"]), bool(d["moved"]), bool(d["shot"]),
                   bool(d["fired"]), bool(d["attacked"]), bool(d["unloaded"]), str(d.get("carrying", "")),
                   tuple(str(n) for n in d.get("leading", ())), str(d.get("riding", "")),
                   int(d.get("fades", 0)))


HORSE = "'s horse"


def riderless(m: Man, hexes: tuple[str, ...], health: str = "healthy") -> Man:
    """The horse a horseman ``m`` leaves on ``hexes``: his own (``"Grast's horse"``) or the one he borrowed."""
    name = m.riding or f"{m.character}{HORSE}"
    return Man(name, name[: -len(HORSE)], m.side, hexes, health, horse=True, facing=m.facing)


class PendingJson(TypedDict):
    """A decision owed, as a stored state keeps it."""

    kind: str
    side: str
    unit: str
    options: list[str]
    hexes: list[str]
    left: int
    harm: str
    others: list[str]


@dataclass(frozen=True)
class Pending:
    """A decision owed in the middle of a sequence, by ``side``.

    * ``defensive``: a mover (``unit``) entered a hex in sight of the other side's shooters: they
      shoot at him one by one, or let him go on.
    * ``standstill``: the moving side (``DNState.side``) ended its movement: ``side``'s shooters may fire
      defensively at the characters who did not move (:func:`.shots.standstill_shots`), then hold.
    * ``victim``: several defenders suffered a blow: their side picks who takes it (``options``);
      ``harm`` is the blow, ``others`` the attackers (for Zed's curare and the advance after).
    * ``counter``: the wizard ``unit`` announced the spell ``harm`` on ``options[0]``: the enemy wizard's side
      counters it or lets it be, before the die is rolled.
    * ``advance``: the victor may advance one of the characters of the combat (``options``) by
      ``left`` hexes, the first into one of the evacuated ``hexes``; ``unit`` once one has started.
    """

    kind: str
    side: str
    unit: str = ""
    options: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    left: int = 0
    harm: str = ""
    others: tuple[str, ...] = ()

    def to_json(self) -> PendingJson:
        return {"kind": self.kind, "side": self.side, "unit": self.unit, "options": list(self.options),
                "hexes": list(self.hexes), "left": self.left, "harm": self.harm, "others": list(self.others)}

    @classmethod
    def from_json(cls, d: PendingJson) -> Pending:
        return cls(str(d["kind"]), str(d["side"]), str(d["unit"]), tuple(map(str, d["options"])),
                   tuple(map(str, d["hexes"])), int(d["left"]), str(d["harm"]), tuple(map(str, d["others"])))


Terrain = tuple[tuple[str, str, int], ...]  # (hex label, terrain, level) of every hex not flat and level 0
Edges = tuple[tuple[str, str, str], ...]  # (hex label, hex label, feature)


@dataclass(frozen=True)
class DNState:
    """The whole battle, RNG state included; ``apply`` returns a new one and never changes this one."""

    scenario: str
    names: tuple[str, str]
    width: int
    height: int
    terrain: Terrain
    edges: Edges
    men: tuple[Man, ...]
    side: str  # the side whose player turn it is
    phase: str
    turn: int  # game turns: both sides' player turns
    player_turn: int  # player turns begun, from 1
    turn_limit: int
    options: tuple[tuple[str, str], ...]
    pending: Pending | None
    over: bool
    winner: str | None
    reason: str
    rng: RngState
    wizards: tuple[Wizard, ...] = ()  # the magic sheets (energy, wounded, what each did this player turn)
    dragon: BlackDragon | None = None  # the Black Dragon's sheet (centre, facing, wounds); its parts are in men
    placing: tuple[Place, ...] = ()  # :class:`.placing.Place`: where the rules moved a piece, its owner to choose

    def name(self, side: str) -> str:
        return self.names[SIDES.index(side)]

    @property
    def to_act(self) -> str:
        if self.placing:
            return self.placing[0].side
        return self.pending.side if self.pending is not None else self.side

    @cached_property
    def board(self) -> HexMap:
        """Kept on the state: looking it up in :func:`board_of` hashes the whole terrain tuple, and the
        rules ask for the board dozens of times per action (a third of a playthrough's time, profiled)."""
        return board_of(self.width, self.height, self.terrain)

    @cached_property
    def edge_map(self) -> EdgeMap:
        return edges_of(self.edges)

    def option(self, name: str, default: str) -> str:
        return dict(self.options).get(name, default)

    def man(self, name: str) -> Man:
        for m in self.men:
            if m.name == name:
                return m
        raise KeyError(name)

    def on(self, label: str) -> list[Man]:
        """The pieces on hex ``label``, the dead included."""
        return [m for m in self.men if label in m.hexes]

    def living_on(self, label: str) -> list[Man]:
        return [m for m in self.men if m.alive and label in m.hexes]

    def with_men(self, *men: Man) -> DNState:
        changed = {m.name: m for m in men}
        return replace(self, men=tuple(changed.get(m.name, m) for m in self.men))

    def add(self, man: Man) -> DNState:
        return replace(self, men=(*self.men, man))

    @cached_property
    def terrains(self) -> Mapping[str, str]:
        """Every on-map hex label's terrain (:meth:`terrain_at`), read once per map (:func:`terrains_of`)."""
        return terrains_of(self.board)

    def terrain_at(self, label: str) -> str:
        try:
            return self.terrains[label]
        except KeyError:  # a label as a player typed it ("c4"), or off the map: parsed (or refused) as ever
            cell = self.board.cells.get(self.board.parse(label))
            return "flat" if cell is None or cell.terrain == "open" else cell.terrain


@lru_cache(maxsize=64)
def board_of(width: int, height: int, terrain: Terrain) -> HexMap:
    """The hex map of a battle, built once per map (a state keeps only what differs from flat ground)."""
    sheet = shipped_sheet()
    base = HexMap.rectangle(width, height)
    cells = {base.parse(label): HexCell(kind, level, sheet.terrain_named(kind).blocks.value)
             for label, kind, level in terrain}
    return base.with_cells(cells)


def terrains_of(board: HexMap) -> Mapping[str, str]:
    """Each on-map label's terrain ("flat" for open ground), remembered on the map: the rules ask it of the same
    labels hundreds of times per action (issue 28, profiled: a search bot's simulations)."""
    def build() -> Mapping[str, str]:
        return MappingProxyType({board.label(h): "flat" if c.terrain == "open" else c.terrain
                                 for h, c in board.cells.items()})

    return remembered(board, terrains_of, build)


def label_neighbours(board: HexMap) -> Mapping[str, tuple[str, ...]]:
    """Each on-map label's neighbours on the map, as labels in ``HexMap.neighbours`` order, remembered on the map."""
    def build() -> Mapping[str, tuple[str, ...]]:
        return MappingProxyType({board.label(h): tuple(board.label(n) for n in board.neighbours(h))
                                 for h in board.cells})

    return remembered(board, label_neighbours, build)


@lru_cache(maxsize=64)
def edges_of(edges: Edges) -> EdgeMap:
    from rulekeeper.boards.hexes import parse_hex_label

    return EdgeMap({Edge.between(parse_hex_label(a), parse_hex_label(b)): FEATURES[f] for a, b, f in edges})


def feature_between(state: DNState, a: str, b: str) -> EdgeFeature | None:
    board = state.board
    return state.edge_map.at(board.parse(a), board.parse(b))


def character_of(name: str, sheet: SheetData | None = None) -> Character:
    return (sheet or shipped_sheet()).character(name)[1]


def fighter_of(state: DNState, m: Man) -> Fighter:
    """The calculator's view of a piece (counter side and the terrain under each of its hexes), built once per
    sheet for each character, counter side and terrain (a Fighter is frozen; the rules ask it tens of thousands
    of times in a search bot's simulations, issue 28)."""
    st: State = "healthy" if m.horse or m.health == "dead" else m.health  # type: ignore[assignment]
    terrains = tuple(state.terrain_at(h) for h in m.hexes)
    sheet = shipped_sheet()
    fighters: dict[tuple[str, bool, str, tuple[str, ...], bool], Fighter] = remembered(sheet, fighter_of, dict)
    key = (m.character, m.mounted, st, terrains, m.horse)
    try:
        return fighters[key]
    except KeyError:
        f = fighters[key] = Fighter(m.character, character_of(m.character, sheet), m.mounted, st, terrains, m.horse)
        return f


def scene_of(state: DNState) -> Scene:
    """The map and the living characters as :mod:`.fire` judges a line of fire on it (the dead never block)."""
    board = state.board
    pieces = tuple(Piece(fighter_of(state, m), tuple(board.parse(h) for h in m.hexes), m.side)
                   for m in state.men if m.alive)
    return Scene(board, state.edge_map, pieces)


def hex_of(state: DNState, label: str) -> Hex:
    return state.board.parse(label)


class Placing(TypedDict, total=False):
    """Where the rules moved pieces, their owners to choose: only while there are some (older states lack it)."""

    placing: list[PlaceJson]


class DNStored(Placing):
    """A state as its checkpoints keep it (:func:`state_to_json`), in this key order."""

    scenario: str
    names: list[str]
    width: int
    height: int
    terrain: list[list[str | int]]
    edges: list[list[str]]
    men: list[ManJson]
    side: str
    phase: str
    turn: int
    player_turn: int
    turn_limit: int
    options: dict[str, str]
    pending: PendingJson | None
    over: bool
    winner: str | None
    reason: str
    rng: dict[str, int]
    wizards: list[dict[str, object]]
    dragon: dict[str, object] | None


def state_to_json(state: DNState) -> DNStored:
    placing: Placing = {"placing": [p.to_json() for p in state.placing]} if state.placing else {}
    return {"scenario": state.scenario, "names": list(state.names), "width": state.width, "height": state.height,
            "terrain": [list(t) for t in state.terrain], "edges": [list(e) for e in state.edges],
            "men": [m.to_json() for m in state.men], "side": state.side, "phase": state.phase, "turn": state.turn,
            "player_turn": state.player_turn, "turn_limit": state.turn_limit, "options": dict(state.options),
            "pending": None if state.pending is None else state.pending.to_json(), "over": state.over,
            "winner": state.winner, "reason": state.reason, "rng": state.rng.to_dict(),
            "wizards": [w.to_dict() for w in state.wizards],
            "dragon": None if state.dragon is None else state.dragon.to_dict(),
            **placing}


def state_from_json(d: JsonDict) -> DNState:
    from .placing import Place

    try:
        return DNState(
            str(d["scenario"]), (str(d["names"][0]), str(d["names"][1])), int(d["width"]), int(d["height"]),
            tuple((str(a), str(b), int(c)) for a, b, c in d["terrain"]),
            tuple((str(a), str(b), str(c)) for a, b, c in d["edges"]),
            tuple(Man.from_json(m) for m in d["men"]), str(d["side"]), str(d["phase"]), int(d["turn"]),
            int(d["player_turn"]), int(d["turn_limit"]), tuple((str(k), str(v)) for k, v in d["options"].items()),
            None if d["pending"] is None else Pending.from_json(d["pending"]), bool(d["over"]),
            None if d["winner"] is None else str(d["winner"]), str(d["reason"]), RngState.from_dict(d["rng"]),
            tuple(Wizard.from_dict(w) for w in d["wizards"]),
            None if d["dragon"] is None else BlackDragon.from_dict(d["dragon"]),
            tuple(Place.from_json(p) for p in d.get("placing", ())))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, RulekeeperError):
            raise
        raise RulekeeperError(f"a stored Dragon Noir state is damaged: {exc!r}") from None
