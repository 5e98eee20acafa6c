"""RegionMap.within / reachable: what a movement range of N borders reaches."""

from __future__ import annotations

from rulekeeper.boards import RegionMap

# A - B - C - D, and E alone
MAP = RegionMap({"A": frozenset({"B"}), "B": frozenset({"A", "C"}), "C": frozenset({"B", "D"}),
                 "D": frozenset({"C"}), "E": frozenset()})


def test_within_counts_hops() -> None:
    assert MAP.within("A", 0) == {"A": 0}
    assert MAP.within("A", 2) == {"A": 0, "B": 1, "C": 2}
    assert MAP.within("b", 9) == {"B": 0, "A": 1, "C": 1, "D": 2}
    assert MAP.within("A", -1) == {}
    assert MAP.within("E", 3) == {"E": 0}


def test_reachable() -> None:
    assert MAP.reachable("A", "C", 2) and not MAP.reachable("A", "D", 2)
    assert not MAP.reachable("A", "E", 10)
