"""Shared by every test folder: the fuzz suite's counts in the terminal summary.

The fuzz drivers (``tests/fuzz``) write ``test-artifacts/fuzz-summary-*.txt``; this hook runs in the
pytest controller (also under xdist, where the workers' output is not shown), so the counts appear in
a normal ``python -m pytest`` run.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from cpu_ledger import costliest_files, install
from suite_order import COSTLIEST_FIRST

_STARTED = time.time()

# the CLI remembers the games' command names for ``--help`` (cli/manifest.py): in a folder of the run's own,
# never the user's cache (inherited by the real-process smoke tests too)
os.environ.setdefault("RULEKEEPER_CACHE_DIR", tempfile.mkdtemp(prefix="rulekeeper-cache-"))
# nor the user's database and "current battle" memory, for a test that runs a command without --db
_OWN = tempfile.mkdtemp(prefix="rulekeeper-tests-")
os.environ.setdefault("RULEKEEPER_DB", os.path.join(_OWN, "default.db"))
os.environ.setdefault("RULEKEEPER_STATE_DIR", os.path.join(_OWN, "state"))

# this machine sets PYTHONDONTWRITEBYTECODE=1, so every child process (a keeper server, a real CLI run, a fuzz
# driver, an xdist worker) compiled rulekeeper's sources again: about 0.4 s of CPU each. The checkout's own
# __pycache__ is ignored by git, and Python writes each file atomically, so parallel workers may share it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# the Ex illis lab kernel fights on its numpy fallback in the tests (inherited by their subprocesses): numba's
# first compile costs about 80 s of CPU on a clean clone, paid in every xdist worker that fights first. The
# fallback draws the numba kernel's numbers bit for bit, which tests/exillis/test_lab_kernel_fallback.py checks
# with numba on, in one process of its own; ``RULEKEEPER_NUMBA=1 pytest …`` runs everything on numba.
os.environ.setdefault("RULEKEEPER_NUMBA", "0")


# hypothesis' timing checks (a slow example, a slow generation) measure the machine, not the code: on a
# 2-core CI machine shared by three workers, browsers and servers they failed tests whose properties held
settings.register_profile("rulekeeper", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("rulekeeper")


def pytest_configure(config: Any) -> None:
    install(config)


def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(COSTLIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: files keep their order


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    artifacts = Path(str(config.rootpath)) / "test-artifacts"
    if not hasattr(config, "workerinput"):
        terminalreporter.section("CPU time by test file (tests/cpu_ledger.py)")
        for line in costliest_files(artifacts, _STARTED):
            terminalreporter.write_line(line)
    fresh = [p for p in sorted(artifacts.glob("fuzz-summary-*.txt")) if p.stat().st_mtime >= _STARTED]
    if not fresh:
        return
    terminalreporter.section("fuzz suite (issue 'Nothing hostile gets through')")
    for path in fresh:
        for line in path.read_text().splitlines():
            terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium through Playwright, for the browser tests (skipped when either is missing)."""
    from browser_kit import launched_browser

    with launched_browser() as launched:
        yield launched
