"""``rulekeeper resolve wartable``: numbers in the tables and in --json, clean errors.

The root app also imports commands written elsewhere; while those do not exist yet,
the CLI is tested on a fresh Typer app carrying only the ``resolve`` group.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rulekeeper.cli import output
from rulekeeper.cli.groups import resolve_app
from rulekeeper.core.errors import DataFileError, ImpossibleRequestError, UnknownNameError
from rulekeeper.rulesets.wartable import cli as wartable_cmds

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "wartable" / "oathsworn_vs_bloodless.yaml"
ENCLAVE_EXAMPLE = ROOT / "examples" / "wartable" / "bloodless_assault_on_enclave.yaml"
SEED = [
    "resolve",
    "wartable",
    "--attacker",
    "Oathsworn Vanguard",
    "--defender",
    "Bloodless Horde",
    "--region-trait",
    "Ruin",
]
OTHER_COMMANDS = ("exillis_cmds", "units_cmd")


def root_app_available() -> bool:
    try:
        import rulekeeper.cli.app  # noqa: F401
    except ImportError as exc:
        if any(name in str(exc) for name in OTHER_COMMANDS):
            return False
        raise
    return True


@pytest.fixture
def app() -> typer.Typer:
    if root_app_available():
        from rulekeeper.cli.app import app as root

        return root
    fresh = typer.Typer()
    wartable_cmds.register(fresh)
    fresh.add_typer(resolve_app, name="resolve")
    return fresh


@pytest.fixture(autouse=True)
def wide_console() -> Iterator[None]:
    """Keep table cells on one line so the arithmetic can be matched as text."""
    old = output.console.width
    output.console.width = 250
    yield
    output.console.width = old


def run(app: typer.Typer, *args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output, result.exception


def test_seed_example_tables(app: typer.Typer) -> None:
    code, out, exc = run(app, *SEED)
    assert code == 0, (out, exc)
    for n in range(1, 7):
        assert f"Step {n}." in out
    assert "50 + 10 (Oathsworn (attacking), estimate) + 10 (Vanguard (attacking), estimate) = 70" in out
    assert "50 + 5 (Vanguard guard (attacking), estimate) = 55" in out
    assert "10 + 10 (Ruin cover) = 20" in out
    assert "100 × 70/100 = 70" in out and "150 × 20/100 = 30" in out
    assert "70 hits / 1 enemy unit = 70 each" in out
    assert "30 × 55/100 = 16.5 blocked; 30 - 16.5 = 13.5 unblocked -> 14 (rounded up)" in out
    assert "70 × 20/100 = 14 blocked; 70 - 14 = 56 unblocked" in out
    assert "│ 100           │ 14        │ 86" in out
    assert "│ 150           │ 56        │ 94" in out
    assert "no Enclave in this region" in out


def test_the_rule_readings_are_said_in_words_with_their_option(app: typer.Typer) -> None:
    """Played as a user: the terminal printed "Options: step5=example, stat_rounding=tenth, enclave_loss=per_battle,
    bloodless_health=before", the keeper's option keys, which the web's pages already said as the rules played. Now
    each reading is a phrase with the ``--option`` it comes from, and the Enclave's only where an Enclave stands."""
    code, out, exc = run(app, *SEED, "--option", "step5=literal")
    assert code == 0, (out, exc)
    said = " ".join(out[out.index("Rule readings:"):].split("Step 1.")[0].split())  # one line, however wrapped
    assert said == ("Rule readings: blocked hits rounded up (the seed's step list) [step5=literal]; stat totals "
                    "rounded to one decimal place [stat_rounding=tenth]")
    assert "Options:" not in out and "enclave_loss" not in out  # no Enclave in a Ruin
    code, out, exc = run(app, "resolve", "wartable", "--battle", str(ENCLAVE_EXAMPLE))
    assert code == 0, (out, exc)
    assert "[enclave_loss=per_battle]" in " ".join(out.split())


def test_seed_example_json(app: typer.Typer) -> None:
    code, out, exc = run(app, *SEED, "--json")
    assert code == 0, (out, exc)
    d = json.loads(out)
    assert d["result"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}
    steps = {s["step"]: s["rows"] for s in d["steps"]}
    assert [r["hits"] for r in steps[3]] == [70, 30]
    assert (steps[5][0]["blocked"], steps[5][0]["unblocked"], steps[5][1]["blocked"]) == (16.5, 14, 14)
    assert d["options"]["step5"] == "example"


