"""The Ex illis commands as a user types them: odds, resolve, --json, seeds, errors (exit 2)."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulekeeper.cli.app import app

runner = CliRunner()


def run(*args: str) -> dict:
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulekeeper", *args], capture_output=True, text=True, timeout=120)


def test_readme_odds_command_shows_every_outcome_with_odds_summing_to_one() -> None:
    r = runner.invoke(app, ["odds", "exillis", "melee", "Billmen", "Franc Chevalers"])
    assert r.exit_code == 0, r.output
    for word in ("Attack", "Blocked", "Evaded", "Deflected", "Luck", "Bad Luck", "AR 2.5", "fatigue efficiency"):
        assert word in r.stdout
    d = run("odds", "exillis", "melee", "Billmen", "Franc Chevalers")
    odds = d["duels"]["Franc Chevalers"]["odds"]
    assert set(odds) == {"Attack", "Blocked", "Evaded", "Deflected", "Luck", "Bad Luck"}
    assert sum(odds.values()) == pytest.approx(1.0)
    assert d["duels"]["Franc Chevalers"]["damage"]["Luck"][0] > d["duels"]["Franc Chevalers"]["damage"]["Attack"][0]


def test_target_assignment_odds_when_several_units_share_the_zone() -> None:
    d = run("odds", "exillis", "melee", "Billmen", "Franc Chevalers", "--with", "Vileins:8")
    assert set(d["targets"]) == {"Franc Chevalers", "Vileins"}
    assert sum(d["targets"].values()) == pytest.approx(1.0)


def test_flank_and_stance_options_change_the_odds() -> None:
    front = run("odds", "exillis", "melee", "Billmen", "Franc Chevalers")["duels"]["Franc Chevalers"]["odds"]
    flank = run("odds", "exillis", "melee", "Billmen", "Franc Chevalers", "--direction", "flank")["duels"]["Franc Chevalers"]["odds"]
    assert flank["Attack"] > front["Attack"]


def test_resolve_same_seed_same_result_and_one_row_per_miniature() -> None:
    a = run("resolve", "exillis", "melee", "Billmen", "Franc Chevalers", "--seed", "7")
    b = run("resolve", "exillis", "melee", "Billmen", "Franc Chevalers", "--seed", "7")
    c = run("resolve", "exillis", "melee", "Billmen", "Franc Chevalers", "--seed", "8")
    assert a == b and a != c
    assert len(a["duels"]) == 8
    assert {m["unit"] for m in a["morale"]} == {"Billmen", "Franc Chevalers"}
    assert a["fatigue"]["unit"] == "Billmen" and a["fatigue"]["gained"] > 0
    assert all(0 <= rec["u"] < 1 for rec in a["chance"])


def test_resolve_table_lists_duels_casualties_morale_and_fatigue() -> None:
    r = runner.invoke(app, ["resolve", "exillis", "melee", "Billmen", "Vileins", "--seed", "7"])
    assert r.exit_code == 0
    for word in ("Fate Screen", "Casualties", "Morale", "Fatigue", "Retaliation"):
        assert word in r.stdout


def test_shoot_odds_reproduce_the_seed_example_numbers() -> None:
    d = run(
        "odds", "exillis", "shoot", "Longbowmen", "--target", "Vileins:8", "--target", "Soffrances:2",
        "--ally-in-zone", "Billmen:5", "--over", "Serjants:8", "--over", "Serjants:8", "--terrain", "fences",
        "--range", "2", "--fatigue", "8", "--action", "aim",
    )
    assert {k: round(v) for k, v in d["weights"].items()} == {
        "Accurate Shot": 28, "Enemy space": 28, "Allied space": 10, "Free space": 42, "Cover": 16,
    }


def test_shoot_and_cast_resolve() -> None:
    s = run("resolve", "exillis", "shoot", "Longbowmen", "--target", "Vileins:8:moved", "--seed", "3")
    assert len(s["shots"]) == 8
    c = run("resolve", "exillis", "cast", "Ympes", "Vileins", "--spell", "firebolt", "--seed", "3")
    assert len(c["casts"]) == 10 and c["veil"]["gained"] > 0
    o = run("odds", "exillis", "cast", "Ympes", "Franc Chevalers", "--chain-from", "fire", "--spell", "gust")
    assert o["chain"] == ["wind", 1]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["odds", "exillis", "melee", "Bilmen", "Vileins"], "Did you mean 'Billmen'"),
        (["odds", "exillis", "shoot", "Longbowmen", "--target", "Vileins", "--range", "3"], "range 3"),
        (["odds", "exillis", "melee", "Billmen", "Vileins", "--attacker-fatigue", "-3"], "must be >= 0"),
        (["odds", "exillis", "melee", "Billmen", "Vileins", "--option", "luck_damage=x9"], "Unknown value"),
        (["odds", "exillis", "melee", "Billmen", "Vileins", "--defender-size", "12"], "at most 8"),
        (["odds", "exillis", "cast", "Ympes", "Vileins", "--range", "5"], "range 5"),
        (["units", "exilis"], "Did you mean"),
    ],
)
def test_bad_input_exits_2_with_a_clean_message_and_no_traceback(args: list[str], needle: str) -> None:
    p = cli(*args)
    assert p.returncode == 2, p.stdout + p.stderr
    assert needle in p.stderr.replace("\n", " ")
    assert "Traceback" not in p.stderr


def test_bad_input_with_json_prints_a_typed_error() -> None:
    p = cli("odds", "exillis", "melee", "Bilmen", "Vileins", "--json")
    assert p.returncode == 2
    err = json.loads(p.stdout)
    assert err["error"] == "unknown_name" and "Billmen" in err["suggestions"]


def test_malformed_data_file_names_file_and_field(tmp_path) -> None:
    bad = tmp_path / "mine.yaml"
    bad.write_text("actions:\n  aim:\n    accuracy: {value: lots}\n")
    p = cli("odds", "exillis", "melee", "Billmen", "Vileins", "--data", str(bad))
    assert p.returncode == 2 and "mine.yaml" in p.stderr and "accuracy" in p.stderr


def test_user_data_overrides_a_value(tmp_path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("units:\n  Billmen:\n    stats:\n      acc: 1000\n")
    base = run("odds", "exillis", "melee", "Billmen", "Vileins")["duels"]["Vileins"]["odds"]["Attack"]
    over = run("odds", "exillis", "melee", "Billmen", "Vileins", "--data", str(mine))["duels"]["Vileins"]["odds"]["Attack"]
    assert over > base
