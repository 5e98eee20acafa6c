"""Chant (the Mendicum): Verses and their Finale.

Seed, Chant: "Verses affect every allied unit within a range of 2 zones. Verses' effects are
continuous, as long as the unit does not perform any action other than a Verse, or becomes
engaged. The same Verse cast by 2 different units has a cumulative effect. A Finale's power is
proportional to the number of Verses used by this unit, but ends all active Verses."

Decisions (docs/rules/exillis-battles.md): a Verse gives ``verse_morale`` (+5, estimate) to every
ally within 2 zones, and counts on the unit (``BattleUnit.verses``); any other action, or acting
while engaged, ends the Verses (the count restarts). A Finale, offered once at least one Verse
is active and the unit is not engaged, gives ``finale_morale_per_verse`` (+5, estimate) × the
Verses sung to every ally within 2 zones, then ends them (count 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.boards.zones import Coord

from ..aftermath import StaticModifier
from ..fastcopy import evolve
from .morale_loop import morale_in_zone

if TYPE_CHECKING:
    from .actions import Legal
    from .engine import Run

CHANT_RANGE = 2  # "every allied unit within a range of 2 zones"


def _to_allies(run: Run, key: str, amount: float, reason: str) -> int:
    """``amount`` morale to every ally within 2 zones of ``key`` (itself included); returns how many."""
    u = run.state.unit(key)
    assert u.zone is not None
    statics: dict[Coord, list[StaticModifier]] = {}
    for x in run.state.units:
        if x.side == u.side and x.on_board and x.zone is not None and run.state.board.distance(x.zone, u.zone) <= CHANT_RANGE:
            statics.setdefault(x.zone, []).append(StaticModifier(x.key, amount, reason))
    for z, ss in statics.items():
        run.state, changes = morale_in_zone(run.state, z, [], ss)
        for ch in changes:
            if ch.reasons:
                run.report.append({"kind": "morale", **ch.to_dict()})
    return sum(len(s) for s in statics.values())


def verse(run: Run, legal: Legal) -> None:
    u = run.state.unit(legal.action.unit)
    allies = _to_allies(run, u.key, run.t.rules.num("verse_morale"), f"Verse of {u.key}")
    sung = 1 if run.state.engaged(u) else u.verses + 1  # engaged: the earlier Verses have ended
    run.state = run.state.with_units({u.key: evolve(run.state.unit(u.key), verses=sung)})
    run.event("verse", unit=u.key, allies=allies, verses=sung)


def finale(run: Run, legal: Legal) -> None:
    u = run.state.unit(legal.action.unit)
    sung = u.verses
    amount = run.t.rules.num("finale_morale_per_verse") * sung
    allies = _to_allies(run, u.key, amount, f"Finale of {u.key} ({sung} Verse(s))")
    run.state = run.state.with_units({u.key: evolve(run.state.unit(u.key), verses=0)})
    run.event("finale", unit=u.key, verses=sung, allies=allies, morale=amount)
    run.note(f"{u.key} sings the Finale of {sung} Verse(s): +{amount:g} morale to {allies} allied unit(s); its Verses end")


def end_verses(run: Run, keys: list[str], kind: str) -> None:
    """Any action other than a Verse ends the unit's Verses ("as long as the unit does not
    perform any action other than a Verse")."""
    if kind == "verse":
        return
    units = {k: evolve(run.state.unit(k), verses=0) for k in keys if run.state.unit(k).verses}
    if units:
        run.state = run.state.with_units(units)
