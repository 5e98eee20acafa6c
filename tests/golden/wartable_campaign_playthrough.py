"""The War Table campaign's golden playthrough: the shipped three-round Shroudfall campaign, seed 7,
with the orders of ``tests/wartable/campaign/test_campaign_rounds.py`` given through the game
protocol (each side's orders one action, both sides in turn), every chance result (label, outcome,
uniform number) and a digest of the state after each action.

Regenerate deliberately, after a rules change, with::

    python tests/golden/wartable_campaign_playthrough.py
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
SCENARIO = ROOT / "examples" / "wartable" / "shroudfall.yaml"
SEED = 7
GOLDEN = HERE / "wartable_campaign_shroudfall_seed7.json"

#: The orders, in the order the sides give them (round 2: the Bloodless give theirs first).
ORDERS: list[dict[str, Any]] = [
    {"kind": "orders", "side": "oathsworn", "faith": ["Lantern Hill"], "orders": [
        {"unit": "Hearthmere Guard", "order": "reclaim"},
        {"unit": "Lantern Wardens", "order": "move", "target": "Lantern Hill"}]},
    {"kind": "orders", "side": "bloodless", "orders": [
        {"unit": "Barrow Horde", "order": "delve"}, {"unit": "Ford Horde", "order": "move", "target": "Old Watch"}]},
    {"kind": "orders", "side": "bloodless", "orders": [{"unit": "Ford Horde", "order": "move", "target": "Lantern Hill"}]},
    {"kind": "orders", "side": "oathsworn", "orders": []},
    {"kind": "orders", "side": "oathsworn", "orders": []},
    {"kind": "orders", "side": "bloodless", "orders": [
        {"unit": "Ford Horde", "order": "attack", "target": "Lantern Wardens"}]},
]


def digest(d: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def start() -> Any:
    g = game("wartable-campaign")
    return g, g.initial_state(g.setup(SetupRequest(scenario=SCENARIO, seed=SEED)).document)


def play() -> dict[str, Any]:
    g, state = start()
    steps = []
    for given in ORDERS:
        out = g.apply(state, g.parse_action(state, given))
        state = out.state
        steps.append({"action": out.action, "chance": [[c.request.label, c.outcome, c.u] for c in out.chance],
                      "report": [item["text"] for item in out.report], "state": digest(g.state_to_json(state))})
    return {"scenario": "examples/wartable/shroudfall.yaml", "seed": SEED, "steps": steps,
            "final": g.state_to_json(state)}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(play(), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote", GOLDEN)
