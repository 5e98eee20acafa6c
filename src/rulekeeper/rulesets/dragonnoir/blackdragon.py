"""The Black Dragon: one five-hex counter, five parts, a vital centre reached only as the limbs fall.

"The counter that represents the Black Dragon occupies five hexes ... To calculate its movement,
the hex located at the centre of the cross formed by the counter is used as the base." A
:class:`BlackDragon` is where that centre stands, which way the head points and how many wounds
each part carries. Everything here is pure: the Game keeps a ``BlackDragon`` in its state, asks it
which hexes it covers, from where its centre may be attacked, what a step costs, and hands it the
letter of a combat to get the dragon back wounded (or dead). The +1 column "when it attacks a
character with two parts of its body" is in :mod:`.combat` (``_group_shifts``): pass each attacking
part as its own :class:`~.fighters.Fighter` (:meth:`BlackDragon.fighter`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from rulekeeper.boards.hexes import Hex, hex_distance, hex_neighbour, hex_neighbours, hex_ring
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.core.wording import counted

from .data import CombatResult, SheetData, State
from .fighters import Fighter

Part = Literal["head", "left foreleg", "right foreleg", "tail", "body"]
PARTS: tuple[Part, ...] = ("head", "left foreleg", "right foreleg", "tail", "body")
LIMBS: tuple[Part, ...] = ("head", "left foreleg", "right foreleg", "tail")
"""The parts that "each have an attack potential and a defence potential"; "The body proper has only a defence"."""
CHARACTER = {p: f"Black Dragon {p}" for p in PARTS}
"""Each part's counter in ``characters.yaml``."""
#: Where each part lies, in sixths of a turn from the head's direction (0..5, counter-clockwise, the order of
#: :func:`hex_neighbours`: E, NE, NW, W, SW, SE). Estimated: the seed's diagram is missing; the forelegs are
#: the two hexes beside the head, the tail opposite it, which leaves the centre exactly two free neighbours
#: ("As long as the dragon is in full health, the central part of its body can be attacked only from two hexes").
LAYOUT: dict[Part, int] = {"head": 0, "left foreleg": 1, "right foreleg": 5, "tail": 3}
LIMB_DISABLED_AT = 2
""""as soon as the head, the tail or one of the front legs receives a second wound, it no longer has any defence"."""
BODY_KILLED_AT = 3
""""to kill the dragon, it is necessary to wound the central part three times\"."""
WOUNDING_LETTERS = "DEF"
""""The results D, E and F become 'Dragon wounded'\" (the foot Combat Table)."""
STATES: tuple[State, ...] = ("healthy", "wounded", "wounded_twice")


