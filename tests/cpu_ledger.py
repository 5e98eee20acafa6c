"""Where the suite's CPU goes: each test's CPU time (its worker's and its child processes'), per file.

Why CPU and not wall time: under xdist the workers share two cores with browsers, keeper servers and
fuzz drivers, so a test's wall time says as much about its neighbours as about itself. Each worker
appends its tests to ``test-artifacts/cpu-ledger-<worker>.tsv``; the controller prints the costliest
files at the end of the run (``tests/conftest.py``), which is what the 15-minute CI budget is spent on.
"""

from __future__ import annotations

import os
import resource
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

LEDGER_GLOB = "cpu-ledger-*.tsv"


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


class CpuLedger:
    """A pytest plugin: one line per test phase (setup, call, teardown) with its CPU seconds."""

    def __init__(self, artifacts: Path, worker: str) -> None:
        artifacts.mkdir(exist_ok=True)
        self.path = artifacts / f"cpu-ledger-{worker}.tsv"
        self.path.write_text("")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: Any) -> Iterator[None]:
        own0, kids0 = _cpu()
        wall0 = time.perf_counter()
        yield
        own1, kids1 = _cpu()
        with self.path.open("a") as ledger:
            ledger.write(f"{item.nodeid}\t{own1 - own0:.3f}\t{kids1 - kids0:.3f}\t{time.perf_counter() - wall0:.3f}\n")


def install(config: Any) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    config.pluginmanager.register(CpuLedger(Path(str(config.rootpath)) / "test-artifacts", worker), "cpu-ledger")


def costliest_files(artifacts: Path, since: float, top: int = 15) -> list[str]:
    """The ``top`` files by CPU seconds (own + children) in the ledgers written since ``since``."""
    cpu: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for ledger in artifacts.glob(LEDGER_GLOB):
        if ledger.stat().st_mtime < since:
            continue
        for line in ledger.read_text().splitlines():
            nodeid, own, kids, wall = line.split("\t")
            row = cpu[nodeid.split("::")[0]]
            row[0] += float(own)
            row[1] += float(kids)
            row[2] += float(wall)
    total = sum(own + kids for own, kids, _ in cpu.values())
    ranked = sorted(cpu.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]
    lines = [f"{own + kids:8.1f} s CPU ({own:6.1f} own + {kids:6.1f} children), {wall:7.1f} s wall  {name}"
             for name, (own, kids, wall) in ranked]
    return [f"all tests: {total:.1f} s CPU in {len(cpu)} files", *lines]
