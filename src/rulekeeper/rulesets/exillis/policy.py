"""The Ex illis default policy (the one ruleset layout's ``policy.py``): autoplay's choice.

It scores every legal action (:func:`~.battle.policy.score`) and picks the best
(:func:`~.battle.policy.choose`); the engine keeps it in :mod:`.battle.policy`.
"""

from __future__ import annotations

from .battle.policy import choose, choose_and_apply, score

__all__ = ["choose", "choose_and_apply", "score"]
