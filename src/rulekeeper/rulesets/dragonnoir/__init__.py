"""Dragon Noir 1: L'Exil (Duccio Vitale, Eurogames 1990): a character-level hex skirmish.

The calculator: the game sheet's tables as editable data (:mod:`.data`), combat odds
(:mod:`.combat`), movement costs and the mount/dismount conversion (:mod:`.movement`), the line of
fire (:mod:`.fire`) and fire odds (:mod:`.fireodds`). Whole battles on the game protocol: the
battle half of the registered class (:class:`.game.DragonNoirBattles`: state, the four-step player turn,
scenarios, policy, the terminal map and the web keeper's SVG map). See ``docs/rules/dragonnoir.md``
for every rules decision and estimate.
"""

from __future__ import annotations

from .game import OPTION_INFO, DragonNoir, DragonNoirBattles

__all__ = ["OPTION_INFO", "DragonNoir", "DragonNoirBattles"]
