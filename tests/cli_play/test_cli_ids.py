"""Issue 30, first point: short ids, the current battle, whole ids in every list."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_kit import run
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"


def two_battles(ids: tuple[str, str] = ("b-0c41ee6800000001", "b-0c41ff6800000002")) -> BattleService:
    """Two battles whose ids share the prefix ``b-0c41`` (the issue's example)."""
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.service.battles import game_of

    svc = BattleService(BattleStore(None))
    for bid in ids:
        setup = game_of("exillis").setup(SetupRequest(scenario=STARTER, seed=1))
        svc.store.create(ruleset=setup.ruleset, scenario=setup.scenario, seed=1, initial=setup.document, battle_id=bid)
    return svc


def test_a_unique_prefix_names_the_battle(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``battle show b-0c41`` → "No battle 'b-0c41' in this store"."""
    two_battles()
    code, out, _ = run(monkeypatch, capsys, "battle", "show", "b-0c41e", "--json")
    assert code == 0 and json.loads(out)["id"] == "b-0c41ee6800000001"
    code, out, _ = run(monkeypatch, capsys, "battle", "replay", "b-0c41f", "--json")
    assert code == 0 and json.loads(out)["id"] == "b-0c41ff6800000002"
    code, out, _ = run(monkeypatch, capsys, "battle", "dice", "b-0c41ff", "--json")
    assert code == 0 and json.loads(out)["id"] == "b-0c41ff6800000002"


def test_an_ambiguous_prefix_is_refused_naming_the_candidates(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    two_battles()
    code, _, err = run(monkeypatch, capsys, "battle", "show", "b-0c41")
    assert code == 2 and "ambiguous_id" in err
    assert "b-0c41ee6800000001" in err and "b-0c41ff6800000002" in err
    code, out, _ = run(monkeypatch, capsys, "battle", "actions", "b-0c41", "--json")
    assert code == 2 and json.loads(out)["candidates"] == ["b-0c41ee6800000001", "b-0c41ff6800000002"]
    code, _, err = run(monkeypatch, capsys, "battle", "show", "b-0c42")
    assert code == 2 and "No battle 'b-0c42'" in err


def test_the_last_battle_created_or_played_is_current(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(monkeypatch, capsys, "battle", "show")
    assert code == 2 and "no current battle" in err and "battle use" in err
    first = json.loads(run(monkeypatch, capsys, "battle", "new", str(STARTER), "--json")[1])["id"]
    second = json.loads(run(monkeypatch, capsys, "battle", "new", str(STARTER), "--json")[1])["id"]
    assert json.loads(run(monkeypatch, capsys, "battle", "show", "--json")[1])["id"] == second
    code, out, _ = run(monkeypatch, capsys, "battle", "use", first[:6] if first[:6] != second[:6] else first)
    assert code == 0 and f"Current battle: {first}" in out
    code, out, _ = run(monkeypatch, capsys, "battle", "act", "move", "Billmen", "C3", "--json")
    assert code == 0 and json.loads(out)["id"] == first and json.loads(out)["position"] == 1
    listed = json.loads(run(monkeypatch, capsys, "battle", "list", "--json")[1])
    assert {b["id"]: b["current"] for b in listed} == {first: True, second: False}
    code, out, _ = run(monkeypatch, capsys, "battle", "autoplay", second, "--max-actions", "1", "--json")
    assert code == 0 and json.loads(run(monkeypatch, capsys, "battle", "show", "--json")[1])["id"] == second


def test_the_current_battle_is_kept_per_store_and_never_in_the_battle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    here = json.loads(run(monkeypatch, capsys, "battle", "new", str(STARTER), "--json")[1])["id"]
    other_db = str(tmp_path / "other.db")
    there = json.loads(run(monkeypatch, capsys, "battle", "new", str(STARTER), "--db", other_db, "--json")[1])["id"]
    assert json.loads(run(monkeypatch, capsys, "battle", "show", "--json")[1])["id"] == here
    assert json.loads(run(monkeypatch, capsys, "battle", "show", "--db", other_db, "--json")[1])["id"] == there
    export = tmp_path / "x.json"
    assert run(monkeypatch, capsys, "battle", "export", here[:8], str(export))[0] == 0
    assert "current" not in export.read_text() and "state" not in BattleStore(None).get(here).meta
    state = json.loads((tmp_path / "state" / "cli.json").read_text())
    assert set(state["stores"]) == {f"sqlite:///{tmp_path / 'battles.db'}", f"sqlite:///{tmp_path / 'other.db'}"}


def test_a_deleted_current_battle_is_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bid = json.loads(run(monkeypatch, capsys, "battle", "new", str(STARTER), "--json")[1])["id"]
    BattleStore(None).delete(bid)
    code, _, err = run(monkeypatch, capsys, "battle", "actions")
    assert code == 2 and f"the current battle '{bid}' is no longer in this store" in err


def test_a_damaged_state_file_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "cli.json").write_text("{not json")
    code, _, _ = run(monkeypatch, capsys, "battle", "new", str(STARTER), "--json")
    assert code == 0 and run(monkeypatch, capsys, "battle", "show", "--json")[0] == 0


def test_battle_list_shows_whole_ids_on_an_80_column_terminal(tmp_path: Path) -> None:
    """Was: ``battle list`` printed ``b-0c41ee68…`` on 80 columns."""
    svc = two_battles()
    svc.store.create(ruleset="exillis", scenario="A scenario with a long name that needs wrapping " * 2, seed=1,
                     initial=svc.store.initial("b-0c41ee6800000001"), battle_id="b-0c41aa6800000003")
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-m", "rulekeeper", "battle", "list"], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    for bid in ("b-0c41ee6800000001", "b-0c41ff6800000002", "b-0c41aa6800000003"):
        assert bid in out
    # then: the scenario read "Bl… as… on the En…" (7 characters a line), the game "wartab…", the time "2026-… 23:21"
    assert "…" not in out and re.search(r"│ \d\d-\d\d \d\d:\d\d │", out)
    assert "│ A scenario with a " in out  # a line of the battle's words, not a word of it


def test_the_campaign_commands_take_a_prefix(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``campaign-map`` (War Table campaign) and ``campaign record`` (Ex illis) take an id prefix too."""
    shroudfall = ROOT / "examples" / "wartable" / "shroudfall.yaml"
    code, out, err = run(monkeypatch, capsys, "battle", "new", str(shroudfall), "--ruleset", "wartable-campaign", "--json")
    bid = json.loads(out)["id"]
    code, out, err = run(monkeypatch, capsys, "campaign-map", bid[:7])
    assert code == 0 and "Hearthmere" in out, err
    code, _, err = run(monkeypatch, capsys, "campaign", "record", bid[:7])
    assert code == 2 and "No battle" not in err and "ambiguous" not in err
