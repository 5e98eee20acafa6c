"""``BattleReading.state_as``: a rule system's own code reads its stored battle's state typed, checked at run time
(the neutral layers hold states as opaque objects; issue 22, point 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.core.registered import StateTypeError
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService
from toygame.game import SCENARIO_DIR, ToyGame, ToyState


@pytest.fixture()
def svc(tmp_path: Path) -> Iterator[BattleService]:
    register_for_tests(ToyGame)
    yield BattleService(BattleStore(tmp_path / "b.db"))
    unregister_for_tests("toy")


def test_a_state_is_read_as_its_class_or_refused_naming_both(svc: BattleService) -> None:
    bid = svc.new(SCENARIO_DIR / "race.yaml", seed=3)
    state = svc.state_as(bid, ToyState)
    assert state.scores == (0, 0) and state.target == 10
    with pytest.raises(StateTypeError) as refused:
        svc.state_as(bid, Path)
    assert refused.value.details == {"battle_id": bid, "expected": "Path", "got": "ToyState"}
