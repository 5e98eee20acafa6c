"""Chant (the Mendicum): Verses and their Finale.

Seed, Chant: "Verses affect every allied unit within a range of 2 zones. Verses' effects are
continuous, as long as the unit does not perform any action other than a Verse, or becomes
engaged. The same Verse cast by 2 different units has a cumulative effect. A Finale's power is
proportional to the number of Verses used by this unit, but ends all active Verses."

Decisions (docs/rules/exillis-battles.md): a Verse is a dynamic morale modifier (cause ``verse``,
source the singer) on every ally within 2 zones (the singer included): ``verse_morale`` (+5,
estimate) × the ally's Morale Sensitivity per Verse, stacked on one modifier per singer. It lives
while the singer keeps singing (``BattleUnit.verses`` > 0), is on the board, not engaged, and the
ally stays within 2 zones (:mod:`.lifetimes` ends it otherwise, taking back exactly what it gave).
Any other action ends the singer's Verses; a Verse is not offered while engaged (it would end at
once). A Finale, offered once at least one Verse is active and the unit is not engaged, gives
``finale_morale_per_verse`` (+5, estimate) × the Verses sung to every ally within 2 zones as a
static modifier, then ends the Verses (count 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.boards.zones import Coord
from rulekeeper.core.wording import counted

from ..aftermath import MoraleChange, StaticModifier, sensitivity
from ..combatants import Modifier
from ..fastcopy import evolve
from ..modifiers import add
from ..morale import state_of
from .morale_loop import morale_in_zone
from .state import BattleState, BattleUnit

if TYPE_CHECKING:
    from .actions import Legal
    from .engine import Run

CHANT_RANGE = 2  # "every allied unit within a range of 2 zones"


def _in_range(state: BattleState, singer: BattleUnit) -> list[BattleUnit]:
    """The allies a Verse of ``singer`` reaches: on the board within 2 zones (itself included);
    a hero with a retinue is left out (it has its retinue's morale)."""
    assert singer.zone is not None
    return [x for x in state.units if x.side == singer.side and x.on_board and x.zone is not None
            and state.board.distance(x.zone, singer.zone) <= CHANT_RANGE
            and not (x.is_hero and x.retinue is not None and state.unit(x.retinue).on_board)]


def _to_allies(run: Run, key: str, amount: float, reason: str) -> int:
    """``amount`` static morale to every ally within 2 zones of ``key`` (itself included); returns how many."""
    u = run.state.unit(key)
    statics: dict[Coord, list[StaticModifier]] = {}
    for x in _in_range(run.state, u):
        assert x.zone is not None
        statics.setdefault(x.zone, []).append(StaticModifier(x.key, amount, reason))
    for z, ss in statics.items():
        run.state, changes = morale_in_zone(run.state, z, [], ss)
        for ch in changes:
            if ch.reasons:
                run.report.append({"kind": "morale", **ch.to_dict()})
    return sum(len(s) for s in statics.values())


def verse(run: Run, legal: Legal) -> None:
    """"Verses' effects are continuous": one more Verse on every ally within 2 zones (a modifier)."""
    u = run.state.unit(legal.action.unit)
    per = run.t.rules.num("verse_morale")
    units: dict[str, BattleUnit] = {}
    allies = _in_range(run.state, u)
    for x in allies:
        amount = per * sensitivity(x.c, run.state.options)
        c = add(x.c, Modifier("morale", amount, "verse", u.key))
        units[x.key] = evolve(x, c=c)
        run.report.append({"kind": "morale", **MoraleChange(
            x.key, x.c.morale, c.morale, state_of(x.c), state_of(c), (f"Verse of {u.key}: {amount:+.1f}",)).to_dict()})
    sung = u.verses + 1
    units[u.key] = evolve(units.get(u.key, u), verses=sung)
    run.state = run.state.with_units(units)
    run.event("verse", unit=u.key, allies=len(allies), verses=sung)


def finale(run: Run, legal: Legal) -> None:
    u = run.state.unit(legal.action.unit)
    sung = u.verses
    amount = run.t.rules.num("finale_morale_per_verse") * sung
    allies = _to_allies(run, u.key, amount, f"Finale of {u.key} ({counted(sung, 'Verse')})")
    run.state = run.state.with_units({u.key: evolve(run.state.unit(u.key), verses=0)})
    run.event("finale", unit=u.key, verses=sung, allies=allies, morale=amount)
    run.note(f"{u.key} sings the Finale of {counted(sung, 'Verse')}: +{amount:g} morale to {counted(allies, 'allied unit')}; its Verses end")


def end_verses(run: Run, keys: list[str], kind: str) -> None:
    """Any action other than a Verse ends the unit's Verses ("as long as the unit does not
    perform any action other than a Verse"); their modifiers end in :func:`.lifetimes.lapse`."""
    if kind == "verse":
        return
    units = {k: evolve(run.state.unit(k), verses=0) for k in keys if run.state.unit(k).verses}
    if units:
        run.state = run.state.with_units(units)
