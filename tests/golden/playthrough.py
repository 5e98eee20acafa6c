"""Golden playthroughs (after OpenSpiel's integration_tests/playthroughs): a seeded autoplay
battle with every action, every chance result and the final state, stored as JSON.

Regenerate deliberately, after a rules change, with::

    python tests/golden/playthrough.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from rulekeeper.rulesets.exillis.battle.engine import apply
from rulekeeper.rulesets.exillis.battle.policy import choose
from rulekeeper.rulesets.exillis.battle.setup import initial_state, state_to_dict
from rulekeeper.rulesets.exillis.battle.tables import BattleTables
from rulekeeper.rulesets.exillis.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
GOLDEN = [("examples/exillis/starter.toml", 5), ("examples/exillis/hastings.toml", 11)]


def digest(d: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def play(scenario: str, seed: int) -> dict[str, Any]:
    t = BattleTables.shipped()
    state = initial_state(load_scenario(ROOT / scenario, t.roster, t.rules), seed, t)
    steps = []
    while not state.over and len(steps) < 2000:
        lg = choose(state, t)
        assert lg is not None
        out = apply(state, lg.action, t)
        state = out.state
        steps.append({
            "action": out.action.to_dict(),
            "chance": [[c.request.label, c.outcome, c.u] for c in out.chance],
            "state": digest(state_to_dict(state)),
        })
    return {"scenario": scenario, "seed": seed, "steps": steps, "final": state_to_dict(state)}


def path_for(scenario: str, seed: int) -> Path:
    return HERE / f"{Path(scenario).stem}_seed{seed}.json"


if __name__ == "__main__":
    for sc, sd in GOLDEN:
        path_for(sc, sd).write_text(json.dumps(play(sc, sd), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print("wrote", path_for(sc, sd))
