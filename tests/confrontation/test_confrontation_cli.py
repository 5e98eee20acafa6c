"""``rulekeeper odds|resolve|units confrontation``: real numbers out, typed errors (exit 2) for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_kit import run_main
from rulekeeper.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "confrontation"
runner = CliRunner()


def test_odds_of_a_test_with_brutal_and_hardened() -> None:
    """The issue's command: the exact distribution with opening rules and every ability's effect listed."""
    res = runner.invoke(app, ["odds", "confrontation", "test", "ATT", "4", "--difficulty", "7",
                              "--abilities", "Brutal,Hardened", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["success_exact"] == "2/3" and data["method"] == "exact"  # 3, 4 reach 7; 5 and 6 open
    assert [a["ability"] for a in data["abilities"]] == ["Brutal", "Hardened"]
    assert all("opens on 5, 6" in a["effect"] for a in data["abilities"])
    assert sum(f["p"] for f in data["finals"]) == pytest.approx(1)
    assert max(f["final"] for f in data["finals"]) == 4 + 24  # three re-rolls at most, the last counts its face
    screen = runner.invoke(app, ["odds", "confrontation", "test", "ATT", "4", "--difficulty", "7",
                                 "--abilities", "Brutal,Hardened"])
    assert "Fate Screen" in screen.output and "66.67%" in screen.output and "Brutal" in screen.output


def test_odds_of_a_combat_between_the_players_files() -> None:
    res = runner.invoke(app, ["odds", "confrontation", "combat", str(EXAMPLES / "A.yaml"), str(EXAMPLES / "B.yaml"),
                              "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["method"] == "exact" and data["fighters"] == ["Griffin inquisitor", "Drune assassin"]
    assert sum(o["p"] for o in data["outcomes"]) == pytest.approx(1)
    assert sum(data["ends"].values()) >= 1 - 1e-9
    assert any("Counterattack" in n and "margin of 1" in n for n in data["abilities"])
    mc = runner.invoke(app, ["odds", "confrontation", "combat", "Alahan paladin", "Wolfen predator",
                             "--method", "monte-carlo", "--runs", "2000", "--seed", "3", "--json"])
    assert mc.exit_code == 0, mc.output
    mc_data = json.loads(mc.output)
    assert mc_data["method"] == "monte-carlo" and "2,000 seeded resolutions" in mc_data["note"]
    screen = runner.invoke(app, ["odds", "confrontation", "combat", "Alahan paladin", "Wolfen predator"])
    assert "exact odds" in screen.output and "Wolfen predator killed" in screen.output


def test_resolve_a_combat_shows_every_die() -> None:
    res = runner.invoke(app, ["resolve", "confrontation", "combat", "Alahan paladin", "Wolfen hunter", "--seed", "3",
                              "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["chance"][0]["label"] == "INI test: Alahan paladin" and len(data["chance"]) >= 4
    again = runner.invoke(app, ["resolve", "confrontation", "combat", "Alahan paladin", "Wolfen hunter", "--seed",
                                "3", "--json"])
    assert json.loads(again.output) == data


def test_units_lists_the_examples_and_a_players_file() -> None:
    res = runner.invoke(app, ["units", "confrontation", "--json"])
    rows = json.loads(res.output)
    # nine cards: the Wolfen stalker (Leap) joined the Wolfen example warband for The stalker's ford (issue 24)
    assert len(rows) == 15 and {r["warband"] for r in rows} == {"Lions of Alahan (example)", "Wolfen of Yllia (example)"}
    assert all(r["example"] and "ATT" in r["estimated"] for r in rows)
    mine = runner.invoke(app, ["units", "confrontation", "--data", str(EXAMPLES / "B.yaml"), "--json"])
    assert json.loads(mine.output)[0]["name"] == "Drune assassin"


@pytest.mark.parametrize(("args", "message"), [
    (["odds", "confrontation", "test", "ATK", "4"], "Unknown Confrontation test 'ATK'"),
    (["odds", "confrontation", "test", "ATT", "4", "--abilities", "Brutall"], "Did you mean 'Brutal'"),
    (["odds", "confrontation", "test", "ATT", "4", "--abilities", "Resolute"], "Resolute/X needs a whole number"),
    (["odds", "confrontation", "combat", "nowhere.yaml", "Wolfen hunter"], "nowhere.yaml: file not found"),
    (["odds", "confrontation", "combat", "Alahan paladin", "Nobody"], "Unknown Confrontation fighter 'Nobody'"),
    (["odds", "confrontation", "combat", "Alahan paladin", "Wolfen hunter", "--charge", "c"], "--charge must be"),
    (["odds", "confrontation", "combat", "Alahan paladin", "Wolfen hunter", "--method", "guess"], "--method must"),
    (["odds", "confrontation", "combat", "Alahan paladin", "Wolfen predator", "--place-b", "0"], "War fury"),
    (["units", "confrontation", "--level", "2"], "without --level"),
])
def test_bad_input_is_a_typed_error_with_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, output = run_main(args, capsys, monkeypatch)
    assert code == 2 and message in output and "Traceback" not in output


def test_a_bad_card_file_names_file_line_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "A.yaml").read_text().replace("DEF: 4", "DEF: high"))
    code, output = run_main(["odds", "confrontation", "combat", str(bad), "Wolfen hunter", "--json"], capsys,
                            monkeypatch)
    err = json.loads(output)
    assert code == 2 and err["error"] == "data_file" and "bad.yaml" in err["message"]
    assert "line 13, field DEF" in err["message"]
