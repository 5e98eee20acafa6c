"""Whole-action odds of Ex illis: the distribution of what a charge, a fight or a volley will do.

Computed, not sampled: a dynamic programme over the zone's hit-point states, strike by strike
(:mod:`.rounds`) and projectile by projectile (:mod:`.volleys`), with each draw's odds taken from
the functions the resolution itself calls (``duel_odds``, ``shot_odds``, ``damage.roll``'s
spread, the retaliation chance) and the aftermath of each round worked out by the engine's own
``finish_round`` / ``apply_morale`` on every reachable outcome (:mod:`.actions`).
"""
