"""The balance lab: any game simulated many times, unit duels, matchup sweeps, house-rule comparisons.

Rule-system neutral, like ``service``/``web``/``cli``: the lab reaches a game only through the
game protocol (:mod:`rulekeeper.core.game`) and the duel interface (:mod:`rulekeeper.core.duels`),
never by importing ``rulekeeper.rulesets``. See ``docs/lab.md``.
"""
