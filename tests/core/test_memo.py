"""A state's legal list is built once and every preview reuses it (issue 22, point 5; issue 23, fault 5).

Before: each Battle System and Dragon Noir ``preview`` ran ``check()``, which rebuilt every legal action, so
listing ``n`` actions with their odds built the list ``n + 1`` times (``GET /actions`` median 240 ms, p95 up
to 1.5 s on the Battle System). Now the list is kept on the state (``core.memo``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest

from rulekeeper.core.game import LegalAction, SetupRequest
from rulekeeper.core.memo import action_key, allows, legal_list, per_state, remembered
from rulekeeper.core.ruleset import game


@dataclass(frozen=True)
class Counter:
    value: int


def test_remembered_once_per_state_object_never_for_an_equal_one() -> None:
    calls: list[int] = []
    a, twin = Counter(1), Counter(1)
    assert remembered(a, "k", lambda: calls.append(1) or len(calls)) == 1
    assert remembered(a, "k", lambda: calls.append(1) or len(calls)) == 1
    assert remembered(twin, "k", lambda: calls.append(1) or len(calls)) == 2  # equal, but another object
    assert a == twin  # the memo is no field: equality and replace ignore it
    assert replace(a, value=2).__dict__ == {"value": 2}


def test_per_state_keys_on_the_arguments() -> None:
    seen: list[tuple[int, int]] = []

    @per_state
    def plus(state: Counter, n: int) -> int:
        seen.append((state.value, n))
        return state.value + n

    s = Counter(3)
    assert [plus(s, 1), plus(s, 1), plus(s, 2)] == [4, 4, 5]
    assert seen == [(3, 1), (3, 2)]


def test_action_key_is_equal_exactly_when_the_actions_are() -> None:
    assert action_key({"to": 3, "units": ["a", "b"]}) == action_key({"units": ["a", "b"], "to": 3.0})
    assert action_key({"units": ["a", "b"]}) != action_key({"units": ["b", "a"]})
    assert action_key({"units": ["a"]}) != action_key({"units": ("a",)})  # [1] != (1,) under == too
    assert action_key({"to": "3"}) != action_key({"to": 3})


def test_allows_and_legal_list_build_once() -> None:
    built: list[Any] = []

    def build(state: Counter) -> list[LegalAction]:
        built.append(state)
        return [LegalAction({"kind": "hold", "side": "A", "n": state.value}, "hold", "A")]

    s = Counter(7)
    first = legal_list(s, build)
    first.clear()  # a fresh list each call: a caller may change its own copy
    assert [lg.action for lg in legal_list(s, build)] == [{"kind": "hold", "side": "A", "n": 7}]
    assert allows(s, {"side": "A", "kind": "hold", "n": 7}, build)
    assert not allows(s, {"side": "A", "kind": "hold", "n": 8}, build)
    assert not allows(s, {"side": "A", "kind": "hold", "n": [{}]}, build)  # unhashable inside: simply not listed
    assert built == [s]


def _midgame(name: str, scenario: str, actions: int) -> Any:
    g = game(name)
    info = next(i for i in g.scenarios() if i.key == scenario)
    state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=1)).document)
    for _ in range(actions):
        action = g.policy(state)
        assert action is not None
        state = g.apply(state, action).state
    return g, state


@pytest.mark.parametrize(("name", "module", "scenario", "actions"), [
    ("battlesystem", "rulekeeper.rulesets.battlesystem.actions", "river_crossing", 7),
    ("dragonnoir", "rulekeeper.rulesets.dragonnoir.legal", "the_ford", 1),
])
def test_listing_every_action_with_its_odds_builds_the_legal_list_once(
        name: str, module: str, scenario: str, actions: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    mod = importlib.import_module(module)
    g, state = _midgame(name, scenario, actions)
    state = g.state_from_json(g.state_to_json(state))  # nothing computed on it yet
    raw = mod._legal_actions
    builds: list[object] = []

    def counted(s: Any) -> list[LegalAction]:
        builds.append(s)
        return list(raw(s))

    monkeypatch.setattr(mod, "_legal_actions", counted)
    legal = g.legal_actions(state)
    odds = [g.preview(state, lg.action) for lg in legal]
    assert len(legal) >= 18 and len(odds) == len(legal)
    assert len(builds) == 1  # was len(legal) + 1 (each preview's check() rebuilt the list)
    with pytest.raises(Exception, match="not legal now"):
        g.apply(state, {**legal[0].action, "side": legal[0].action["side"], "kind": "move", "to": "Z99"})
    assert len(builds) == 1
