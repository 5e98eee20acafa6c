"""The codes the compiled particle loops (:mod:`.particle_kernels`) read for what a draw's outcome does.

Kept apart from the kernels so the samplers can build their tables without importing numba.
"""

from __future__ import annotations

# where a projectile falls (:data:`.sampled_volley._KIND`): nothing, Bad Luck, an enemy, Luck, an ally
FALLS_NOWHERE, FALLS_BAD, FALLS_ENEMY, FALLS_LUCK, FALLS_ALLY = 0, 1, 2, 3, 4

# what a roll to hit does (:meth:`.sampled_round._Sampler.assigned`): nothing (a miss), Bad Luck, damage (Attack,
# Luck), damage then a chance to retaliate (Blocked), only that chance (Evaded, Deflected)
MISS, BAD_LUCK, ATTACK, LUCK, BLOCKED, DEFENDED = 0, 1, 2, 3, 4, 5
