"""A toy game on the game protocol, for the conformance test and the architecture walk-through.

It is a plugin exactly as a third-party rule system would be, except that it is registered
for one test process with :func:`rulekeeper.core.ruleset.register_for_tests` instead of an
entry point.
"""

from .game import PICKS, SCENARIO_DIR, ToyGame, ToyState

__all__ = ["PICKS", "SCENARIO_DIR", "ToyGame", "ToyState"]
