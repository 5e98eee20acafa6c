"""Confrontation's golden playthrough: a seeded autoplay skirmish through the game protocol, every
action, every chance result (label, outcome, uniform number) and the state after each.

Regenerate deliberately, after a rules change (the duel, the Wound Table, the skirmish), with::

    python tests/golden/confrontation_playthrough.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game

try:  # imported by the tests, in the golden package
    from .playthrough import autoplay, regenerate
    from .playthrough import digest as digest
except ImportError:  # run as a script: python tests/golden/confrontation_playthrough.py
    from playthrough import autoplay, regenerate  # type: ignore[no-redef]
    from playthrough import digest as digest  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SCENARIO_DIR = "src/rulekeeper/rulesets/confrontation/data/scenarios"
GOLDEN = [(f"{SCENARIO_DIR}/ruined_wall.yaml", 7)]


def start(scenario: str, seed: int) -> Any:
    g = game("confrontation")
    return g, g.initial_state(g.setup(SetupRequest(scenario=ROOT / scenario, seed=seed)).document)


def play(scenario: str, seed: int) -> dict[str, Any]:
    g, state = start(scenario, seed)
    steps, state = autoplay(state, lambda now: g.status(now).over, lambda now: g.apply(now, g.policy(now)),
                            g.state_to_json)
    return {"scenario": scenario, "seed": seed, "steps": steps, "final": g.state_to_json(state)}


def path_for(scenario: str, seed: int) -> Path:
    return HERE / f"confrontation_{Path(scenario).stem}_seed{seed}.json"


if __name__ == "__main__":
    regenerate(GOLDEN, play, path_for)
