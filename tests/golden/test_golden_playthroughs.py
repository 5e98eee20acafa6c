"""Golden playthroughs are replayed action by action: same chance results (label, outcome and
the uniform number), same state after every action, same final state."""

import json

import pytest

from rulekeeper.rulesets.exillis.battle.actions import Action
from rulekeeper.rulesets.exillis.battle.engine import apply
from rulekeeper.rulesets.exillis.battle.setup import initial_state, state_to_dict
from rulekeeper.rulesets.exillis.battle.tables import BattleTables
from rulekeeper.rulesets.exillis.scenario import load_scenario

from .playthrough import GOLDEN, ROOT, digest, path_for


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_golden_playthrough_replays_exactly(scenario: str, seed: int) -> None:
    gold = json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
    t = BattleTables.shipped()
    state = initial_state(load_scenario(ROOT / scenario, t.roster, t.rules), seed, t)
    assert len(gold["steps"]) > 10
    for i, step in enumerate(gold["steps"]):
        out = apply(state, Action.from_dict(step["action"]), t)
        assert [[c.request.label, c.outcome, c.u] for c in out.chance] == step["chance"], f"step {i}"
        state = out.state
        assert digest(state_to_dict(state)) == step["state"], f"step {i}"
    assert state.over
    assert state_to_dict(state) == gold["final"]


@pytest.mark.parametrize(("scenario", "seed"), GOLDEN)
def test_golden_playthrough_is_what_the_policy_plays_today(scenario: str, seed: int) -> None:
    from .playthrough import play

    assert play(scenario, seed) == json.loads(path_for(scenario, seed).read_text(encoding="utf-8"))
