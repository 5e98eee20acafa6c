"""Movement: terrain costs, corpses, mounting and dismounting, a horseman's facing and turns.

"Each hex crossed makes him spend a number of movement points corresponding to the difficulty of
the terrain (see the terrain types table on the game sheet)." The costs are data
(``data/terrain.yaml``); the seed's rules about who may go where, and its two worked examples of
the movement conversion (Laberne 4, Grast 0), are here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.boards.hexes import Hex, hex_direction, hex_neighbour
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.core.wording import counted

from .data import SheetData
from .fighters import Fighter, can_enter

WATERS = ("water", "spring")


@dataclass(frozen=True)
class Corpses:
    """The dead lying on a hex."""

    men: int = 0
    horses: int = 0


def corpse_extra(sheet: SheetData, corpses: Corpses) -> int | None:
    """Extra cost of the corpses on a hex (None: impassable).

    "Hexes containing three dead men or one dead horse cost one movement point more than their
    normal cost. A hex becomes impassable if it contains six dead characters or two dead horses
    (or three characters and a dead horse)."
    """
    if corpses.men < 0 or corpses.horses < 0:
        raise InvalidStatError("Corpses cannot be negative.", men=corpses.men, horses=corpses.horses)
    block, extra = sheet.moves.corpses.impassable_at, sheet.moves.corpses.extra_cost_at
    # a dead horse counts as three dead men: "(or three characters and a dead horse)" is impassable like six men
    weight = corpses.men + corpses.horses * extra.dead_men
    if corpses.horses >= block.dead_horses or weight >= block.dead_men:
        return None
    return 1 if corpses.men >= extra.dead_men or corpses.horses >= extra.dead_horses else 0


def step_cost(sheet: SheetData, fighter: Fighter, frm: str, to: str, corpses: Corpses = Corpses()) -> int:
    """Movement points to step from a ``frm`` hex onto a ``to`` hex; ImpossibleRequestError if forbidden."""
    frm_name, to_name = sheet.terrain_name(frm), sheet.terrain_name(to)
    why = can_enter(sheet, fighter, to_name)
    if why is not None:
        raise ImpossibleRequestError(f"{fighter.name}: {why}.", character=fighter.name, terrain=to_name)
    goblin = fighter.character.kind == "goblin"
    if {frm_name, to_name} == {"bridge", "water"} and not goblin:
        raise ImpossibleRequestError(
            "'The hexes of a bridge are not accessible from a water hex and vice versa.'", character=fighter.name)
    base = sheet.terrain_named(to_name).cost.value
    assert base is not None  # can_enter refused the impassable
    if goblin and to_name in WATERS:
        base = 2  # "They spend only 2 movement points to cross a water hex."
    extra = corpse_extra(sheet, corpses)
    if extra is None:
        raise ImpossibleRequestError("The hex is impassable: too many corpses lie on it.", character=fighter.name)
    return base + extra


@dataclass(frozen=True)
class Conversion:
    """Points left after mounting or dismounting, with the seed's arithmetic."""

    potential: int
    spent: int
    cost: int
    remaining: int
    divisor: int
    multiplier: int
    left: int
    arithmetic: str


def mount_cost(sheet: SheetData, fighter: Fighter) -> int:
    """"a light horseman (without armour) spends 2 movement points and a heavy horseman (in armour) spends 3\""""
    kind = fighter.character.horseman
    if kind is None:
        raise ImpossibleRequestError(f"{fighter.name} is no horseman.", character=fighter.name)
    value = (sheet.moves.mounting.heavy if kind == "heavy" else sheet.moves.mounting.light).value
    assert value is not None
    return value


def dismount(sheet: SheetData, fighter: Fighter, spent: int) -> Conversion:
    """Points left on foot after dismounting, ``spent`` points having been used mounted.

    "if the character dismounts, the points remaining to the mounted character are divided by two
    and this gives the potential remaining to him on foot. If this character is wounded, divide by
    four. ... round down if necessary. (Special case: for Thrug, instead of dividing by 2 or 4,
    divide by 4 or 8.)"
    """
    if not fighter.mounted:
        raise ImpossibleRequestError(f"{fighter.name} is on foot: he cannot dismount.", character=fighter.name)
    cost = mount_cost(sheet, fighter)
    potential = fighter.counter.movement
    remaining = potential - spent - cost
    if spent < 0 or remaining < 0:
        raise ImpossibleRequestError(
            f"{fighter.name} has {counted(potential, 'point')} mounted: {spent} spent and {cost} to dismount "
            "is too many.",
            character=fighter.name)
    divisor = fighter.character.dismount_divisor * (2 if fighter.state == "wounded" else 1)
    left = remaining // divisor
    text = (f"{potential} minus {spent + cost} ({spent} spent + {cost} to dismount) = {remaining}; "
            f"divided by {divisor} = {remaining / divisor:g}, rounded down: {left}")
    return Conversion(potential, spent, cost, remaining, divisor, 1, left, text)


