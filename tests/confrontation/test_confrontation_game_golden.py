"""Confrontation's golden playthrough (tests/golden/confrontation_ruined_wall_seed7.json) replays action by
action through the game protocol: the same chance results (label, outcome, uniform number), the same state
after every action, the same final state; and it is what the policy plays today.

It depends on the duel, the Wound Table and the skirmish rules: after a deliberate rules change, regenerate
it with ``python tests/golden/confrontation_playthrough.py``.
"""

from __future__ import annotations

import json

import pytest

from golden.confrontation_playthrough import GOLDEN, digest, path_for, play, start


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_confrontation_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    assert len(gold["steps"]) > 20
    for i, step in enumerate(gold["steps"]):
        out = g.apply(state, step["action"])
        assert [[c.request.label, c.outcome, c.u] for c in out.chance] == step["chance"], f"step {i}"
        state = out.state
        assert digest(g.state_to_json(state)) == step["state"], f"step {i}"
    assert g.status(state).over
    assert g.state_to_json(state) == gold["final"]
    assert {"move", "charge", "fight"} <= {s["action"]["kind"] for s in gold["steps"]}
    labels = {c[0].split(":")[0] for s in gold["steps"] for c in s["chance"]}
    assert {"INI test", "ATT test", "DEF test", "damage roll", "maintenance"} <= labels


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_confrontation_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
