"""The JSON API takes an action's fields in the same typed values the Commit form sends (issue 22: "numbers
arrive as numbers"; ``web/action_form.py``): lists of names, positions, numbers. The fault this reproduces: the
API refused every list-valued field ("must be a short text, a number or null", a 422), so a Dragon Noir attack
(``{"kind": "attack", "units": ["Grast"], "targets": ["Goblin 2"]}``) could be played from the web form but
never through the API. Both doors now share one bound (``web.action_form.field_problem``) and hand the fields
to the service, which the game decodes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulekeeper.web.action_form import MAX_ITEMS, MAX_TEXT, field_problem
from rulekeeper.web.api import ActionRequest, create_app

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "dragonnoir_the_ford_seed3.json"


def test_a_dragon_noir_attack_with_lists_is_played_through_the_api(tmp_path: Path) -> None:
    steps = json.loads(GOLDEN.read_text())["steps"]
    attack = next(i for i, s in enumerate(steps) if isinstance(s["action"].get("units"), list))
    assert steps[attack]["action"] == {"kind": "attack", "side": "A", "targets": ["Goblin 2"], "units": ["Grast"]}
    client = TestClient(create_app(tmp_path / "web.db"))
    made = client.post("/api/battles", json={"scenario": "dragonnoir:the_ford", "seed": 3})
    assert made.status_code == 201, made.text
    bid, tokens = made.json()["id"], made.json()["tokens"]
    for position, step in enumerate(steps[: attack + 1]):
        action = step["action"]
        done = client.post(f"/api/battles/{bid}/actions", json={**action, "position": position},
                           headers={"X-Rulekeeper-Token": tokens[action["side"]]})
        assert done.status_code == 200, (position, done.text)
        assert done.json()["action"] == action  # logged exactly as the golden has it
    drawn = [[c["label"], c["outcome"], c["u"]] for c in done.json()["chance"]]
    assert drawn == steps[attack]["chance"] == [["combat die (foot table, column 4-1)", "1→F", 0.09412864224039919]]


def test_the_api_reads_typed_values_and_bounds_them() -> None:
    body = ActionRequest.model_validate({"position": 4, "kind": "move", "to": [37.6, 27.9], "count": 2,
                                         "charge": True, "orders": [{"unit": "Ford Horde", "order": "hold"}],
                                         "note": None})
    assert body.action() == {"kind": "move", "to": [37.6, 27.9], "count": 2, "charge": True,
                             "orders": [{"unit": "Ford Horde", "order": "hold"}]}
    assert field_problem("to", [[[[1]]]]) == "action field 'to' nests lists deeper than 3"
    assert field_problem("units", ["x"] * (MAX_ITEMS + 1)) == f"action field 'units' holds more than {MAX_ITEMS} values"
    assert field_problem("unit", "x" * (MAX_TEXT + 1)) == f"action field 'unit' is longer than {MAX_TEXT} characters"
    assert field_problem("to", [float("nan"), 1]) == "action field 'to' holds a number that is not finite"
    with pytest.raises(ValueError, match="nests lists deeper"):
        ActionRequest.model_validate({"position": 0, "to": [[[[1]]]]})


def test_a_wrong_type_through_the_api_is_a_4xx_naming_the_field(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "web.db"))
    made = client.post("/api/battles", json={"scenario": "dragonnoir:the_ford", "seed": 3}).json()
    refused = client.post(f"/api/battles/{made['id']}/actions",
                          json={"kind": "attack", "side": "A", "units": [["Grast"]], "targets": 7, "position": 0},
                          headers={"X-Rulekeeper-Token": made["tokens"]["A"]})
    assert 400 <= refused.status_code < 500, refused.text
    assert refused.json()["error"] in ("illegal_action", "invalid_action", "unknown_name"), refused.text
