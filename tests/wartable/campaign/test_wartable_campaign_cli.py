"""The campaign from the command line: ``battle new/act/undo/show`` through the neutral battle commands,
and the game's own ``campaign-map`` (the map as a table, the Stability history) and ``campaign-chart``
(a PNG by matplotlib, imported only when it runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulekeeper.cli.app import app
from rulekeeper.cli.app import main as cli_main

ROOT = Path(__file__).resolve().parents[3]
SHROUDFALL = ROOT / "examples" / "wartable" / "shroudfall.yaml"
BATTLE = ROOT / "examples" / "wartable" / "oathsworn_vs_bloodless.yaml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def ids(db: str) -> set[str]:
    code, out = run("battle", "list", "--db", db, "--json")
    listed = json.loads(out)
    return {str(r["id"]) for r in (listed if isinstance(listed, list) else listed["battles"])}


def new(db: str, path: Path = SHROUDFALL) -> str:
    before = ids(db)
    code, out = run("battle", "new", str(path), "--seed", "7", "--db", db)
    assert code == 0, out
    (bid,) = ids(db) - before
    return bid


def test_a_round_from_the_command_line_with_undo_map_and_chart(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    bid = new(db)
    code, out = run("battle", "act", bid, "oathsworn", "Hearthmere Guard: reclaim", "faith: Lantern Hill", "--db", db)
    assert code == 0 and "hidden until the round resolves" in out, out
    code, out = run("battle", "undo", bid, "--db", db)
    assert code == 0 and "taken back" in out
    run("battle", "act", bid, "oathsworn", "Hearthmere Guard: reclaim", "faith: Lantern Hill", "--db", db)
    code, out = run("battle", "act", bid, "bloodless", "Ford Horde: move Old Watch", "--db", db)
    assert code == 0 and "Round 1 resolves" in out and "Stability 70 → 90" in out, out
    code, out = run("campaign-map", bid, "--db", db)
    assert code == 0 and "90/100" in out and "100/100" in out and "round 2 of 3" in out, out
    # the history: round 1 starts at 70 and 55, round 2 at 90 and 100
    rows = [line for line in out.splitlines() if line.strip("│ ").startswith(("1 ", "2 "))]
    assert [r.split("│")[1:4] for r in rows] == [[" 1     ", "         70 ", "           55 "],
                                                 [" 2     ", "         90 ", "          100 "]], rows
    png = tmp_path / "st.png"
    code, out = run("campaign-chart", bid, "--out", str(png), "--db", db)
    assert code == 0, out
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def main_exit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``rulekeeper ARGS`` through the real entry point: a typed error is exit code 2 and one line."""
    monkeypatch.setattr(sys, "argv", ["rulekeeper", *args])
    with pytest.raises(SystemExit) as done:
        cli_main()
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out + captured.err


def test_a_bad_order_and_a_battle_that_is_no_campaign_are_clean_errors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    bid = new(db)
    code, out = main_exit(monkeypatch, capsys, "battle", "act", bid, "bloodless", "Ford Horde: move Lantern Hill",
                          "--db", db)
    assert code == 2 and "more than 1 border" in out and "Traceback" not in out
    code, out = main_exit(monkeypatch, capsys, "battle", "act", bid, "bloodless", "Ford Horde moves", "--db", db)
    assert code == 2 and "UNIT: ORDER" in out
    other = new(db, BATTLE)
    code, out = main_exit(monkeypatch, capsys, "campaign-chart", other, "--out", str(tmp_path / "x.png"), "--db", db)
    assert code == 2 and "not a War Table campaign" in out


def test_the_cli_starts_without_matplotlib() -> None:
    code = "import sys\nfrom rulekeeper.cli.app import app\nprint('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_the_end_of_a_campaign_says_who_won_and_why_once(tmp_path: Path) -> None:
    """Played as a user: at the campaign's end the terminal printed "The campaign is over." and the Stability
    history a second time under the board's own, without a word of who won; the factions still had orders "to
    give". Now it says the winner and the reason of ``result`` once, and no orders are owed."""
    db = str(tmp_path / "c.db")
    bid = new(db)
    code, out = run("battle", "autoplay", bid, "--db", db)
    assert code == 0, out
    code, out = run("battle", "show", bid, "--db", db)
    assert code == 0, out
    said = " ".join(out.split())
    assert out.count("Stability at the start of each round") == 1
    assert "The campaign is over — Oathsworn win: the campaign's last round (3) is played; Oathsworn still hold " \
           "at least half their Enclaves" in said, said[-800:]
    assert "to give" not in out and "given" not in out
