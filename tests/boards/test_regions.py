"""RegionMap: War Table style region adjacency, traits, hop distances and validation."""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.boards import RegionMap
from rulekeeper.core.errors import InvalidStatError, UnknownNameError


def sym(edges: list[tuple[str, str]], *isolated: str) -> dict[str, frozenset[str]]:
    adj: dict[str, set[str]] = {name: set() for name in isolated}
    for a, b in edges:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in adj.items()}


#   Ashfall - Briar - Cinderholt - Duskmere
#      \                 /
#       ---- Emberwood --          Farreach (island)
MAP = RegionMap(
    sym(
        [
            ("Ashfall", "Briar"),
            ("Briar", "Cinderholt"),
            ("Cinderholt", "Duskmere"),
            ("Ashfall", "Emberwood"),
            ("Emberwood", "Cinderholt"),
        ],
        "Farreach",
    ),
    {"Cinderholt": ("Ruin",), "Emberwood": ("Forest", "Haunted")},
)


def test_neighbours_sorted() -> None:
    assert MAP.neighbours("Cinderholt") == ["Briar", "Duskmere", "Emberwood"]
    assert MAP.neighbours("Farreach") == []
    assert MAP.names() == ["Ashfall", "Briar", "Cinderholt", "Duskmere", "Emberwood", "Farreach"]


def test_bfs_distance_and_path() -> None:
    assert MAP.distance("Ashfall", "Ashfall") == 0
    assert MAP.distance("Ashfall", "Briar") == 1
    assert MAP.distance("Ashfall", "Cinderholt") == 2
    assert MAP.distance("Ashfall", "Duskmere") == 3
    assert MAP.distance("Duskmere", "Ashfall") == 3
    assert MAP.path("Ashfall", "Duskmere") == ["Ashfall", "Briar", "Cinderholt", "Duskmere"]  # sorted tie-break
    assert MAP.path("Briar", "Emberwood") == ["Briar", "Ashfall", "Emberwood"]
    assert MAP.path("Briar", "Briar") == ["Briar"]


def test_unreachable_is_none() -> None:
    assert MAP.distance("Ashfall", "Farreach") is None
    assert MAP.path("Farreach", "Duskmere") is None


def test_traits() -> None:
    assert MAP.traits("Cinderholt") == ("Ruin",)
    assert MAP.traits("Emberwood") == ("Forest", "Haunted")
    assert MAP.traits("Ashfall") == ()


def test_names_are_case_insensitive_but_unknown_names_suggest() -> None:
    assert MAP.resolve("cinderholt") == "Cinderholt"
    assert MAP.distance("ashfall", "DUSKMERE") == 3
    assert MAP.contains("briar") and not MAP.contains("Bryar Patch")
    with pytest.raises(UnknownNameError) as err:
        MAP.neighbours("Cinderhold")
    assert err.value.suggestions[0] == "Cinderholt"
    assert "Cinderhold" in str(err.value)
    with pytest.raises(UnknownNameError):
        MAP.distance("Ashfall", "Nowhere")
    with pytest.raises(UnknownNameError):
        MAP.traits("Emberwod")


def test_asymmetric_and_unknown_neighbours_all_reported_at_once() -> None:
    with pytest.raises(InvalidStatError) as err:
        RegionMap(
            {
                "A": frozenset({"B", "Z"}),  # Z unknown
                "B": frozenset(),  # does not list A back
                "C": frozenset({"C"}),  # borders itself
            },
            {"Q": ("Ruin",)},  # traits for an unknown region
        )
    problems = err.value.details["problems"]
    assert problems == [
        "'A' borders 'B' but 'B' does not border 'A'",
        "'A' borders unknown region 'Z'",
        "'C' lists itself as a neighbour",
        "traits given for unknown region 'Q'",
    ]
    assert "4 problems" in str(err.value)


def test_other_validation_errors() -> None:
    with pytest.raises(InvalidStatError, match="differ only by case"):
        RegionMap({"Briar": frozenset(), "briar": frozenset()})
    with pytest.raises(InvalidStatError, match="must be a set"):
        RegionMap({"A": "B"})  # type: ignore[dict-item]
    with pytest.raises(InvalidStatError, match="tuple of strings"):
        RegionMap({"A": frozenset()}, {"A": "Ruin"})  # type: ignore[dict-item]
    with pytest.raises(InvalidStatError, match="non-empty"):
        RegionMap({"": frozenset()})


def test_map_is_immutable_value() -> None:
    adj = sym([("A", "B")])
    m = RegionMap(adj)
    adj["C"] = frozenset()
    assert m.names() == ["A", "B"]
    assert m == RegionMap(sym([("A", "B")]), {})
    assert m != RegionMap(sym([("A", "B")]), {"A": ("Ruin",)})
    with pytest.raises(TypeError):
        m.regions["C"] = frozenset()  # type: ignore[index]


names = st.sampled_from([f"R{i}" for i in range(8)])


@settings(deadline=None)
@given(st.lists(st.tuples(names, names).filter(lambda e: e[0] != e[1]), max_size=14), names, names)
def test_distance_matches_floyd_warshall(edges: list[tuple[str, str]], a: str, b: str) -> None:
    m = RegionMap(sym(edges, *[f"R{i}" for i in range(8)]))
    inf = 10**6
    nodes = m.names()
    d = {(x, y): 0 if x == y else (1 if y in m.regions[x] else inf) for x in nodes for y in nodes}
    for k in nodes:
        for i in nodes:
            for j in nodes:
                d[i, j] = min(d[i, j], d[i, k] + d[k, j])
    expected = None if d[a, b] >= inf else d[a, b]
    assert m.distance(a, b) == expected
    route = m.path(a, b)
    if route is not None:
        assert route[0] == a and route[-1] == b
        assert all(y in m.regions[x] for x, y in pairwise(route))
    # BFS from a reaches exactly the regions with a finite distance
    seen, queue = {a}, deque([a])
    while queue:
        for n in m.neighbours(queue.popleft()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert seen == {n for n in nodes if m.distance(a, n) is not None}
