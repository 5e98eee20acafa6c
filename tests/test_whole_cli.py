"""``odds … --whole`` (issue 27): the whole action's distribution in the CLI, the very WholeOdds the web
keeper's preview renders (its JSON is ``WholeOdds.to_dict()``)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rulekeeper.cli.app import app
from rulekeeper.rulesets.battlesystem.combat import Unit
from rulekeeper.rulesets.battlesystem.units import load_unit_types
from rulekeeper.rulesets.battlesystem.whole import unit_attack_whole
from rulekeeper.rulesets.confrontation.cli import _fray
from rulekeeper.rulesets.confrontation.fray_whole import fray_whole_odds

runner = CliRunner()
FRAY = ["Alahan swordsman", "Alahan guard", "Alahan paladin", "Wolfen hunter", "Wolfen predator"]


def test_a_confrontation_fray_whole_in_json_is_the_preview_s_odds() -> None:
    res = runner.invoke(app, ["odds", "confrontation", "combat", *FRAY, "--camp-a", "3", "--whole", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["method"] == "estimate" and doc["error_bound"] == pytest.approx(0.0098, abs=1e-4)
    expected = fray_whole_odds(_fray(FRAY, 3, None, None, None, None)).to_dict()
    assert doc["measures"] == expected["measures"] and doc["events"] == expected["events"]


def test_a_confrontation_duel_whole_on_screen_is_exact() -> None:
    res = runner.invoke(app, ["odds", "confrontation", "combat", "Alahan guard", "Wolfen hunter", "--whole"])
    assert res.exit_code == 0, res.output
    assert "enemies killed" in res.output and "computed exactly" in res.output


def test_the_old_fray_odds_are_fast_now() -> None:
    """Regression (issue 27): above 4 fighters ``auto`` ran 100 000 Python resolutions (44 s)."""
    res = runner.invoke(app, ["odds", "confrontation", "combat", *FRAY, "--camp-a", "3", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["method"] == "estimate" and "numpy kernel" in doc["note"]


def test_a_battle_system_attack_whole() -> None:
    res = runner.invoke(app, ["odds", "battlesystem", "attack", "Light Infantry", "Heavy Infantry", "--whole",
                              "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    types = load_unit_types()
    a, d = Unit.fresh(types.get("Light Infantry")), Unit.fresh(types.get("Heavy Infantry"))
    assert doc["measures"] == unit_attack_whole(a, d, "melee").to_dict()["measures"]


def test_a_dragon_noir_combat_whole() -> None:
    res = runner.invoke(app, ["odds", "dragonnoir", "combat", "--attacker", "Grast", "--defender", "Goblin 2",
                              "--whole", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["method"] == "exact"
    assert sum(p for _, p in doc["measures"][0]["outcomes"]) == pytest.approx(1.0)


def test_whole_with_monte_carlo_is_refused() -> None:
    res = runner.invoke(app, ["odds", "confrontation", "combat", *FRAY, "--whole", "--method", "monte-carlo"])
    assert res.exit_code == 2 and "--whole computes its odds" in res.output
