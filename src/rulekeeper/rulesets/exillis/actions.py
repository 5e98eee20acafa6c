"""The Ex illis actions (the one ruleset layout's ``actions.py``): typed, with their legal list.

An action is :class:`~.battle.actions.Action` (kind, unit, target, option), listed with its odds
and cost as :class:`~.battle.actions.Legal` by :func:`~.battle.actions.legal_actions`; the engine
keeps them in :mod:`.battle.actions`, and this module names them where the layout says they are.
"""

from __future__ import annotations

from .battle.actions import Action, Legal, find_legal, legal_actions

__all__ = ["Action", "Legal", "find_legal", "legal_actions"]
