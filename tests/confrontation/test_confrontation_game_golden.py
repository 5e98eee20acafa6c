"""Confrontation's golden playthrough (tests/golden/confrontation_ruined_wall_seed7.json) replays action by
action through the game protocol: the same chance results (label, outcome, uniform number), the same state
after every action, the same final state; and it is what the policy plays today.

It depends on the duel, the Wound Table and the skirmish rules: after a deliberate rules change, regenerate
it with ``python tests/golden/confrontation_playthrough.py``.
"""

from __future__ import annotations

import json

import pytest

from golden.confrontation_playthrough import GOLDEN, path_for, play, start
from golden.playthrough import assert_replays


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_confrontation_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    g, state = start(scenario, seed)
    assert {"move", "charge", "fight"} <= assert_replays(g, state, gold, min_steps=20)
    labels = {c[0].split(":")[0] for s in gold["steps"] for c in s["chance"]}
    assert {"INI test", "ATT test", "DEF test", "damage roll", "maintenance", "COU test"} <= labels


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_confrontation_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