def mount(sheet: SheetData, fighter: Fighter, spent: int) -> Conversion:
    """Points left mounted after mounting: "the points remaining to the character on foot are multiplied by two"."""
    if fighter.mounted:
        raise ImpossibleRequestError(f"{fighter.name} is already mounted.", character=fighter.name)
    cost = mount_cost(sheet, fighter)
    potential = fighter.counter.movement
    remaining = potential - spent - cost
    if spent < 0 or remaining < 0:
        raise ImpossibleRequestError(
            f"{fighter.name} has {counted(potential, 'point')} on foot: {spent} spent and {cost} to mount "
            "is too many.",
            character=fighter.name)
    text = f"{potential} minus {spent + cost} ({spent} spent + {cost} to mount) = {remaining}; times 2 = {2 * remaining}"
    return Conversion(potential, spent, cost, remaining, 1, 2, 2 * remaining, text)


def carrying(points_left: int) -> int:
    """"he can carry him on his back, but the movement points he has left are then halved (rounding down)\""""
    return max(0, points_left) // 2


# -- a horseman's facing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Horseman:
    """Where a horseman stands: his front hex (the arrow's end) and the direction the arrow points.

    "The arrow drawn on the counters of mounted characters indicates the general direction of
    movement." The rear hex is behind the front one.
    """

    front: Hex
    facing: int

    @property
    def rear(self) -> Hex:
        return hex_neighbour(self.front, (self.facing + 3) % 6)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return self.front, self.rear


def turn_extra(sheet: SheetData, horseman: Horseman, to: Hex) -> tuple[Horseman, int, str]:
    """The horseman's new position after moving onto ``to``, and the points above the hex's cost.

    The eight hexes around a horseman: the three ahead of the front hex (no extra), the two beside
    both hexes (+1), the two beside the rear hex (+2) and the one behind (+3): "as soon as the
    horseman turns his horse more sharply, he spends 1, 2 or 3 points more than the normal cost".
    """
    extra = sheet.moves.mounted_turns.extra
    d = hex_direction(horseman.front, to)
    if d is not None and to != horseman.rear:
        turn = min((d - horseman.facing) % 6, (horseman.facing - d) % 6)
        cost, where = (extra.ahead, "ahead") if turn <= 1 else (extra.beside, "beside")
        return Horseman(to, d), cost, where
    d = hex_direction(horseman.rear, to)
    if d is None or to == horseman.front:
        raise ImpossibleRequestError(f"Hex {to} is not next to the horseman's two hexes.", hex=[to.q, to.r])
    back = (horseman.facing + 3) % 6
    if d == back:
        return Horseman(to, d), extra.behind, "behind"
    return Horseman(to, d), extra.rear_side, "beside the rear hex"


def half_turn(sheet: SheetData, horseman: Horseman) -> tuple[Horseman, int]:
    """"A horseman who performs a complete half-turn on the spot spends 3 movement points.\""""
    cost = sheet.moves.mounted_turns.half_turn.value
    assert cost is not None
    return Horseman(horseman.rear, (horseman.facing + 3) % 6), cost


# -- the sheet's movement rolls --------------------------------------------------------------------


def roll_table(sheet: SheetData, table: str) -> dict[str, tuple[Fraction, str]]:
    """The exact chance of each result of the infiltration roll (``"infiltration"``) or of a jump over
    ``"water"`` or a ``"crevasse"``, with its meaning: "the player concerned must roll the die and consult the
    corresponding table on the game sheet"."""
    moves = sheet.moves
    if table == "infiltration":
        results = moves.infiltration.results
    elif table in moves.jump.results:
        results = moves.jump.results[table]
    else:
        raise ImpossibleRequestError(f"No roll table {table!r}: infiltration, water or crevasse.")
    return {name: (Fraction(len(o.rolls), 10), o.text) for name, o in results.items()}
