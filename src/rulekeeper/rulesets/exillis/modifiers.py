"""Applying, replacing and ending temporary modifiers: the one mechanism every effect uses.

Seed (Morale Modifiers): "Two types of modifiers can have an effect on a unit's morale during the
game: dynamic modifiers, which fluctuate throughout the game, and static modifiers, which, once
applied, last for the whole game." A static change is added to the statistic's base
(:func:`shift`); a dynamic one is a :class:`~.combatants.Modifier` kept beside it
(:func:`put`, :func:`end`). The value the rules read is the base plus the live modifiers,
clamped only when read (:attr:`.combatants.Combatant.morale`), so a floor or a cap never turns
into a gain when a modifier ends. What keeps each cause alive is decided in
:mod:`.battle.lifetimes`.
"""

from __future__ import annotations

from .combatants import Combatant, Modifier
from .fastcopy import evolve


def shift(c: Combatant, amount: float) -> Combatant:
    """A static change of morale (a casualty witnessed, a flank charge, a Rally...): into the base."""
    return evolve(c, morale_base=c.morale_base + amount)


def put(c: Combatant, m: Modifier) -> Combatant:
    """Apply ``m``, replacing the modifier of the same stat, cause and source (0: end it)."""
    kept = tuple(x for x in c.modifiers if (x.stat, x.cause, x.source) != (m.stat, m.cause, m.source))
    return evolve(c, modifiers=kept + ((m,) if m.amount else ()))


def add(c: Combatant, m: Modifier) -> Combatant:
    """Stack ``m`` onto the modifier of the same stat, cause and source (a second Verse of one singer)."""
    old = find(c, m.cause, m.source, m.stat)
    return put(c, m if old is None else Modifier(m.stat, old.amount + m.amount, m.cause, m.source))


def find(c: Combatant, cause: str, source: str = "", stat: str = "morale") -> Modifier | None:
    return next((x for x in c.modifiers if (x.stat, x.cause, x.source) == (stat, cause, source)), None)


def end(c: Combatant, cause: str, source: str | None = None) -> Combatant:
    """End every modifier of ``cause`` (of one ``source`` only, when given): what it gave is taken back."""
    kept = tuple(x for x in c.modifiers if not (x.cause == cause and (source is None or x.source == source)))
    return c if len(kept) == len(c.modifiers) else evolve(c, modifiers=kept)
