"""``rulekeeper battle new NAME``: a shipped scenario by its name, as the web keeper takes it, for a player who
installed rulekeeper and has no examples folder (``the_hunters_wood``, ``dragonnoir:the_ford``, or ``the_ford``
with ``--ruleset``); ``rulekeeper games --scenarios`` lists the names. Before, every name was read as a file path
and refused with "unsupported file type '(none)'"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_kit import run, run_main
from rulekeeper.core.ruleset import game as game_named


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("RULEKEEPER_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)  # a name is a file first: no file of these names here
    return str(tmp_path / "names.db")


def _made(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run(monkeypatch, capsys, "battle", "new", *args, "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("args", "game", "scenario"), [
    (["the_hunters_wood"], "confrontation", "The hunters' wood"),
    (["dragonnoir:the_ford"], "dragonnoir", "The ford"),
    (["the_ford", "--ruleset", "confrontation"], "confrontation", "Hunters at the ford"),
    (["starter"], "exillis", "Starter armies"),
])
def test_a_shipped_scenario_by_its_name(db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                        args: list[str], game: str, scenario: str) -> None:
    made = _made(monkeypatch, capsys, *args, "--db", db)
    code, out, err = run(monkeypatch, capsys, "battle", "list", "--db", db, "--json")
    assert code == 0, err
    (listed,) = json.loads(out)
    assert listed["id"] == made["id"] and (listed["ruleset"], listed["scenario"]) == (game, scenario)


def test_a_name_two_games_ship_or_nobody_ships_is_refused_with_the_names_near_it(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_main(["battle", "new", "the_ford", "--db", db], capsys, monkeypatch)
    assert code == 2 and "error (unknown_name): Unknown scenario 'the_ford'." in out
    assert "'dragonnoir:the_ford'" in out and "'confrontation:the_ford'" in out
    code, out = run_main(["battle", "new", "the_frod", "--db", db], capsys, monkeypatch)
    assert code == 2 and "Unknown scenario 'the_frod'" in out and "Did you mean" in out
    code, out = run_main(["battle", "new", "missing.yaml", "--db", db], capsys, monkeypatch)
    assert code == 2 and "missing.yaml" in out and "unknown_name" not in out  # a file name stays a file
    assert not Path(db).exists() or json.loads(run(monkeypatch, capsys, "battle", "list", "--db", db, "--json")[1]) == []


def test_games_lists_every_shipped_scenario_by_the_name_battle_new_takes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(monkeypatch, capsys, "games", "--scenarios", "--json")
    assert code == 0, err
    rows = json.loads(out)
    expected = {(g, info.key) for g in ("exillis", "battlesystem", "dragonnoir", "confrontation", "wartable",
                                        "wartable-campaign") for info in game_named(g).scenarios()}
    assert {(r["game"], r["key"].split(":", 1)[1]) for r in rows} == expected
    typed = {r["type"]: r["game"] for r in rows}
    assert typed["the_hunters_wood"] == "confrontation" and typed["dragonnoir:the_ford"] == "dragonnoir"
    assert "the_ford" not in typed  # two games ship one: only game:key names it
    code, out, err = run(monkeypatch, capsys, "games", "--scenarios")
    assert code == 0 and "confrontation:the_ford" in out and "Hunters at the ford" in out


@pytest.mark.parametrize("name", ["n" * 300, "deep/" * 900 + "x.yaml", "x" * 121])
def test_a_name_the_file_system_refuses_is_a_typed_error(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str) -> None:
    """A name too long for the file system (the fuzz corpus found ``OSError: File name too long`` escaping the
    name lookup) is read as a path and refused by the data-file reader: exit 2, no traceback."""
    code, out = run_main(["battle", "new", name, "--db", db], capsys, monkeypatch)
    assert code == 2 and out.startswith("error (") and "Traceback" not in out
