"""Issue 25, point 2: hidden orders never leak through undo.

The fault: a round with no Delve roll could be undone after its report — which shows the other side's
orders — was printed; the side that resolved it could then change its own orders
(``battle act ID bloodless "Barrow Horde: hold"``, ``battle undo ID`` -> "Last action taken back.").
Now the round's record is face down like a roll (``core.game.face_down``: ``"reveals": true``) and,
once shown to anyone, cannot be taken back.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rulekeeper.cli.app import app
from rulekeeper.cli.app import main as cli_main
from rulekeeper.core.game import face_down
from rulekeeper.web.api import create_app

ROOT = Path(__file__).resolve().parents[3]
SHROUDFALL = ROOT / "examples" / "wartable" / "shroudfall.yaml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def main_exit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``rulekeeper ARGS`` through the real entry point: a refusal is exit code 2 and one line."""
    monkeypatch.setattr(sys, "argv", ["rulekeeper", *args])
    with pytest.raises(SystemExit) as done:
        cli_main()
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out + captured.err


def test_a_printed_round_report_cannot_be_undone_from_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    code, out = run("battle", "new", str(SHROUDFALL), "--seed", "7", "--db", db, "--json")
    assert code == 0, out
    code, listed = run("battle", "list", "--db", db, "--json")
    bid = re.findall(r'"id": "([^"]+)"', listed)[0]
    code, out = run("battle", "act", bid, "oathsworn", "Hearthmere Guard: reclaim", "--db", db)
    assert code == 0, out
    code, out = run("battle", "act", bid, "bloodless", "Barrow Horde: hold", "--db", db)
    assert code == 0 and "Round 1 resolves" in out and "Hearthmere Guard Reclaims" in out, out
    code, out = main_exit(monkeypatch, capsys, "battle", "undo", bid, "--db", db)
    assert code == 2 and "taken back" not in out and "already shown" in out, out
    # the side's own orders before the round resolves are still its to take back
    run("battle", "act", bid, "oathsworn", "--db", db)
    code, out = run("battle", "undo", bid, "--db", db)
    assert code == 0 and "taken back" in out, out


def test_face_down_is_chance_or_a_revealing_record() -> None:
    assert face_down({"chance": [{"label": "d"}], "report": []})
    assert face_down({"chance": [], "report": [], "reveals": True})
    assert not face_down({"chance": [], "report": []})


def test_on_the_web_the_round_is_face_down_until_its_side_reveals_it_then_final(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "web.db"))
    r = client.post("/new", data={"scenario": "wartable-campaign:shroudfall", "seed": "7"})
    links = {k: html.unescape(v) for k, v in re.findall(r'id="link-([\w-]+)"[^>]*value="([^"]+)"', r.text)}
    bid = re.findall(r"/b/([\w-]+)\?", links["oathsworn"])[0]
    tokens = {k: v.split("token=")[1] for k, v in links.items()}
    client.post(f"/b/{bid}/act", data={"token": tokens["oathsworn"], "position": "0", "kind": "orders",
                                       "side": "oathsworn", "round": "1", "order:Hearthmere Guard": "reclaim"})
    client.post(f"/b/{bid}/act", data={"token": tokens["bloodless"], "position": "1", "kind": "orders",
                                       "side": "bloodless", "round": "1", "order:Barrow Horde": "hold",
                                       "order:Ford Horde": "move:Old Watch"})
    assert client.get(f"/api/battles/{bid}", params={"token": tokens["oathsworn"]}).json()["position"] == 2
    # face down: the Oathsworn see neither the report nor the Bloodless orders
    seen = client.get(f"/b/{bid}", params={"token": tokens["oathsworn"]}).text
    assert "not revealed yet" in seen and "Ford Horde move" not in seen and "Old Watch" not in seen.split(
        "not revealed yet")[0][-300:]
    assert "Ford Horde move" not in client.get(f"/b/{bid}/log", params={"token": tokens["oathsworn"]}).text
    # the Bloodless turn it over; from then on nobody takes the round back
    shown = client.post(f"/b/{bid}/reveal", data={"token": tokens["bloodless"], "position": "2", "all": "1"},
                        follow_redirects=False)
    assert shown.status_code == 303
    undo = client.post(f"/b/{bid}/undo", data={"token": tokens["bloodless"], "position": "2"})
    assert undo.status_code == 409 and "results_shown" in undo.text
    assert client.get(f"/api/battles/{bid}", params={"token": tokens["oathsworn"]}).json()["position"] == 2
    assert "Ford Horde move Old Watch" in client.get(f"/b/{bid}/log", params={"token": tokens["oathsworn"]}).text
