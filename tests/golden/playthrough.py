"""Golden playthroughs (after OpenSpiel's integration_tests/playthroughs): a seeded autoplay
battle with every action, every chance result and the final state, stored as JSON.

Regenerate deliberately, after a rules change, with::

    python tests/golden/playthrough.py

:func:`autoplay`, :func:`digest` and :func:`regenerate` are every golden playthrough's;
:func:`protocol_start` and :func:`protocol_play` play any registered game through the game protocol
(the Battle System's, ``battlesystem_playthrough.py``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.exillis.battle.engine import apply
from rulekeeper.rulesets.exillis.battle.policy import choose
from rulekeeper.rulesets.exillis.battle.setup import initial_state, state_to_dict
from rulekeeper.rulesets.exillis.battle.tables import BattleTables
from rulekeeper.rulesets.exillis.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
GOLDEN = [("examples/exillis/starter.yaml", 5), ("examples/exillis/hastings.yaml", 11)]


def digest(d: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def autoplay(state: Any, over: Callable[[Any], bool], move: Callable[[Any], Any],
             as_json: Callable[[Any], dict[str, Any]]) -> tuple[list[dict[str, Any]], Any]:
    """(steps, final state) of a battle played from ``state`` until ``over`` (at most 2000 actions), each
    action picked and applied by ``move``; a step is the action, every chance result (label, outcome,
    uniform number) and a digest of the state after it, which is what a replay must meet again."""
    steps: list[dict[str, Any]] = []
    while not over(state) and len(steps) < 2000:
        out = move(state)
        state = out.state
        steps.append({
            "action": out.action if isinstance(out.action, dict) else out.action.to_dict(),
            "chance": [[c.request.label, c.outcome, c.u] for c in out.chance],
            "state": digest(as_json(state)),
        })
    return steps, state


def protocol_start(name: str, scenario: str, seed: int) -> tuple[Any, Any]:
    """(game, initial state) of the registered game ``name`` on ``scenario`` (a path from the repository
    root) set up with ``seed``."""
    g = game(name)
    return g, g.initial_state(g.setup(SetupRequest(scenario=ROOT / scenario, seed=seed)).document)


def protocol_play(name: str, scenario: str, seed: int) -> dict[str, Any]:
    """The golden record of the registered game ``name`` played by its own policy through the protocol."""
    g, state = protocol_start(name, scenario, seed)
    steps, state = autoplay(state, lambda now: g.status(now).over, lambda now: g.apply(now, g.policy(now)),
                            g.state_to_json)
    return {"scenario": scenario, "seed": seed, "steps": steps, "final": g.state_to_json(state)}


def assert_replays(g: Any, state: Any, gold: dict[str, Any], min_steps: int) -> set[str]:
    """Replay a golden file action by action through the protocol from ``state``: the same chance results
    (label, outcome and uniform number), the same state digest after every action, the same final state, a
    battle that is over. Returns the action kinds it played, for the caller's "it covers" check."""
    assert len(gold["steps"]) > min_steps
    for i, step in enumerate(gold["steps"]):
        out = g.apply(state, step["action"])
        assert [[c.request.label, c.outcome, c.u] for c in out.chance] == step["chance"], f"step {i}"
        state = out.state
        assert digest(g.state_to_json(state)) == step["state"], f"step {i}"
    assert g.status(state).over
    assert g.state_to_json(state) == gold["final"]
    return {s["action"]["kind"] for s in gold["steps"]}


def play(scenario: str, seed: int) -> dict[str, Any]:
    t = BattleTables.shipped()
    state = initial_state(load_scenario(ROOT / scenario, t.roster, t.rules), seed, t)

    def move(now: Any) -> Any:
        lg = choose(now, t)
        assert lg is not None
        return apply(now, lg.action, t)

    steps, state = autoplay(state, lambda now: now.over, move, state_to_dict)
    return {"scenario": scenario, "seed": seed, "steps": steps, "final": state_to_dict(state)}


def path_for(scenario: str, seed: int) -> Path:
    return HERE / f"{Path(scenario).stem}_seed{seed}.json"


def regenerate(golden: Iterable[tuple[str, int]], play: Callable[[str, int], dict[str, Any]],
               path_for: Callable[[str, int], Path]) -> None:
    """Write the golden file of every (scenario, seed) of ``golden`` afresh."""
    for sc, sd in golden:
        path_for(sc, sd).write_text(json.dumps(play(sc, sd), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print("wrote", path_for(sc, sd))


if __name__ == "__main__":
    regenerate(GOLDEN, play, path_for)
