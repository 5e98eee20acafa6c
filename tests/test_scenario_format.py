"""One scenario format (issue 22, scope 7): every shipped scenario is YAML, and TOML still loads.

Every rule system's ``data/scenarios/`` holds ``.yaml`` files only (Ex illis and the Battle System
shipped TOML until this issue). A TOML file with the same keys still starts the very same battle:
each game's set-up from the TOML twin of a shipped scenario gives the stored document the YAML file
gives, so a player's own TOML scenarios keep working.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tomli_w

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game, register_for_tests, unregister_for_tests
from toygame.game import SCENARIO_DIR as TOY_SCENARIOS
from toygame.game import ToyGame

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "src" / "rulekeeper" / "rulesets"


@pytest.fixture
def toy() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests("toy")


def test_every_shipped_scenario_is_yaml() -> None:
    folders = sorted(f for f in RULESETS.rglob("scenarios") if f.is_dir())
    assert {f.relative_to(RULESETS).parts[0] for f in folders} == {
        "battlesystem", "confrontation", "dragonnoir", "exillis", "wartable"}
    files = [p for f in folders for p in f.iterdir() if p.is_file()]
    assert len(files) >= 23
    assert [p.name for p in files if p.suffix != ".yaml"] == []
    assert [p.name for p in TOY_SCENARIOS.iterdir() if p.suffix != ".yaml"] == []


@pytest.mark.parametrize(("name", "scenario"), [
    ("exillis", RULESETS / "exillis/data/scenarios/starter.yaml"),
    ("battlesystem", RULESETS / "battlesystem/data/scenarios/river_crossing.yaml"),
    ("toy", TOY_SCENARIOS / "race.yaml"),
])
def test_a_toml_scenario_starts_the_same_battle(toy: None, tmp_path: Path, name: str, scenario: Path) -> None:
    twin = tmp_path / f"{scenario.stem}.toml"
    twin.write_text(tomli_w.dumps(read_data_file(scenario)), encoding="utf-8")
    assert twin.read_text(encoding="utf-8") != scenario.read_text(encoding="utf-8")
    g = game(name)
    from_yaml = g.setup(SetupRequest(scenario=scenario, seed=3)).document
    from_toml = g.setup(SetupRequest(scenario=twin, seed=3)).document
    assert from_toml == from_yaml
    assert g.status(g.initial_state(from_toml)) == g.status(g.initial_state(from_yaml))
