"""Orders of deaths the volley's aftermath cannot tell apart: one outcome, one engine aftermath.

A sampled volley's outcomes are told apart by the order of its deaths, because the casualty morale
(``aftermath._casualty_morale``) takes them in order: each death shakes the living units of its own
side by its Bulk over the friendly Bulk still alive, which shrinks as they fall. Two orders give the
same zone, bit for bit, when

* they differ only in how the deaths of the two sides interleave: a death shakes only its own side's
  units and shrinks only its own unit's Bulk, so each side reads only its own deaths, in their order;
* or, within one side, every unit of it in the zone has the same Bulk per miniature (a multiple of ¼,
  so the Bulk sums are exact) and none of them loses its last miniature in the volley: then the k-th
  death of that side always weighs the same Bulk over the same friendly Bulk, whichever unit it hits,
  and the same units witness it.

The merged outcome's share of particles is the sum of theirs, and the engine's aftermath runs once on
it (with its deaths in a canonical order) instead of once per order: fewer aftermaths for the same
distribution. What cannot be merged keeps its order (the shooter's own deaths, a shooter in its
target zone, units of different Bulk, a unit wiped out).
"""

from __future__ import annotations

from ..combatants import Combatant

#: Merge the orders the aftermath cannot tell apart (off: every order its own aftermath, as before; the bench
#: compares the two).
MERGE = True


class Orders:
    """Canonical orders of deaths for one volley: unit ``j`` of ``units`` (-1: the shooter)."""

    def __init__(self, shooter: Combatant, units: list[Combatant], start: list[int], bulk_key: str,
                 shooter_in_zone: bool) -> None:
        self.side = {-1: shooter.side, **{j: c.side for j, c in enumerate(units)}}
        self.start = start
        self.members: dict[str, list[int]] = {}
        for j, c in enumerate(units):
            if start[j] > 0:
                self.members.setdefault(c.side, []).append(j)
        bulks = {s: {units[j].stat(bulk_key) for j in js} for s, js in self.members.items()}
        #: the sides whose deaths may be taken in any order while none of their units is wiped out
        self.alike = {s for s, b in bulks.items() if len(b) == 1 and _exact(next(iter(b)))}
        if shooter_in_zone:
            self.alike.discard(shooter.side)

    def canonical(self, alive: list[int], deaths: tuple[int, ...]) -> tuple[int, ...]:
        """``deaths`` (in order) as one order of the outcomes the aftermath cannot tell apart; ``alive``: each
        unit's living miniatures after the volley."""
        if not MERGE:
            return deaths
        by_side: dict[str, list[int]] = {}
        for d in deaths:
            by_side.setdefault(self.side[d], []).append(d)
        out: list[int] = []
        for side in sorted(by_side):
            ds = by_side[side]
            if side in self.alike and -1 not in ds and all(alive[j] > 0 for j in self.members.get(side, ())):
                ds = sorted(ds)
            out += ds
        return tuple(out)


def _exact(bulk: float) -> bool:
    """Bulk sums of these exact in floating point (a positive multiple of ¼, as every Bulk of the game is)."""
    return bulk > 0 and float(bulk * 4).is_integer() and bulk < 2**20
