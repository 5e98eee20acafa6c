"""Scenario lists are read once and again only when their files change (the protocol issue measured
39–93 ms per ``/api/scenarios``: every scenario file of every game re-parsed on each call)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from rulekeeper.core.game import ScenarioInfo
from rulekeeper.core.ruleset import game, register_for_tests, unregister_for_tests
from rulekeeper.service.scenarios import scenarios_of
from toygame.game import ToyGame

SCENARIOS = Path(__file__).resolve().parents[1] / "toygame" / "scenarios"


class CountingToy(ToyGame):
    """The toy race counting how often its scenario folder is read."""

    name: ClassVar[str] = "toycount"
    aliases: ClassVar[tuple[str, ...]] = ()
    folder: ClassVar[Path] = SCENARIOS
    reads: ClassVar[int] = 0

    def scenarios(self) -> list[ScenarioInfo]:
        CountingToy.reads += 1
        return [ScenarioInfo(p.stem, p.stem, "", p) for p in sorted(self.folder.glob("*.yaml"))]


@pytest.fixture
def counting(tmp_path: Path) -> Iterator[Path]:
    shutil.copy(next(SCENARIOS.glob("*.yaml")), tmp_path / "race.yaml")
    CountingToy.folder, CountingToy.reads = tmp_path, 0
    register_for_tests(CountingToy)
    yield tmp_path
    unregister_for_tests("toycount")


def test_a_list_is_read_once_until_a_file_changes(counting: Path) -> None:
    g = game("toycount")
    first = [s.key for s in scenarios_of(g)]
    assert [s.key for s in scenarios_of(g)] == first == ["toycount:race"]
    assert CountingToy.reads == 1
    later = os.stat(counting / "race.yaml").st_mtime_ns + 5_000_000_000
    os.utime(counting / "race.yaml", ns=(later, later))  # edited
    scenarios_of(g)
    assert CountingToy.reads == 2
    shutil.copy(counting / "race.yaml", counting / "sprint.yaml")  # a file added: the folder changed
    os.utime(counting, ns=(later + 1, later + 1))
    assert [s.key for s in scenarios_of(g)] == ["toycount:race", "toycount:sprint"]
    assert CountingToy.reads == 3
    (counting / "sprint.yaml").unlink()
    os.utime(counting, ns=(later + 2, later + 2))
    assert [s.key for s in scenarios_of(g)] == ["toycount:race"] and CountingToy.reads == 4
