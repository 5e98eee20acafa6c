"""The campaign as a user types it: muster files -> battle new --muster -> campaign record -> campaign show."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from campaign_musters import BREC_TOML, WING_YAML
from cli_kit import run_captured

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"



def rk(*args: str, db: Path | None = None, env_db: Path | None = None, check: bool = True,
       ) -> subprocess.CompletedProcess[str]:
    """``rulekeeper ARGS [--db DB]`` in this process (``tests/cli_kit.py``); ``env_db`` as ``RULEKEEPER_DB``."""
    extra = ("--db", str(db)) if db is not None else ()
    p = run_captured(*args, *extra, env={"RULEKEEPER_DB": str(env_db)} if env_db is not None else None)
    if check:
        assert p.returncode == 0, p.stdout + p.stderr
    return p


@pytest.fixture()
def musters(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "wing.yaml", tmp_path / "brec.toml"
    a.write_text(WING_YAML, encoding="utf-8")
    b.write_text(BREC_TOML, encoding="utf-8")
    return a, b


def test_musters_to_battle_to_campaign_and_levels_go_up(tmp_path: Path, musters: tuple[Path, Path]) -> None:
    db = tmp_path / "rk.db"
    a, b = musters
    new = json.loads(rk("battle", "new", "--muster", str(a), "--muster", str(b), "--board", "5x4", "--autoplay",
                        "--seed", "3", "--json", db=db).stdout)
    bid = new["id"]
    assert new["result"]["over"] and new["state"]["army_points"] == [["A", 223], ["B", 217]]
    rec = json.loads(rk("campaign", "record", bid, "--player-a", "Ann", "--player-b", "Bob", "--json", db=db).stdout)
    assert rec["battle_points"] == 2 and rec["note"] == ""
    assert rec["sides"]["A"]["player"] == "Ann" and rec["sides"]["A"]["army_size"] == 5

    shown = json.loads(rk("campaign", "show", "--json", db=db).stdout)
    levels = {(u["muster"], u["unit"]): (u["level"], u["bp"], u["bp_to_next"]) for u in shown["units"]}
    assert levels[("Broken Wing", "Billmen")] == (2, 1, 1)         # 1 + 2 BP: level 2, 1 of 2 toward 3
    assert levels[("Broken Wing", "Decurion")] == (2, 1, 1)
    assert levels[("Broken Wing", "Longbowmen")] == (3, 0, 3)      # 2 + 2 BP: level 3 exactly
    assert levels[("Brec'Helean", "Hobelars")] == (2, 1, 1)
    assert len(levels) == 10
    assert {p["name"]: (p["level"], p["renown"], p["battles"]) for p in shown["players"]} == {
        "Ann": (2, 1, 1), "Bob": (2, 1, 1)}
    assert [b["battle_id"] for b in shown["battles"]] == [bid]

    text = rk("campaign", "show", db=db).stdout
    assert "Campaign units" in text and "Yew and grey goose" in text and "Ann" in text and "1 battle recorded." in text
    out = rk("campaign", "show", "--muster", "Broken Wing", "--json", db=db).stdout
    assert {u["muster"] for u in json.loads(out)["units"]} == {"Broken Wing"}

    # recording twice: typed error, exit 2, nothing changed
    again = rk("campaign", "record", bid, db=db, check=False)
    assert again.returncode == 2 and "already recorded" in again.stderr and "Traceback" not in again.stderr
    as_json = rk("campaign", "record", bid, "--json", db=db, check=False)
    assert as_json.returncode == 2 and json.loads(as_json.stdout)["error"] == "already_recorded"
    assert json.loads(rk("campaign", "show", "--json", db=db).stdout) == shown


def test_the_second_battle_builds_on_the_first(tmp_path: Path, musters: tuple[Path, Path]) -> None:
    db = tmp_path / "rk.db"
    a, b = musters
    for seed in ("1", "2"):
        bid = json.loads(rk("battle", "new", "--muster", str(a), "--muster", str(b), "--autoplay", "--seed", seed,
                            "--json", db=db).stdout)["id"]
        text = rk("campaign", "record", bid, db=db).stdout
        assert "Recorded battle" in text and "2 BP to every unit" in text
    shown = json.loads(rk("campaign", "show", "--json", db=db).stdout)
    assert {(u["level"], u["bp"], u["battles"]) for u in shown["units"] if u["unit"] != "Longbowmen"} == {(3, 1, 2)}
    # the Longbowmen reached 3: their muster may now say 3, not 4
    promoted = tmp_path / "promoted.yaml"
    promoted.write_text(WING_YAML.replace("level: 2, label", "level: 4, label"), encoding="utf-8")
    refused = rk("battle", "new", "--muster", str(promoted), "--muster", str(b), db=db, check=False)
    assert refused.returncode == 2 and "reached level 3" in refused.stderr


def test_refusals_are_clear(tmp_path: Path, musters: tuple[Path, Path]) -> None:
    db = tmp_path / "rk.db"
    a, b = musters
    fresh = json.loads(rk("battle", "new", "--muster", str(a), "--muster", str(b), "--json", db=db).stdout)["id"]
    p = rk("campaign", "record", fresh, db=db, check=False)
    assert p.returncode == 2 and "not over yet" in p.stderr
    scen = json.loads(rk("battle", "new", str(STARTER), "--autoplay", "--json", db=db).stdout)["id"]
    p = rk("campaign", "record", scen, "--json", db=db, check=False)
    assert p.returncode == 2 and json.loads(p.stdout)["error"] == "not_from_musters"
    p = rk("campaign", "record", "b-nothere", db=db, check=False)
    assert p.returncode == 2 and "b-nothere" in p.stderr
    assert json.loads(rk("campaign", "show", "--json", db=db).stdout)["units"] == []


@pytest.mark.parametrize(("args", "message"), [
    ((), "give a scenario file, or two musters"),
    ((str(STARTER), "--muster", "{a}", "--muster", "{b}"), "not both"),
    ((str(STARTER), "--board", "6x4"), "--board only applies to musters"),
    (("--muster", "{a}"), "exactly two --muster"),
    (("--muster", "{a}", "--muster", "{b}", "--muster", "{a}"), "exactly two --muster"),
    (("--muster", "{a}", "--muster", "{b}", "--board", "five"), "expected columns x rows"),
    (("--muster", "{a}", "--muster", "{b}", "--board", "2x1"), "does not fit on a 2 x 1 board"),
    (("--muster", "{a}", "--muster", "{a}"), "same name"),
    (("--muster", "{a}", "--muster", "{nofile}"), "file not found"),
])
def test_battle_new_setup_errors(tmp_path: Path, musters: tuple[Path, Path], args: tuple[str, ...],
                                 message: str) -> None:
    a, b = musters
    filled = [x.format(a=a, b=b, nofile=tmp_path / "none.yaml") for x in args]
    p = rk("battle", "new", *filled, db=tmp_path / "rk.db", check=False)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_an_invalid_muster_is_refused_with_its_problems(tmp_path: Path, musters: tuple[Path, Path]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(WING_YAML.replace("level: 2, label", "level: 12, label"), encoding="utf-8")
    p = rk("battle", "new", "--muster", str(bad), "--muster", str(musters[1]), "--json", db=tmp_path / "rk.db",
           check=False)
    assert p.returncode == 2
    err = json.loads(p.stdout)
    assert err["error"] == "invalid_muster" and any("level-range" in x for x in err["problems"])


def test_the_default_database_holds_battles_and_campaign(tmp_path: Path, musters: tuple[Path, Path]) -> None:
    env_db = tmp_path / "env.db"
    a, b = musters
    bid = json.loads(rk("battle", "new", "--muster", str(a), "--muster", str(b), "--autoplay", "--json",
                        env_db=env_db).stdout)["id"]
    rk("campaign", "record", bid, env_db=env_db)
    assert json.loads(rk("campaign", "show", "--json", env_db=env_db).stdout)["battles"][0]["battle_id"] == bid
    assert env_db.exists()


def test_the_shipped_example_musters_fight(tmp_path: Path) -> None:
    musters = ROOT / "examples" / "exillis" / "musters"
    wing, brec = musters / "broken_wing.yaml", musters / "brec_helean.toml"
    if not (wing.exists() and brec.exists()):
        pytest.skip("the example musters are not shipped")
    db = tmp_path / "rk.db"
    bid = json.loads(rk("battle", "new", "--muster", str(wing), "--muster", str(brec), "--autoplay", "--json",
                        db=db).stdout)["id"]
    rec = json.loads(rk("campaign", "record", bid, "--json", db=db).stdout)
    assert rec["battle_points"] == 2  # 4 units + 1 hero a side; level 3 needs 3, so nobody levels yet
    assert {u["level"] for s in rec["sides"].values() for u in s["units"]} == {3}
