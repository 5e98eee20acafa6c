"""The lab stays out of the way: ``rulekeeper`` starts without the lab's heavy modules, and the lab
reaches games only through the protocol (tests/test_architecture.py checks its imports)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("matplotlib", "pyarrow", "dask", "distributed", "sqlalchemy", "fastapi")

SCRIPT = """
import json, sys
from typer.testing import CliRunner
from rulekeeper.cli.app import app
result = CliRunner().invoke(app, ["lab", "--help"])
assert result.exit_code == 0, result.output
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & set(%r))))
"""


def test_start_up_and_lab_help_load_no_heavy_module() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT % (HEAVY,)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_the_lab_imports_no_rule_system() -> None:
    from test_architecture import violations

    assert violations("lab") == []


def test_the_import_linter_contract_covers_the_lab() -> None:
    """``lint-imports`` checks the same rule as test_architecture.py: the lab is a forbidden-contract source."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    sources = [c["source_modules"] for c in contracts if c.get("forbidden_modules") == ["rulekeeper.rulesets"]]
    assert sources and all("rulekeeper.lab" in s for s in sources)
