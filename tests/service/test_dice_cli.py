"""``rulekeeper battle new --verifiable``, ``battle contribute``, ``battle dice`` and ``battle verify`` as typed.

Exit codes of ``battle verify``: 0 verified, 1 something does not match (named), 2 not an export.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulekeeper.cli.app import main
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from toygame.game import SCENARIO_DIR, ToyGame

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Run]:
    def invoke(*args: str) -> tuple[int, str]:
        monkeypatch.setattr("sys.argv", ["rulekeeper", *args])
        with pytest.raises(SystemExit) as done:
            main()
        out = capsys.readouterr()
        return int(done.value.code or 0), out.out + out.err

    register_for_tests(ToyGame)
    try:
        yield invoke
    finally:
        unregister_for_tests("toy")


@pytest.fixture
def exported(tmp_path: Path, run: Run) -> Path:
    db = str(tmp_path / "b.db")
    code, out = run("battle", "new", str(SCENARIO_DIR / "race.yaml"), "--ruleset", "toy", "--verifiable", "--db", db,
                    "--json")
    assert code == 0, out
    bid = json.loads(out)["id"]
    code, out = run("battle", "autoplay", bid, "--db", db)
    assert code == 2 and "dice_not_ready" in out and "Traceback" not in out
    code, out = run("battle", "dice", bid, "--db", db, "--json")
    assert code == 0 and json.loads(out)["waiting"] == ["A", "B"] and json.loads(out)["secret"] is None
    assert run("battle", "contribute", bid, "A", "--db", db)[0] == 0
    code, out = run("battle", "contribute", bid, "A", "--db", db)
    assert code == 2 and "dice_contributed" in out
    assert run("battle", "contribute", bid, "B", "ab" * 32, "--db", db)[0] == 0
    assert run("battle", "autoplay", bid, "--db", db)[0] == 0
    code, out = run("battle", "dice", bid, "--db", db, "--json")
    dice = json.loads(out)
    assert dice["contributions"]["B"] == "ab" * 32 and dice["ready"]
    path = tmp_path / "export.json"
    assert run("battle", "export", bid, str(path), "--db", db)[0] == 0
    return path


def test_a_finished_battle_verifies(exported: Path, run: Run) -> None:
    code, out = run("battle", "verify", str(exported))
    assert code == 0 and "verified:" in out and "actions" in out
    code, out = run("battle", "verify", str(exported), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["ok"] and doc["verifiable"] and doc["actions"] == len(json.loads(exported.read_text())["log"])


def test_a_tampered_export_exits_1_naming_the_action(exported: Path, run: Run, tmp_path: Path) -> None:
    doc = json.loads(exported.read_text())
    doc["log"][1]["result"]["chance"][0]["u"] = 0.999 if doc["log"][1]["result"]["chance"][0]["u"] != 0.999 else 0.1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out = run("battle", "verify", str(bad))
    assert code == 1 and "does not verify" in out and "action 2" in out and "log.1.result" in out
    code, out = run("battle", "verify", str(bad), "--json")
    assert code == 1 and json.loads(out)["index"] == 1


def test_a_tampered_secret_exits_1(exported: Path, run: Run, tmp_path: Path) -> None:
    doc = json.loads(exported.read_text())
    secret = doc["dice"]["secret"]
    doc["dice"]["secret"] = ("1" if secret[0] == "0" else "0") + secret[1:]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out = run("battle", "verify", str(bad))
    assert code == 1 and "dice.secret" in out


def test_what_is_not_an_export_exits_2(run: Run, tmp_path: Path) -> None:
    for name, text in (("a.json", "{}"), ("b.json", "not json"), ("c.json", '{"format": "rulekeeper-battle"}')):
        path = tmp_path / name
        path.write_text(text)
        code, out = run("battle", "verify", str(path))
        assert code == 2 and "Traceback" not in out and out.count("\n") <= 2, out
    code, out = run("battle", "verify", str(tmp_path / "missing.json"))
    assert code == 2


def test_verifiable_refuses_a_seed_and_autoplay(run: Run, tmp_path: Path) -> None:
    for extra in (("--seed", "3"), ("--autoplay",)):
        code, out = run("battle", "new", str(SCENARIO_DIR / "race.yaml"), "--ruleset", "toy", "--verifiable", *extra,
                        "--db", str(tmp_path / "b.db"))
        assert code == 2 and "--verifiable" in out