@dataclass(frozen=True)
class BlackDragon:
    """The dragon on the map: its centre hex, the head's direction (0-5) and each part's wounds."""

    centre: Hex
    facing: int = 0
    wounds: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    """In the order of :data:`PARTS`."""

    def __post_init__(self) -> None:
        if self.facing not in range(6):
            raise InvalidStatError(f"The dragon's facing is a direction 0-5, got {self.facing}.")
        if any(w < 0 for w in self.wounds):
            raise InvalidStatError(f"Wounds cannot be negative: {self.wounds}.")

    def to_dict(self) -> dict[str, object]:
        return {"centre": [self.centre.q, self.centre.r], "facing": self.facing,
                "wounds": dict(zip(PARTS, self.wounds, strict=True))}

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> BlackDragon:
        """The inverse of :meth:`to_dict`; a damaged record is a typed error."""
        try:
            raw: Any = d
            q, r = (int(x) for x in raw["centre"])
            w = [int(raw.get("wounds", {}).get(p, 0)) for p in PARTS]
            return cls(Hex(q, r), int(raw.get("facing", 0)), (w[0], w[1], w[2], w[3], w[4]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidStatError(f"A Black Dragon record needs centre [q, r], facing and wounds: {exc!r}") from None

    # -- where it stands ------------------------------------------------------------------------

    def hex_of(self, part: Part) -> Hex:
        if part == "body":
            return self.centre
        return hex_neighbour(self.centre, (self.facing + LAYOUT[part]) % 6)

    def hexes(self) -> dict[Part, Hex]:
        """The five hexes the counter covers, part by part."""
        return {p: self.hex_of(p) for p in PARTS}

    def part_at(self, h: Hex) -> Part | None:
        for p in PARTS:
            if self.hex_of(p) == h:
                return p
        return None

    # -- its health -----------------------------------------------------------------------------

    def wounds_of(self, part: Part) -> int:
        return self.wounds[PARTS.index(part)]

    def disabled(self, part: Part) -> bool:
        """A limb wounded twice: "it no longer has any defence potential" (nor attack: estimated)."""
        return part in LIMBS and self.wounds_of(part) >= LIMB_DISABLED_AT

    @property
    def dead(self) -> bool:
        return self.wounds_of("body") >= BODY_KILLED_AT

    def state(self, part: Part) -> State:
        """The side of the part's counter in ``characters.yaml``: healthy, wounded, wounded_twice."""
        return STATES[min(self.wounds_of(part), len(STATES) - 1)]

    def fighter(self, sheet: SheetData, part: Part, terrain: str = "flat") -> Fighter:
        """The part as a combat :class:`Fighter` (kind ``dragon part``): what :func:`.combat.combat_odds` takes."""
        name, character = sheet.character(CHARACTER[part])
        return Fighter(name, character, state=self.state(part), terrains=(terrain,))

    def armed(self) -> tuple[Part, ...]:
        """The limbs that can still attack (not disabled)."""
        return tuple(p for p in LIMBS if not self.disabled(p))

    # -- who may attack what, from where -------------------------------------------------------------

    def centre_access(self) -> frozenset[Hex]:
        """Hexes from which the centre may be attacked: its free neighbours, and the hex of every disabled limb.

        "A character can then temporarily occupy the hex to attack the central part, alone or with
        other characters ... The number of hexes from which it is possible to attack the vital centre
        of the beast is thus progressively increased."
        """
        covered = set(self.hexes().values())
        free = {n for n in hex_neighbours(self.centre) if n not in covered}
        return frozenset(free | {self.hex_of(p) for p in LIMBS if self.disabled(p)})

    def attack_hexes(self, part: Part) -> frozenset[Hex]:
        """Hexes from which ``part`` may be attacked: "from the adjacent free hexes, exactly as for any other
        character" (the centre: :meth:`centre_access`)."""
        if part == "body":
            return self.centre_access()
        covered = set(self.hexes().values())
        return frozenset(n for n in hex_neighbours(self.hex_of(part)) if n not in covered)

    def check_attack(self, part: Part, attacker_hexes: Iterable[Hex]) -> None:
        """Refuse an attack on ``part`` from a hex the rules do not allow (typed error naming the hex)."""
        if self.dead:
            raise ImpossibleRequestError("The Black Dragon is dead.")
        if self.disabled(part):
            raise ImpossibleRequestError(f"The dragon's {part} is wounded twice: 'it no longer has any defence "
                                         "potential' (attack the centre from its hex instead).", part=part)
        allowed = self.attack_hexes(part)
        for h in attacker_hexes:
            if h not in allowed:
                why = (" 'As long as the dragon is in full health, the central part of its body can be attacked "
                       "only from two hexes.'" if part == "body" else "")
                raise ImpossibleRequestError(f"The dragon's {part} cannot be attacked from {h}.{why}", part=part)

    def must_reposition(self, h: Hex) -> bool:
        """A character who attacked the centre from a disabled limb's hex "must reposition himself on an
        adjacent hex" at the end of the combat "if the dragon is not dead"."""
        return not self.dead and self.part_at(h) is not None

    def attackers_of(self, target_hexes: Collection[Hex]) -> tuple[Part, ...]:
        """The armed parts adjacent to a character on ``target_hexes``: those that may attack him (two or
        more attacking him together earn the +1 column)."""
        return tuple(p for p in self.armed()
                     if any(hex_distance(self.hex_of(p), t) == 1 for t in target_hexes))

    def threatens(self, h: Hex) -> bool:
        """Whether a character crossing ``h`` is next to the dragon "in a position to attack" (an armed limb):
        the infiltration rule "applies to characters passing near the monster" (estimated: the body, which
        has no attack, does not count, nor a disabled limb)."""
        return h not in self.hexes().values() and bool(self.attackers_of((h,)))


# -- combat results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DragonOutcome:
    """A combat letter applied to the dragon: the dragon after, which part was wounded, what was ignored."""

    dragon: BlackDragon
    wounded: Part | None
    ignored: str | None
    why: str

    @property
    def killed(self) -> bool:
        return self.dragon.dead


def wound(dragon: BlackDragon, part: Part) -> BlackDragon:
    """One "Dragon wounded" on ``part``."""
    if dragon.dead:
        raise ImpossibleRequestError("The Black Dragon is already dead.")
    if dragon.disabled(part):
        raise ImpossibleRequestError(f"The dragon's {part} is wounded twice already and takes no more wounds "
                                     "(estimated: the blow must fall on a part that can still take it).", part=part)
    i = PARTS.index(part)
    w = list(dragon.wounds)
    w[i] += 1
    return replace(dragon, wounds=(w[0], w[1], w[2], w[3], w[4]))


def dragon_defends(dragon: BlackDragon, letter: str, result: CombatResult, defending: Collection[Part],
                   victim: Part | None = None) -> DragonOutcome:
    """Apply one combat letter read on the foot table to the dragon's ``defending`` parts.

    "The results D, E and F become 'Dragon wounded'." "in attack as in defence, the dragon never
    retreats (results that make it retreat are ignored)." With several parts defending, the dragon's
    player picks ``victim`` ("it is the player of the side concerned who decides which of his
    characters takes the blow").
    """
    if not defending:
        raise ImpossibleRequestError("No part of the dragon defends.")
    if letter in WOUNDING_LETTERS:
        able = [p for p in defending if not dragon.disabled(p)]
        if victim is None and len(able) == 1:
            victim = able[0]
        if victim is None or victim not in able:
            raise ImpossibleRequestError(f"'Dragon wounded': the dragon's player chooses which defending part "
                                         f"takes it, one of {', '.join(able)}.", choices=able)
        after = wound(dragon, victim)
        what = "dies" if after.dead else f"has {counted(after.wounds_of(victim), 'wound')}"
        return DragonOutcome(after, victim, None, f"{letter}: 'Dragon wounded' ('The results D, E and F become "
                                                  f"\"Dragon wounded\"'): the {victim} {what}")
    if result.defender == "retreat":
        return DragonOutcome(dragon, None, letter, f"{letter} ({result.text}) ignored: 'the dragon never retreats "
                                                   "(results that make it retreat are ignored)'")
    return DragonOutcome(dragon, None, None, f"{letter}: {result.text}")


def dragon_attacks(letter: str, result: CombatResult) -> tuple[CombatResult, str]:
    """The letter of a combat the dragon made, as it applies: the defender's result "applied normally", an
    "attacker retreats" ignored ("in attack as in defence, the dragon never retreats")."""
    if result.attacker == "retreat":
        kept = result.model_copy(update={"attacker": None})
        return kept, f"{letter}: '{result.text}' ignored for the dragon: it 'never retreats'"
    return result, f"{letter}: {result.text}, 'The results are applied normally.'"


# -- movement ------------------------------------------------------------------------------------


def dragon_step(sheet: SheetData, dragon: BlackDragon, to: Hex, terrain: str, facing: int | None = None,
                on_map: Collection[Hex] | None = None) -> tuple[BlackDragon, int]:
    """Move the centre one hex onto ``to`` (of ``terrain``), head turned to ``facing``; the dragon and its cost.

    "the dragon can move in all directions, without spending additional movement points. To calculate
    its movement, the hex located at the centre of the cross formed by the counter is used as the
    base." Estimated: the step costs what the centre's new hex costs a man on foot; a hex nobody may
    stand on (a crevasse) is refused; the four outer parts pay nothing. Characters in the way do not
    stop it (:func:`pushed_aside`).
    """
    if dragon.dead:
        raise ImpossibleRequestError("The Black Dragon is dead.")
    if hex_distance(dragon.centre, to) != 1:
        raise ImpossibleRequestError(f"The dragon's centre steps to an adjacent hex, not {to}.")
    cost = sheet.terrain_named(terrain).cost.value
    if cost is None:
        raise ImpossibleRequestError(f"The dragon's centre cannot stand on a {terrain} hex ('No character can be "
                                     "on a crevasse hex').", terrain=terrain)
    after = BlackDragon(to, dragon.facing if facing is None else facing, dragon.wounds)
    if on_map is not None and any(h not in on_map for h in after.hexes().values()):
        raise ImpossibleRequestError("The dragon's five hexes must all lie on the map.")
    return after, cost


def turn_dragon(dragon: BlackDragon, facing: int) -> BlackDragon:
    """Turning costs nothing: "the dragon can move in all directions, without spending additional movement
    points" (estimated: turning on the spot is free too)."""
    return replace(dragon, facing=facing)


def pushed_aside(dragon: BlackDragon, occupied: Collection[Hex]) -> tuple[Hex, ...]:
    """The occupied hexes the dragon now covers: "When it moves, the dragon pushes aside any other character in
    its path. It can therefore never be blocked." Each of them is moved by :func:`push_destinations`."""
    return tuple(h for h in dragon.hexes().values() if h in occupied)


def push_destinations(dragon: BlackDragon, h: Hex, occupied: Collection[Hex],
                      on_map: Collection[Hex] | None = None) -> tuple[Hex, ...]:
    """Where a character pushed off ``h`` may go: the nearest free hexes not under the dragon.

    Estimated (the seed says only "pushes aside"): the character's own player picks among the
    nearest free hexes, as he places an unhorsed horseman "on one of the hexes adjacent".
    """
    covered = set(dragon.hexes().values())
    for radius in range(1, 8):
        ring = [x for x in hex_ring(h, radius) if x not in covered and x not in occupied
                and (on_map is None or x in on_map)]
        if ring:
            return tuple(ring)
    return ()

