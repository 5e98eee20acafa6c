"""The source, tests and benches pass ruff's lint (the rules chosen in ``[tool.ruff.lint]`` of pyproject.toml:
pycodestyle errors, pyflakes, import order, bugbear and pyupgrade). Why a test: lint drifted while nothing ran it
(unsorted imports, a ``zip`` without ``strict``), and a rule checked only by hand is not checked."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_lint_clean() -> None:
    pytest.importorskip("ruff")  # the [test] extra installs it; its binary sits beside the interpreter's scripts
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff is not None, "ruff is installed as a module but its command is not on PATH"
    done = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "src", "tests", "bench"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
