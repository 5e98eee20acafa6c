"""The combat report's JSON form is typed (report_json.py): the report drawn again from a stored battle's log
is checked against it, so a damaged log is a typed error naming the place, not a KeyError in the renderer."""

from __future__ import annotations

import json

import pytest

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.wartable.attack_log import combat_from_items

G = game("wartable")


def resolved_items() -> tuple[list[dict], dict]:  # type: ignore[type-arg]
    info = next(i for i in G.scenarios() if i.key == "bloodless_assault_on_enclave")
    state = G.initial_state(G.setup(SetupRequest(scenario=info.path)).document)
    state = G.apply(state, G.policy(state)).state
    out = G.apply(state, G.policy(state))
    return json.loads(json.dumps(list(out.report))), json.loads(json.dumps(out.state.report.to_dict()))


def test_the_report_read_back_from_the_log_is_the_report() -> None:
    items, report = resolved_items()
    back = combat_from_items(items)
    assert back == report and [s["step"] for s in back["steps"]] == [1, 2, 3, 4, 5, 6]
    assert back["stability"] is not None and back["stability"]["enclave"] == report["stability"]["enclave"]


def test_a_damaged_logged_report_is_refused_naming_the_place() -> None:
    items, _ = resolved_items()
    items[1]["rows"][0]["health"] = "lots"  # step 1, the first combatant
    with pytest.raises(RulekeeperError, match=r"damaged: steps\.0\.Step1\.rows\.0\.health") as refused:
        combat_from_items(items)
    assert "'lots'" in refused.value.message
