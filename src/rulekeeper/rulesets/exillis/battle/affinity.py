"""Motives × Affinities: the Leadership a hero's cause gives a unit beyond the Basic Motive.

Seed, Characters: "Every Hero has Motives (reasons for fighting) and each unit has Affinities
(feeling of belonging to a certain cause). The Leadership that comes out of it is the result of
all of the Hero's Motives multiplied by all of his/her Retinue's Affinities." Stats: "the
Longbowmen's 'English' Affinity is set to 150% while the Broken Wing Hero has an 'English' Motive
of 10. A Longbowmen unit led by the Broken Wing Hero will receive a Leadership bonus of 15
(10 x 150%)."

Decisions (docs/rules/exillis-battles.md):
- A hero fights for the faction its army is named after, when that is one of the hero's
  factions (the starter musters are "the defenders of the Brec'Helean, the raiders of the Broken
  Wing"); otherwise it has only its Basic Motive.
- A unit takes the best of the Basic Motive and each faction Motive × its Affinity for that
  cause, so the printed example gives exactly 15 (not 10 + 15): the Basic Motive is what
  "Almost all units will benefit from" when they share nothing with the hero.
"""

from __future__ import annotations

from functools import lru_cache

from ..musters_data import load_musters_data
from ..profiles import normalise_name
from .state import BattleState, BattleUnit
from .tables import BattleTables


def faction_of(state: BattleState, hero: BattleUnit) -> str | None:
    """The faction ``hero`` fights for in this battle: its army's name, if it is one of its factions."""
    return _faction(dict(state.armies).get(hero.side, ""), hero.name)


@lru_cache(maxsize=1024)
def _faction(army: str, hero: str) -> str | None:
    """:func:`faction_of` by the army's and the hero's names (the shipped musters never change in a process):
    every unit's Leadership asks it after every death, ~10 times an action in a simulation (issue 28)."""
    key = normalise_name(army)
    return next((f for f in load_musters_data().hero_factions(hero) if normalise_name(f) == key), None)


def cause_leadership(state: BattleState, hero: BattleUnit, u: BattleUnit, t: BattleTables) -> float:
    """The largest faction Motive × Affinity ``u`` shares with ``hero`` (0 when none)."""
    faction = faction_of(state, hero)
    if faction is None:
        return 0.0
    motives = t.rules.motives.get(faction, {})
    affinities = t.rules.affinities.get(u.name, {})
    return max((m.value * affinities[c].value for c, m in motives.items()
                if c in affinities), default=0.0)
