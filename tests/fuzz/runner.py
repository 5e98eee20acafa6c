"""Launch the fuzz driver in a child process (under its memory limit) and read its summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from rulekeeper.core.wording import counted

HERE = Path(__file__).resolve().parent

#: The whole driver run may take this long (wall time; it needs about 25 s of CPU).
DRIVER_TIMEOUT = 600


def run_driver(target: str, tmp: Path, scale: float = 1.0) -> dict[str, Any]:
    out = tmp / f"fuzz-{target}.json"
    env = {**os.environ, "COLUMNS": "120", "MALLOC_ARENA_MAX": "2", "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, str(HERE / "driver.py"), target, str(out), str(scale)],
                          capture_output=True, text=True, timeout=DRIVER_TIMEOUT, env=env, cwd=tmp)
    assert done.returncode == 0 and out.exists(), (
        f"the {target} fuzz driver died (exit {done.returncode}; a crash under the memory limit?):\n"
        f"{done.stderr[-3000:]}")
    summary: dict[str, Any] = json.loads(out.read_text())
    return summary


def explain(summary: dict[str, Any]) -> str:
    """The failures, one per line, with their reproduction."""
    lines = [f"{f['name']} [{f['label']}] at {f['where'] or '-'}: {f['problem'][:300]}\n    args: {f['args']}"
             for f in summary["failures"][:30]]
    return f"{counted(summary['failure_count'], 'failure')}:\n" + "\n".join(lines)
