"""Ex illis (seed 000_5e8e85320d1136c5.txt): weighted random draws, AR 2.5, fatigue curves.

The flagship ruleset. Combat mathematics live in small modules named after the
rulebook's own sections: :mod:`.asymptotic` (AR 2.5), :mod:`.fatigue`, :mod:`.melee`,
:mod:`.ranged`, :mod:`.spells`, :mod:`.morale`, :mod:`.damage`. The registered class,
:class:`.game.ExIllis` (entry point ``rulekeeper.rulesets.exillis.game:ExIllis``), is in :mod:`.game`.
"""

from __future__ import annotations

from .game import ExIllis, ExIllisBattles

__all__ = ["ExIllis", "ExIllisBattles"]