def test_literal_option(app: typer.Typer) -> None:
    code, out, _ = run(app, *SEED, "--option", "step5=literal", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["result"]["Oathsworn Vanguard"] == 87 and d["options"]["step5"] == "literal"


def test_battle_file(app: typer.Typer) -> None:
    code, out, exc = run(app, "resolve", "wartable", "--battle", str(EXAMPLE), "--json")
    assert code == 0, (out, exc)
    assert json.loads(out)["result"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}


def test_enclave_battle_file_shows_stability(app: typer.Typer) -> None:
    code, out, exc = run(app, "resolve", "wartable", "--battle", str(ENCLAVE_EXAMPLE))
    assert code == 0, (out, exc)
    assert "Enclave Stability: Hearthmere" in out
    assert "Stability 60 -> 30 (change -30)" in out


def test_several_units_per_side_and_enclave_flags(app: typer.Typer) -> None:
    code, out, exc = run(
        app,
        "resolve",
        "wartable",
        "-a",
        "Bloodless Horde",
        "-a",
        "Bloodless Horde",
        "-d",
        "Oathsworn Vanguard",
        "--enclave",
        "Hearthmere",
        "--stability",
        "20",
        "--json",
    )
    assert code == 0, (out, exc)
    d = json.loads(out)
    alloc = {s["step"]: s["rows"] for s in d["steps"]}[4]
    assert [(a["total_hits"], a["per_unit"]) for a in alloc] == [(60, 60), (50, 25)]
    assert d["result"] == {"Bloodless Horde #1": 127, "Bloodless Horde #2": 127, "Oathsworn Vanguard": 70}
    assert d["stability"]["after"] == 0 and d["stability"]["total_delta"] == -30
    assert d["stability"]["fallen"] is False


def test_undefended_enclave_falls(app: typer.Typer) -> None:
    code, out, _ = run(
        app, "resolve", "wartable", "-a", "Bloodless Horde", "--enclave", "Hearthmere", "--stability", "70"
    )
    assert code == 0
    assert "Stability 70 -> 0" in out and '"Fallen"' in out


def test_user_data_file(app: typer.Typer, tmp_path: Path) -> None:
    p = tmp_path / "mine.yaml"
    p.write_text("units:\n  - {name: Ghoul Pack, health: 40, attack: 35, defense: 5, traits: [Bloodless]}\n")
    code, out, exc = run(
        app, "resolve", "wartable", "--data", str(p), "-a", "Ghoul Pack", "-d", "Oathsworn Vanguard", "--json"
    )
    assert code == 0, (out, exc)
    # 40 × 35/100 = 14 hits on Defense 50: 7 blocked, 7 unblocked
    assert json.loads(out)["result"]["Oathsworn Vanguard"] == 93


def test_unknown_unit_raises_typed_error(app: typer.Typer) -> None:
    code, _, exc = run(app, "resolve", "wartable", "--attacker", "Oathsworn Vanguad", "--defender", "Bloodless Horde")
    assert code != 0
    assert isinstance(exc, UnknownNameError) and exc.suggestions == ["Oathsworn Vanguard"]


def test_bad_inputs_raise_typed_errors(app: typer.Typer, tmp_path: Path) -> None:
    _, _, exc = run(app, *SEED, "--option", "step5")
    assert isinstance(exc, ImpossibleRequestError)
    _, _, exc = run(app, *SEED, "--option", "step5=sideways")
    assert isinstance(exc, UnknownNameError)
    _, _, exc = run(app, "resolve", "wartable", "--defender", "Bloodless Horde")
    assert isinstance(exc, ImpossibleRequestError)
    bad = tmp_path / "bad.yaml"
    bad.write_text("units:\n  - {name: X, health: 1}\n")
    _, _, exc = run(app, *SEED, "--data", str(bad))
    assert isinstance(exc, DataFileError) and "units[0].attack" in str(exc)


def _cli_command() -> list[str]:
    if root_app_available():
        return [sys.executable, "-m", "rulekeeper.cli.app"]
    # mirror rulekeeper.cli.app.main on a fresh app until the other commands exist
    script = (
        "import sys, typer\n"
        "from rulekeeper.rulesets.wartable import cli as wartable_cmds\n"
        "from rulekeeper.cli.groups import resolve_app\n"
        "from rulekeeper.cli.output import fail\n"
        "from rulekeeper.core.errors import RulekeeperError\n"
        "app = typer.Typer(pretty_exceptions_enable=False)\n"
        "wartable_cmds.register(app)\n"
        "app.add_typer(resolve_app, name='resolve')\n"
        "try:\n    app()\n"
        "except RulekeeperError as exc:\n    fail(exc, as_json='--json' in sys.argv)\n"
    )
    return [sys.executable, "-c", script]


@pytest.mark.parametrize("as_json", [False, True])
def test_unknown_unit_exits_2_with_a_clean_message(as_json: bool) -> None:
    args = ["resolve", "wartable", "--attacker", "Oathsworn Vanguad", "--defender", "Bloodless Horde"]
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(
        _cli_command() + args + (["--json"] if as_json else []),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    if as_json:
        d = json.loads(proc.stdout)
        assert d["error"] == "unknown_name" and d["suggestions"] == ["Oathsworn Vanguard"]
    else:
        msg = " ".join(proc.stderr.split())
        assert "Unknown unit 'Oathsworn Vanguad'. Did you mean 'Oathsworn Vanguard'?" in msg


def test_register_is_idempotent() -> None:
    before = len(resolve_app.registered_commands)
    wartable_cmds.register(typer.Typer())
    wartable_cmds.register(typer.Typer())
    assert len(resolve_app.registered_commands) <= before + 1
    assert sum(c.name == "wartable" for c in resolve_app.registered_commands) == 1
