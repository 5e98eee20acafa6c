"""The Dragon Noir golden playthrough replays action by action through the game protocol: the same chance
results (label, outcome and uniform number), the same state after every action, the same final state; and it is
what the policy plays today."""

import json

import pytest

from .dragonnoir_playthrough import GOLDEN, digest, path_for, play, start


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_dragonnoir_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    assert len(gold["steps"]) > 50
    for i, step in enumerate(gold["steps"]):
        out = g.apply(state, step["action"])
        assert [[c.request.label, c.outcome, c.u] for c in out.chance] == step["chance"], f"step {i}"
        state = out.state
        assert digest(g.state_to_json(state)) == step["state"], f"step {i}"
    assert g.status(state).over
    assert g.state_to_json(state) == gold["final"]
    kinds = {s["action"]["kind"] for s in gold["steps"]}
    assert {"shoot", "move", "attack", "advance", "cast", "counter", "end_phase"} <= kinds


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_dragonnoir_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
