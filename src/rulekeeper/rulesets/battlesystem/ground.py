"""Terrain and elevation in combat: the "other bonuses" of an attack (``terrain_combat``, on by default).

The guide's attack is "5d10+(skill)+(other bonuses)-(enemy Damage Reduction)" and it says of terrain
only "Other terrains, such as forests, bogs, and many others also exist, but how they affect the
units still remains unknown." Our estimate (data/support.yaml): each level the attacker stands
above its target adds ``higher_ground`` (below: subtracts it); a target in dense forest takes
``forest_cover`` off a normal or missile attack; a normal attack made from a shallow river hex loses
``river_footing``. Pursuits and barrages take no ground bonus (a fleeing unit holds no ground;
shells fall from above). One function for the roll and its preview, so the odds shown are the odds used.
"""

from __future__ import annotations

from .state import BattleState, Piece
from .support_data import support_numbers
from .units import AttackKind


def _cell(state: BattleState, label: str) -> tuple[str, int]:
    return next(((k, e) for lb, k, e in state.terrain if lb == label), ("open", 0))


def ground(state: BattleState, attacker: Piece, defender: Piece, kind: AttackKind) -> list[tuple[str, int]]:
    """Each effect of the ground on this attack: (why, bonus); none when ``terrain_combat=off``."""
    if state.rules.terrain_combat == "off":
        return []
    n = support_numbers()
    (a_kind, a_level), (d_kind, d_level) = _cell(state, attacker.hex), _cell(state, defender.hex)
    out: list[tuple[str, int]] = []
    if a_level != d_level:
        out.append(("higher ground" if a_level > d_level else "attacking uphill", n.higher_ground * (a_level - d_level)))
    if d_kind == "dense forest":
        out.append(("target in dense forest", -n.forest_cover))
    if kind == "melee" and a_kind == "shallow river":
        out.append(("attacking from a shallow river", -n.river_footing))
    return out


def ground_bonus(state: BattleState, attacker: Piece, defender: Piece, kind: AttackKind) -> int:
    """The attack's "other bonuses" from the ground (0 on level open ground, or with ``terrain_combat=off``)."""
    return sum(b for _, b in ground(state, attacker, defender, kind))


def ground_text(state: BattleState, attacker: Piece, defender: Piece, kind: AttackKind) -> str:
    """``"+5 (higher ground), -5 (target in dense forest)"`` or ``""``."""
    return ", ".join(f"{b:+d} ({why})" for why, b in ground(state, attacker, defender, kind))
