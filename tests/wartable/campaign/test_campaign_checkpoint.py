"""A campaign's checkpoints keep its unchanging parts as one JSON text, encoded once (issue 22: stored ÷
engine ≤ 2×), and campaigns stored before keep their full checkpoints: both forms read back and replay."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import SPECTATOR, SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.persistence.store import BattleStore
from rulekeeper.rulesets.wartable.campaign import checkpoint
from rulekeeper.service.battles import BattleService

ROOT = Path(__file__).resolve().parents[3]
SHROUDFALL = ROOT / "examples" / "wartable" / "shroudfall.yaml"
#: The golden Shroudfall campaign (seed 7) after its last action, as checkpoints were written before issue 22.
FULL_FORM = Path(__file__).with_name("shroudfall_seed7_full_form.json")
G = game("wartable-campaign")


def played(document: dict, actions: int) -> list:  # type: ignore[type-arg]
    states = [G.initial_state(document)]
    for _ in range(actions):
        states.append(G.apply(states[-1], G.policy(states[-1])).state)
    return states


def test_a_new_campaign_checkpoints_only_what_changes_and_each_checkpoint_stands_alone() -> None:
    document = G.setup(SetupRequest(scenario=SHROUDFALL, seed=1)).document
    assert document["checkpoint"] == "compact" and "regions" in document["campaign"]  # the full form, marked
    states = played(document, 2)
    docs = [G.state_to_json(s) for s in states]
    assert [sorted(d) for d in docs[:1]] == [["enclaves", "faith", "fixed", "history", "last_log", "pending",
                                               "rng", "round", "ruleset", "units"]]
    assert docs[2]["fixed"] is docs[0]["fixed"]  # encoded once for the campaign, not at every action
    assert docs[2]["units"]["Ford Horde"] == {"region": "Greywold", "health": 120, "items": []}  # marched from Ashen Ford
    fixed = json.loads(docs[0]["fixed"])
    assert fixed["tables"]["delve_example"]["entries"][0]["result"] == "Collapse"
    assert [u["profile"]["name"] for u in fixed["units"]][:2] == ["Oathsworn Vanguard", "Oathsworn Vanguard"]
    checkpoint._RECENT.clear()  # as in a fresh process: the checkpoint alone rebuilds the state
    text = json.dumps(docs[2])
    back = G.state_from_json(json.loads(text))
    assert back == states[2] and json.dumps(G.state_to_json(back)) == text
    assert G.view(back, SPECTATOR) == G.view(replace(back, compact=False), SPECTATOR)  # views: the full form


def test_a_campaign_stored_before_keeps_full_checkpoints_and_replays_byte_for_byte(tmp_path: Path) -> None:
    old = json.loads(FULL_FORM.read_text(encoding="utf-8"))
    state = G.state_from_json(old)
    assert not state.compact and G.state_to_json(state) == old
    golden = json.loads((ROOT / "tests" / "golden" / "wartable_campaign_shroudfall_seed7.json").read_text("utf-8"))
    assert G.state_from_json(golden["final"]) == replace(state, compact=True)  # the same campaign, both forms
    setup = G.setup(SetupRequest(scenario=SHROUDFALL, seed=1))
    unmarked = {k: v for k, v in setup.document.items() if k != "checkpoint"}  # an initial document from before
    svc = BattleService(BattleStore(tmp_path / "c.db"))
    bid = svc.new(replace(setup, document=unmarked))
    svc.autoplay(bid, max_actions=3)
    stored = svc.store.checkpoint(bid, 3)
    assert stored is not None and "regions" in stored["campaign"] and "checkpoint" not in stored
    assert svc.replay(bid).identical and not svc.state(bid).compact


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: d.update(fixed="{"), "fixed: not JSON"),
    (lambda d: d.update(fixed=7), "fixed: expected the JSON text"),
    (lambda d: d["units"].pop("Ford Horde"), "units: expected an entry for each of"),
    (lambda d: d["faith"].update(Nobody=1), "faith: expected an entry for each of"),
])
def test_a_damaged_compact_checkpoint_is_refused_naming_the_field(damage, message) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(json.dumps(G.state_to_json(played(G.setup(SetupRequest(scenario=SHROUDFALL)).document, 1)[1])))
    damage(doc)
    with pytest.raises(RulekeeperError, match=f"the stored War Table campaign is damaged: {message}"):
        G.state_from_json(doc)
