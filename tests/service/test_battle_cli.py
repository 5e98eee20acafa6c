"""The battle commands as a user types them."""

import json
import subprocess
import sys
import time
from pathlib import Path

from cli_kit import run_captured

ROOT = Path(__file__).resolve().parents[2]


def rk(db: Path, *args: str, check: bool = True, real: bool = False) -> subprocess.CompletedProcess[str]:
    """``rulekeeper ARGS --db DB`` in this process, or (``real``) in a fresh interpreter as the README types it."""
    if real:
        p = subprocess.run([sys.executable, "-m", "rulekeeper", *args, "--db", str(db)], capture_output=True,
                           text=True, timeout=300, env={"COLUMNS": "160", "PATH": "/usr/bin:/bin"})
    else:
        p = run_captured(*args, "--db", str(db), width=160)
    if check:
        assert p.returncode == 0, p.stdout + p.stderr
    return p


def test_readme_autoplay_plays_a_full_battle_in_seconds(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    t0 = time.time()
    p = rk(db, "battle", "new", str(ROOT / "examples/exillis/starter.yaml"), "--autoplay", "--seed", "5", real=True)
    assert "Battle over" in p.stdout and "Battle Points" not in p.stderr
    assert time.time() - t0 < 60
    battles = json.loads(rk(db, "battle", "list", "--json").stdout)
    assert len(battles) == 1 and battles[0]["status"] == "over"
    rep = rk(db, "battle", "replay", battles[0]["id"])
    assert "identical" in rep.stdout


def test_act_show_actions_undo_and_errors(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    bid = json.loads(rk(db, "battle", "new", str(ROOT / "examples/exillis/starter.yaml"), "--json").stdout)["id"]
    acts = json.loads(rk(db, "battle", "actions", bid, "--json").stdout)
    assert acts["active"] == ["A:Billmen", "A:Decurion"]
    assert {"kind": "move", "unit": "A:Billmen", "target": "C3"} in [
        {k: a[k] for k in ("kind", "unit", "target") if k in a} for a in acts["actions"]]
    out = rk(db, "battle", "act", bid, "move", "Billmen", "c3")
    assert "move to C3" in out.stdout
    assert "C3" in rk(db, "battle", "show", bid).stdout
    assert "taken back" in rk(db, "battle", "undo", bid).stdout
    bad = rk(db, "battle", "act", bid, "charge", "Billmen", "Z9", check=False)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    wrong = rk(db, "battle", "act", bid, "move", "Vileins", "C2", check=False)
    assert wrong.returncode == 2 and "not" in wrong.stderr
    none = rk(db, "battle", "show", "b-doesnotexist", check=False)
    assert none.returncode == 2 and "b-doesnotexist" in none.stderr


def test_export_import_via_cli(tmp_path: Path) -> None:
    db, other = tmp_path / "a.db", tmp_path / "b.db"
    bid = json.loads(rk(db, "battle", "new", str(ROOT / "examples/exillis/hastings.yaml"), "--json").stdout)["id"]
    rk(db, "battle", "autoplay", bid, "--max-actions", "10")
    f = tmp_path / "x.json"
    rk(db, "battle", "export", bid, str(f))
    assert json.loads(rk(other, "battle", "import", str(f), "--json").stdout)["id"] == bid
    assert json.loads(rk(other, "battle", "show", bid, "--json").stdout)["state"] == json.loads(
        rk(db, "battle", "show", bid, "--json").stdout)["state"]


def test_malformed_scenario_is_refused_with_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[board]\nwidth = 5\nheight = 4\n')
    p = rk(tmp_path / "b.db", "battle", "new", str(bad), check=False)
    assert p.returncode == 2 and "bad.toml" in p.stderr and "armies" in p.stderr


def test_a_mistyped_store_is_refused_and_left_uncreated(tmp_path: Path) -> None:
    """Seen: ``battle actions 1 --db missing.db`` answered "No battle '1' in this store." and left an empty
    ``missing.db`` behind, so the next command read the wrong file without a word. Only the commands that start
    battles (``new``, ``import``) create a store; the others name the missing file and create nothing."""
    missing = tmp_path / "missing.db"
    listed = rk(missing, "battle", "list")  # no file, no battles: said, naming the file, without making it
    assert f"No battles in {missing} yet" in listed.stdout.replace("\n", "") and not missing.exists()
    assert json.loads(rk(missing, "battle", "list", "--json").stdout) == [] and not missing.exists()
    for command in (("battle", "show", "1"), ("battle", "actions", "1"), ("battle", "act", "1"),
                    ("battle", "undo", "1"), ("play", "1"), ("battle", "autoplay", "1")):
        p = rk(missing, *command, check=False)
        assert p.returncode == 2, (command, p.stdout, p.stderr)
        assert "error (no_store)" in p.stderr and str(missing) in p.stderr.replace("\n", ""), (command, p.stderr)
        assert list(tmp_path.iterdir()) == [], command
    rk(missing, "battle", "new", str(ROOT / "examples/exillis/starter.yaml"), "--seed", "1")
    assert json.loads(rk(missing, "battle", "list", "--json").stdout)[0]["status"] == "active"


def test_an_empty_store_says_how_to_start_a_battle(tmp_path: Path) -> None:
    """Seen: ``battle list`` on a fresh install drew an empty table's borders and nothing else."""
    fresh = tmp_path / "fresh.db"
    p = run_captured("battle", "list", env={"RULEKEEPER_DB": str(fresh)}, width=200)
    assert p.returncode == 0 and fresh.exists()  # the default store is made on purpose
    assert " ".join(p.stdout.split()) == (f"No battles in {fresh} yet: rulekeeper battle new SCENARIO starts one "
                                "(rulekeeper games --scenarios lists the shipped scenarios).")


def test_a_refused_new_or_import_leaves_no_database_it_made(tmp_path: Path) -> None:
    """Seen: ``battle import bad.json --db new.db`` and ``battle new bad.yaml --db new2.db`` answered with a typed
    error and left an empty ``new.db`` and ``new2.db`` behind (a half-applied command). A store that was there
    before keeps everything."""
    bad_doc, bad_scenario = tmp_path / "bad.json", tmp_path / "bad.yaml"
    bad_doc.write_text('{"x": 1}')
    bad_scenario.write_text("name: x\n")
    for db, command in ((tmp_path / "new.db", ("battle", "import", str(bad_doc))),
                        (tmp_path / "new2.db", ("battle", "new", str(bad_scenario)))):
        p = rk(db, *command, check=False)
        assert p.returncode == 2 and "error (" in p.stderr, p.stderr
        assert sorted(f.name for f in tmp_path.iterdir()) == ["bad.json", "bad.yaml"], command
    kept = tmp_path / "kept.db"
    bid = json.loads(rk(kept, "battle", "new", str(ROOT / "examples/exillis/starter.yaml"), "--json").stdout)["id"]
    assert rk(kept, "battle", "import", str(bad_doc), check=False).returncode == 2
    assert [b["id"] for b in json.loads(rk(kept, "battle", "list", "--json").stdout)] == [bid]
