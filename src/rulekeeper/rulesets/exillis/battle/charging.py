"""How a melee round is set up on the board: the zone's terrain, the unit modifiers, the charge sequence.

One function builds the :class:`~..melee.MeleeContext` of a round for the resolution
(:mod:`.handlers`) and for the odds shown before it (:mod:`.draws`), so both see the same
terrain, modifiers and weapons.

* "Cavalry units ... usually have a powerful charge if they can manage to perform it at
  units in the open" (seed, Movement Types): the defenders are in the open when their zone
  has no terrain feature (wiki: "Field is the only terrain that allows a full-power cavalry
  charge").
* The Charging Sequence (seed, Movement: Charges): a defender of higher Reaction Priority
  reacts before the charge lands, one of lower priority after it, and "If the charger and
  the target have the same value, they will both perform their actions at the same time,
  and only after are the casualties removed" (:mod:`..exchange`).
"""

from __future__ import annotations

from rulekeeper.boards.zones import Coord

from ..melee import MeleeContext
from .specials import unit_mods
from .state import BattleState, BattleUnit
from .tables import BattleTables


def in_the_open(state: BattleState, z: Coord) -> bool:
    """Units in a zone without a terrain feature are "in the open"."""
    return state.terrain_at(z) == "fields"


def melee_context(state: BattleState, t: BattleTables, z: Coord, action: str, direction: str,
                  reaction: bool = False) -> MeleeContext:
    """The context of a round in zone ``z`` as the state stands (the resolution and the preview both call this)."""
    mods = tuple((u.key, unit_mods(state, u, action == "charge")) for u in state.in_zone(z))
    return MeleeContext(t.rules, state.options, action, direction, mods, open_ground=in_the_open(state, z),
                        reaction=reaction)


#: The Baneret's technique (our name for it; the seed does not name it).
CHALLENGE = "Challenge"


def challengeable(state: BattleState, u: BattleUnit) -> list[BattleUnit]:
    """The enemy heroes ``u`` may attack directly with a Challenge (none if it has no such technique).

    "the Baneret has a special technique with which he can directly attack a Hero without
    taking the enemies' Aggressiveness into account" (seed, Melee: Other Target Selecting Modes).
    A flying hero cannot be reached from the ground.
    """
    if u.zone is None or not u.has_rule(CHALLENGE):
        return []
    return [e for e in state.enemies_in(u.zone, u.side)
            if e.is_hero and e.c.count > 0 and not e.c.fleeing and (not e.flying or u.flying)]


def challenged(state: BattleState, u: BattleUnit, hero: str | None) -> frozenset[str] | None:
    """The only target of ``u``'s round when its group's Fight names ``hero`` and ``u`` can challenge it."""
    if hero is None:
        return None
    return frozenset({hero}) if any(e.key == hero for e in challengeable(state, u)) else None
