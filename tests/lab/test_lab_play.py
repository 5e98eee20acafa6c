"""The generic path: whole scenarios autoplayed with the reference engine and default policy."""

from __future__ import annotations

import json

import pytest
from lab_cli import run_cli

from rulekeeper.lab.backends import Runner
from rulekeeper.lab.play import DRAWN, PlaySummary, battle_seed, play_work, side_figures


def test_toy_race_tally_is_the_same_on_every_backend() -> None:
    work, game = play_work("toy", "race", seed=3)
    with Runner("serial") as runner:
        serial = runner.run(work, 0, 200, chunk=200)
        rechunked = runner.run(work, 0, 200, chunk=17)
    with Runner("process", workers=2) as runner:
        pooled = runner.run(work, 0, 200, chunk=40)
    assert serial.to_json() == rechunked.to_json() == pooled.to_json()
    assert serial.battles == 200 == sum(serial.winners.values())
    roles = game.roles(work.document)
    # the race is roughly fair; both sides win often, and each battle's scores are counted per side
    assert all(40 < serial.winners[r] < 160 for r in roles)
    assert sum(n for (f, s, _), n in serial.figures.items() if f == "scores" and s == "A") == 200
    summary = PlaySummary(serial, tuple(roles)).to_json()
    assert summary["results"]["A"]["count"] == serial.winners["A"]
    assert summary["results"]["A"]["low95"] < summary["results"]["A"]["rate"] < summary["results"]["A"]["high95"]


def test_a_battle_seed_depends_on_seed_and_index_only() -> None:
    assert battle_seed(3, 5) == battle_seed(3, 5)
    assert len({battle_seed(3, i) for i in range(100)} | {battle_seed(4, 0)}) == 101
    assert 0 <= battle_seed(2**40, 7) < 2**63


def test_side_figures_read_any_summary_shape() -> None:
    roles = ("A", "B")
    summary = {"winner": "A", "turn": 11, "soldiers able to fight": {"A": 31, "B": 0},
               "armies": {"A": {"name": "x", "points": 99, "surviving_points": 45.5, "units": []},
                          "B": {"name": "y", "points": 98, "surviving_points": 0, "units": []}},
               "units": [{"side": "A", "after": 3, "dead": True}, {"side": "A", "after": 4}, {"side": "B", "after": 1}],
               "health": {"Vanguard": 86}}
    assert sorted(side_figures(summary, roles)) == sorted([
        ("soldiers able to fight", "A", 31.0), ("soldiers able to fight", "B", 0.0),
        ("armies.points", "A", 99.0), ("armies.surviving_points", "A", 45.5),
        ("armies.points", "B", 98.0), ("armies.surviving_points", "B", 0.0),
        ("units.after (sum)", "A", 7.0), ("units.after (sum)", "B", 1.0)])


@pytest.mark.parametrize(("game", "scenario", "sims"), [
    ("toy", "sprint", 40), ("exillis", "skirmish", 6), ("battlesystem", "hill_road", 2),
    ("wartable", "oathsworn_vs_bloodless", 5)])
def test_lab_play_runs_every_game(game: str, scenario: str, sims: int) -> None:
    ran = run_cli("lab", "play", game, scenario, "--sims", str(sims), "--backend", "serial", "--json")
    assert ran.code == 0, ran.err
    doc = json.loads(ran.out)
    results = doc["results"]
    if doc["exact"]:  # War Table is deterministic: one battle is the answer
        assert doc["battles"] == 1 and game == "wartable"
        assert results[DRAWN]["count"] == 1 and results[DRAWN]["low95"] == results[DRAWN]["high95"] == 1.0
    else:
        assert doc["battles"] == sims == sum(r["count"] for r in results.values())
    assert doc["actions"]["mean"] >= 1
    assert doc["figures"], "every shipped game's result summary gives per-side figures"


def test_lab_play_prints_a_table() -> None:
    ran = run_cli("lab", "play", "toy", "race", "--sims", "50", "--backend", "serial", "--seed", "9")
    assert ran.code == 0, ran.err
    assert "95 % Wilson interval" in ran.out and "Reds wins" not in ran.out and "A wins" in ran.out
    assert "scores [A]" in ran.out


def test_lab_play_counts_battles_as_battles_too() -> None:
    """Seen: ``lab play ... --battles 4`` (the bench's word, and what ``--sims`` counts here) was refused as "No such
    option"; both spellings play the same battles."""
    argv = ("lab", "play", "toy", "race", "--backend", "serial", "--seed", "9", "--json")
    by_battles, by_sims = run_cli(*argv, "--battles", "30"), run_cli(*argv, "--sims", "30")
    assert by_battles.code == by_sims.code == 0, by_battles.err
    assert json.loads(by_battles.out)["battles"] == 30 and json.loads(by_battles.out) == json.loads(by_sims.out)


def test_lab_play_takes_a_scenario_by_the_name_games_lists() -> None:
    """Seen: ``lab play confrontation confrontation:the_ford`` (the name ``games --scenarios`` lists to type) was
    "Unknown scenario of confrontation"; the game's own prefix is read, another game's is still refused."""
    argv = ("--sims", "2", "--backend", "serial", "--json")
    by_listed = run_cli("lab", "play", "toy", "toy:race", *argv)
    assert by_listed.code == 0, by_listed.err
    assert json.loads(by_listed.out)["battles"] == 2
    wrong = run_cli("lab", "play", "toy", "exillis:race", *argv)
    assert wrong.code == 2 and "Unknown scenario of toy" in wrong.out + wrong.err  # --json: the error as JSON
