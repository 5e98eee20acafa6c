"""Dragon Noir's golden playthrough: a seeded autoplay battle through the game protocol, every action, every
chance result (label, outcome, uniform number) and the state after each.

Regenerate deliberately, after a rules change, with::

    python tests/golden/dragonnoir_playthrough.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SCENARIO_DIR = "src/rulekeeper/rulesets/dragonnoir/data/scenarios"
GOLDEN = [(f"{SCENARIO_DIR}/the_ford.yaml", 3)]


def digest(d: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def start(scenario: str, seed: int) -> Any:
    g = game("dragonnoir")
    return g, g.initial_state(g.setup(SetupRequest(scenario=ROOT / scenario, seed=seed)).document)


def play(scenario: str, seed: int) -> dict[str, Any]:
    g, state = start(scenario, seed)
    steps: list[dict[str, Any]] = []
    while not g.status(state).over and len(steps) < 2000:
        out = g.apply(state, g.policy(state))
        state = out.state
        steps.append({"action": out.action, "chance": [[c.request.label, c.outcome, c.u] for c in out.chance],
                      "state": digest(g.state_to_json(state))})
    return {"scenario": scenario, "seed": seed, "steps": steps, "final": g.state_to_json(state)}


def path_for(scenario: str, seed: int) -> Path:
    return HERE / f"dragonnoir_{Path(scenario).stem}_seed{seed}.json"


if __name__ == "__main__":
    for sc, sd in GOLDEN:
        path_for(sc, sd).write_text(json.dumps(play(sc, sd), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print("wrote", path_for(sc, sd))
