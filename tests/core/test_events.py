"""Events are immutable records; state is the fold of its log; the log round-trips through JSON."""

import pytest

from rulekeeper.core.events import Event, EventLog, fold
from rulekeeper.core.ids import new_id


def test_event_data_is_frozen_and_json_round_trips() -> None:
    e = Event("unit", {"unit": "Billmen", "set": {"hp": [50, 0]}})
    with pytest.raises(TypeError):
        e.data["unit"] = "x"  # type: ignore[index]
    log = EventLog().append(e, Event("note", {"n": 1}))
    assert log.position == 2
    assert EventLog.from_json(log.to_json()) == log


def test_fold_applies_in_order() -> None:
    log = [Event("add", {"n": 2}), Event("mul", {"n": 5}), Event("add", {"n": 1})]

    def reduce(state: int, ev: Event) -> int:
        return state + ev.data["n"] if ev.kind == "add" else state * ev.data["n"]

    assert fold(0, log, reduce) == 11
    assert fold(0, reversed(log), reduce) == 7


def test_ids_are_unique_and_prefixed() -> None:
    ids = {new_id("b") for _ in range(1000)}
    assert len(ids) == 1000 and all(i.startswith("b-") for i in ids)
