"""Confrontation's typed actions (``action_types.ACTIONS``) write exactly the JSON the log always stored.

Every action of the golden playthrough, and one action of every kind in every shape the offers, ``parse_action``
and the log have written (optional keys absent or there, Concentration's points in COMBAT order, an absorb's
``from``), decodes and encodes back to the same bytes, key order included; a malformed one is a typed refusal
naming its field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden.confrontation_playthrough import GOLDEN as GOLDEN_RUNS
from golden.confrontation_playthrough import start
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.rulesets.confrontation.action_types import (
    ACTIONS,
    Absorb,
    ByFighter,
    Charge,
    Concentrate,
    Points,
    ToPoint,
)
from rulekeeper.rulesets.confrontation.checks import KINDS

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "confrontation_ruined_wall_seed7.json"
GOLDEN_RUN = GOLDEN_RUNS[0]
SIDE = {"side": "A", "fighter": "Alahan guard"}
#: One action of each kind, in every shape the offers and parse_action write (key order as logged).
SHAPES = [
    *({"kind": k, **SIDE} for k in ("hold", "fight", "tactical", "flee", "stay", "remove", "keep", "authority",
                                    "decline", "pass", "allow", "force", "ready", "counter", "let", "steady", "react",
                                    "withhold")),
    *({"kind": k, **SIDE, "to": [30.5, 20.0]} for k in ("move", "leap", "cover", "return")),
    {"kind": "cure", **SIDE, "target": "Alahan swordsman"},
    {"kind": "cure", **SIDE},
    {"kind": "charge", **SIDE, "target": "Wolfen hunter"},
    {"kind": "charge", **SIDE, "target": "Wolfen hunter", "leap": True},
    {"kind": "charge", **SIDE, "target": "Wolfen hunter", "assault": True},
    {"kind": "pursue", **SIDE, "target": "Wolfen hunter"},
    {"kind": "pursue", **SIDE, "target": "Wolfen hunter", "leap": True},
    {"kind": "shoot", **SIDE, "target": "Wolfen hunter"},
    {"kind": "cast", **SIDE, "spell": "Blessing", "target": "Alahan guard"},
    {"kind": "disengage", **SIDE, "test": "INI", "to": [12.3, 4.0]},
    {"kind": "split", **SIDE, "apart": ["Wolfen hunter", "Alahan archer"]},
    {"kind": "authority_split", **SIDE, "apart": []},
    {"kind": "lead", **SIDE, "first": "B"},
    {"kind": "concentrate", **SIDE, "points": {"ATT": 2, "DEF": 1}},
    {"kind": "absorb", **SIDE, "from": ["Alahan archer", "Alahan priest"]},
]


def _again(action: dict[str, object]) -> str:
    return json.dumps(ACTIONS.encode(ACTIONS.decode(action)))


def test_every_action_of_the_golden_playthrough_encodes_to_its_logged_bytes() -> None:
    steps = json.loads(GOLDEN.read_text(encoding="utf-8"))["steps"]
    assert len(steps) == 85  # 57 with the keeper placing the dice; 19 placements, 7 War fury and 2 Resolute declarations
    for step in steps:  # the file keeps its keys sorted
        assert json.dumps(json.loads(_again(step["action"])), sort_keys=True) == json.dumps(step["action"],
                                                                                            sort_keys=True)


def test_every_legal_action_along_the_golden_playthrough_encodes_to_its_listed_bytes() -> None:
    """The legal lists (what the policy logs, key order included) of the golden's first positions."""
    steps = json.loads(GOLDEN.read_text(encoding="utf-8"))["steps"]
    g, state = start(*GOLDEN_RUN)
    seen = set()
    for step in steps[:16]:
        for lg in g.legal_actions(state):
            assert _again(lg.action) == json.dumps(lg.action)
            seen.add(lg.action["kind"])
        state = g.apply(state, step["action"]).state
    assert {"move", "charge", "hold", "tactical", "lead", "pass"} <= seen


@pytest.mark.parametrize("action", SHAPES, ids=lambda a: f"{a['kind']}-{'-'.join(list(a)[3:])}")
def test_every_shape_of_every_kind_encodes_to_the_same_bytes(action: dict[str, object]) -> None:
    assert _again(action) == json.dumps(action)


def test_the_codec_knows_every_kind_the_checks_know() -> None:
    assert set(ACTIONS.kinds) == set(KINDS) and len(KINDS) == 35  # declare (before_ini.py, after_ini.py); cure


def test_typed_fields_read_from_a_form() -> None:
    walk = ACTIONS.decode({"kind": "move", "side": "A", "fighter": " Alahan guard ", "to": ["30", "20.5"]})
    assert walk == ToPoint("move", "A", "Alahan guard", (30.0, 20.5))
    assert ACTIONS.decode({"kind": "charge", **SIDE, "target": "W", "assault": "true"}) == \
        Charge("A", "Alahan guard", "W", assault=True)
    focus = ACTIONS.decode({"kind": "concentrate", **SIDE, "points": {"DEF": 1, "ATT": "2"}})
    assert focus == Concentrate("A", "Alahan guard", Points(ATT=2, DEF=1)) and focus.points.given() == {"ATT": 2,
                                                                                                         "DEF": 1}
    assert ACTIONS.encode(Absorb("A", "X", ("Y",))) == {"kind": "absorb", "side": "A", "fighter": "X", "from": ["Y"]}
    assert ACTIONS.decode({"kind": "Hold", **SIDE}) == ByFighter("hold", "A", "Alahan guard")


@pytest.mark.parametrize(("action", "field"), [
    ({"kind": "move", **SIDE, "to": [1.0, 2.0, 3.0]}, "to"),
    ({"kind": "move", **SIDE, "to": [1.0, float("nan")]}, "to"),
    ({"kind": "move", **SIDE}, "to"),
    ({"kind": "hold", **SIDE, "to": [1.0, 2.0]}, "to"),
    ({"kind": "charge", **SIDE, "target": "W", "assault": 1}, "charge.assault"),
    ({"kind": "concentrate", **SIDE, "points": {"MOV": 2}}, "concentrate.points"),
])
def test_a_malformed_action_is_refused_naming_its_field(action: dict[str, object], field: str) -> None:
    with pytest.raises(IllegalActionError) as refused:
        ACTIONS.decode(action)
    assert refused.value.details.get("field") == field
