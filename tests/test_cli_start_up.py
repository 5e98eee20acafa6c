"""Start-up: a command line imports only the rule system it names (the protocol issue measured every
command importing all five, about a second of CPU), and ``--help`` lists the games' own commands from
the remembered manifest without importing any of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = """
import json, sys
from typer.testing import CliRunner
from rulekeeper.cli.app import app
result = CliRunner().invoke(app, {args!r})
assert result.exit_code == 0, result.output
print(json.dumps({{"games": sorted({{m.split(".")[2] for m in sys.modules if m.startswith("rulekeeper.rulesets.")}}),
                  "numpy": "numpy" in sys.modules, "sqlalchemy": "sqlalchemy" in sys.modules,
                  "output": result.output}}))
"""


def run(args: list[str], cache: Path) -> dict[str, object]:
    src = str(Path(__file__).resolve().parents[1] / "src")  # this checkout's code, whatever is installed
    env = {**os.environ, "RULEKEEPER_CACHE_DIR": str(cache), "COLUMNS": "100",
           "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(args=args)], capture_output=True, text=True,
                         timeout=180, env=env)
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_game_command_imports_that_game_only(tmp_path: Path) -> None:
    odds = run(["odds", "exillis", "melee", "Billmen", "Franc Chevalers"], tmp_path)
    assert odds["games"] == ["exillis"]
    assert odds["numpy"] is False  # odds draw nothing: the generator (numpy) is imported at the first draw
    script = run_main(["odds", "exillis", "melee", "Billmen", "Franc Chevalers"], tmp_path)  # cli/fast.py: no Typer
    assert script["code"] == 0 and script["output"] == odds["output"]
    assert {m.split(".")[2] for m in script["modules"] if m.startswith("rulekeeper.rulesets.")} == {"exillis"}
    assert not {"typer", "click", "numpy", "sqlalchemy"} & set(script["modules"]), script["modules"]
    assert run(["resolve", "wartable", "--attacker", "Oathsworn Vanguard", "--defender", "Bloodless Horde"],
               tmp_path)["games"] == ["wartable"]
    assert run(["units", "battlesystem"], tmp_path)["games"] == ["battlesystem"]


def test_help_lists_the_games_commands_and_then_imports_none(tmp_path: Path) -> None:
    first = run(["--help"], tmp_path)
    assert first["games"] != [] and "muster" in str(first["output"])  # no manifest yet: loaded and remembered
    remembered = json.loads((tmp_path / "cli-commands.json").read_text())
    assert {c["name"] for c in remembered["commands"]} >= {"muster", "campaign", "campaign-map", "campaign-chart"}
    second = run(["--help"], tmp_path)
    assert second["games"] == [] and second["numpy"] is False
    assert second["output"] == first["output"]  # the same listing, from the manifest
    script = run_main(["--help"], tmp_path)  # as the installed script runs: without the Typer tree (cli/fast_help.py)
    assert script["code"] == 0 and script["output"] == first["output"]
    assert not {"typer", "click", "numpy", "sqlalchemy", "markdown_it"} & set(script["modules"]), script["modules"]


def test_a_stale_manifest_is_not_trusted(tmp_path: Path) -> None:
    (tmp_path / "cli-commands.json").write_text(json.dumps(
        {"fingerprint": "another install", "commands": [{"name": "ghost", "help": "not a command"}]}))
    listed = run(["--help"], tmp_path)
    assert "ghost" not in str(listed["output"]) and "muster" in str(listed["output"])


def test_a_games_own_top_level_command_runs_without_a_manifest(tmp_path: Path) -> None:
    muster = Path(__file__).resolve().parents[1] / "examples" / "exillis" / "musters"
    first = sorted(muster.glob("*.yaml"))[0]
    ran = run(["muster", "cost", str(first), "--json"], tmp_path)
    assert "exillis" in ran["games"]  # type: ignore[operator]


MAIN = """
import contextlib, io, json, sys
sys.argv = ["rulekeeper", *{args!r}]
from rulekeeper.cli.app import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main()
    except SystemExit as done:
        code = done.code
print(json.dumps({{"code": code, "output": out.getvalue(), "modules": sorted(
    {{m.split(".")[0] for m in sys.modules}} | {{m for m in sys.modules if m.startswith("rulekeeper.rulesets.")}})}}))
"""


def run_main(args: list[str], cache: Path) -> dict[str, Any]:
    """``rulekeeper ARGS`` through the console script's ``main()`` in a fresh interpreter: exit code, output, modules."""
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "RULEKEEPER_CACHE_DIR": str(cache), "RULEKEEPER_STATE_DIR": str(cache),
           "COLUMNS": "100", "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", MAIN.format(args=args)], capture_output=True, text=True,
                         timeout=180, env=env)
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_battle_show_imports_neither_typer_nor_sqlalchemy(tmp_path: Path) -> None:
    """``battle show`` on the default kind of store (a SQLite file at the current schema) is read with the
    standard library (``persistence/sqlite_reads.py``) and run without the Typer tree (``cli/fast.py``):
    SQLAlchemy alone cost 2.8 times a numpy import, Typer and its pydantic about as much (issue 22)."""
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.service.battles import BattleService

    db = tmp_path / "battles.db"
    with BattleStore(db) as store:
        svc = BattleService(store)
        bid = svc.new(Path(__file__).resolve().parents[1] / "examples" / "exillis" / "starter.yaml", seed=3)
        svc.autoplay(bid, max_actions=5)
    shown = run_main(["battle", "show", bid[:8], "--db", str(db)], tmp_path)
    assert shown["code"] == 0 and "Log fingerprint" in shown["output"]
    assert not {"sqlalchemy", "typer", "numpy", "alembic"} & set(shown["modules"]), shown["modules"]
    assert [m for m in shown["modules"] if m.startswith("rulekeeper.rulesets.")][0] == "rulekeeper.rulesets.exillis"
