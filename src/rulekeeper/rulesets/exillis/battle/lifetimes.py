"""No modifier outlives its cause: after every action, each live modifier whose cause has ended ends.

- ``intimidation``: "Intimidation represents how the unit perceives its own chance of coming out
  of the melee victorious" — it lives while the unit stands in a melee (:func:`.morale_loop.in_melee`).
- ``verse``: "Verses' effects are continuous, as long as the unit does not perform any action
  other than a Verse, or becomes engaged." — it lives while its singer has Verses going, is on
  the board, not fleeing and not engaged, and the ally is within the Verses' 2 zones. A singer
  that becomes engaged, routs or leaves the board stops singing (its count returns to 0).
- ``leadership``: "Leadership is considered to be a dynamic modifier, since the unit loses the
  bonus when the leader dies" — :func:`.morale_loop.after_deaths` turns the lost part into the
  seed's permanent penalty.

Ending a modifier takes back exactly what it gave: the base is untouched and the floor or cap is
applied only where morale is read (:attr:`..combatants.Combatant.morale`).
"""

from __future__ import annotations

from ..aftermath import MoraleChange
from ..fastcopy import evolve
from ..modifiers import end
from ..morale import state_of
from .chant import CHANT_RANGE
from .morale_loop import lapse_intimidation
from .state import BattleState, BattleUnit


def singing(state: BattleState, singer: BattleUnit) -> bool:
    """A singer's Verses go on: it has sung some, is on the board, not fleeing and not engaged."""
    return singer.verses > 0 and singer.on_board and not singer.c.fleeing and not state.engaged(singer)


def verse_alive(state: BattleState, u: BattleUnit, singer_key: str) -> bool:
    """The Verses of ``singer_key`` still reach ``u``."""
    singer = state.unit(singer_key)
    if not (singing(state, singer) and u.on_board and u.zone is not None and singer.zone is not None):
        return False
    if u.is_hero and u.retinue is not None and state.unit(u.retinue).on_board:
        return True  # a hero has its retinue's morale (and so its Verses)
    return state.board.distance(u.zone, singer.zone) <= CHANT_RANGE


def lapse_verses(state: BattleState) -> tuple[BattleState, list[MoraleChange]]:
    """Singers that stopped stop counting; Verse modifiers whose singer stopped, or out of range, end."""
    units: dict[str, BattleUnit] = {}
    for s in state.units:
        if s.verses and not singing(state, s):
            units[s.key] = evolve(s, verses=0)
    if units:
        state = state.with_units(units)
        units = {}
    changes: list[MoraleChange] = []
    for u in state.units:
        gone = sorted({m.source for m in u.c.modifiers if m.cause == "verse" and not verse_alive(state, u, m.source)})
        if not gone:
            continue
        c = u.c
        for src in gone:
            c = end(c, "verse", src)
        units[u.key] = evolve(u, c=c)
        changes.append(MoraleChange(u.key, u.c.morale, c.morale, state_of(u.c), state_of(c),
                                    tuple(f"the Verses of {src} end" for src in gone)))
    return (state.with_units(units) if units else state), changes


def lapse(state: BattleState) -> tuple[BattleState, list[MoraleChange]]:
    """End every modifier whose cause has ended (Intimidation, Verses)."""
    state, ended = lapse_intimidation(state)
    state, verses = lapse_verses(state)
    return state, ended + verses
