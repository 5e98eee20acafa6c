"""The engine's shortcuts give exactly what the plain paths give.

``apply`` with the policy's ``Legal`` (no second legal list), ``choose_and_apply``, the
per-volley shot odds, the per-round target draws, ``evolve`` for ``dataclasses.replace``,
memoized profiles and routes: each is compared with the slow path it replaces.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from exillis_battle_kit import tables

from rulekeeper.core.chance import ChanceResult, Fate, discrete
from rulekeeper.core.errors import InvalidStatError
from rulekeeper.rulesets.exillis import levels, melee, ranged
from rulekeeper.rulesets.exillis.battle.actions import legal_actions
from rulekeeper.rulesets.exillis.battle.engine import Outcome, apply
from rulekeeper.rulesets.exillis.battle.morale_loop import sync_heroes
from rulekeeper.rulesets.exillis.battle.moves import charge_routes, move_routes
from rulekeeper.rulesets.exillis.battle.policy import choose, choose_and_apply
from rulekeeper.rulesets.exillis.battle.setup import initial_state, state_from_dict, state_to_dict
from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.battle.tables import BattleTables
from rulekeeper.rulesets.exillis.fastcopy import evolve
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def start(name: str = "starter", seed: int = 5) -> BattleState:
    t = tables()
    return initial_state(load_scenario(ROOT / f"examples/exillis/{name}.yaml", t.roster, t.rules), seed, t)


def chance_rows(records: tuple[ChanceResult, ...]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in records]


def same_outcome(a: Outcome, b: Outcome) -> None:
    assert state_to_dict(a.state) == state_to_dict(b.state)
    assert a.legal == b.legal
    assert json.dumps(a.to_result(), sort_keys=True) == json.dumps(b.to_result(), sort_keys=True)


@pytest.mark.parametrize("name, seed", [("starter", 5), ("hastings", 11), ("forest_fence", 3)])
def test_apply_with_the_chosen_legal_is_apply_without_it(name: str, seed: int) -> None:
    t = tables()
    state = start(name, seed)
    for _ in range(400):
        lg = choose(state, t)
        if lg is None:
            break
        fast = apply(state, lg.action, t, lg)
        same_outcome(fast, apply(state, lg.action, t))
        fused = choose_and_apply(state, t)
        assert fused is not None
        same_outcome(fast, fused)
        state = fast.state
    assert state.over
    assert choose_and_apply(state, t) is None


def test_apply_refuses_a_legal_entry_of_another_action() -> None:
    t = tables()
    state = start()
    a, b = legal_actions(state, t)[:2]
    with pytest.raises(ValueError, match="is not the action"):
        apply(state, a.action, t, b)


def test_state_from_dict_rebuilds_the_state_and_shares_scaled_profiles() -> None:
    t = tables()
    state = start("hastings", 11)
    for _ in range(12):
        out = choose_and_apply(state, t)
        assert out is not None
        state = out.state
    doc = json.loads(json.dumps(state_to_dict(state)))
    again, twice = state_from_dict(doc, t), state_from_dict(doc, t)
    assert state_to_dict(again) == state_to_dict(state)
    assert again.units == state.units
    assert all(x.c.profile is y.c.profile for x, y in zip(again.units, twice.units, strict=True) if not x.kills)


def test_at_level_is_memoized_but_still_refuses_bad_levels() -> None:
    p = tables().roster.get("Billmen")
    opts = ExIllisOptions()
    assert levels.at_level(p, 3, opts) is levels.at_level(p, 3, opts)
    assert levels.at_level(p, 3, opts) == p.scaled(3, 2)
    assert levels.at_level(p, 3, ExIllisOptions(stat_levels="level")) == p.scaled(3, 3)
    for bad in (0, p.max_level + 1, True, 2.0):
        with pytest.raises(InvalidStatError):
            levels.at_level(p, bad, opts)  # type: ignore[arg-type]


def test_volley_odds_once_per_set_of_living_miniatures_is_the_same_volley(monkeypatch: pytest.MonkeyPatch) -> None:
    t = tables()
    from rulekeeper.rulesets.exillis.setup import Tables, UnitSpec, build

    tb = Tables(t.roster, t.rules)
    shooter = build(tb, UnitSpec("Longbowmen"), "A", set())
    zone = (build(tb, UnitSpec("Vileins"), "B", set()), build(tb, UnitSpec("Billmen"), "A", set()))
    setup = ranged.ShotSetup(shooter, zone, distance=2, data=t.rules)
    cached = [ranged.resolve_volley(setup, Fate.from_seed(s)) for s in range(20)]

    def every_shot(setup: ranged.ShotSetup, shooter: Any, now: Any, label: str, seen: Any) -> Any:
        o = ranged.shot_odds(dataclasses.replace(setup, shooter=shooter, target_zone=now))
        return o, discrete(label, o.odds, o.explain)

    def every_pool(s: Any, now: Any, friendly: bool, key: str, label: str, seen: Any, own_zone: bool = False) -> Any:
        pool = [(c.mini(i), c.stat(key) * (0.5 if c.moved else 1.0), c.key, i) for c in now
                if (ranged.exposed_ally(s, c, own_zone) if friendly else c.side != s.side) for i in c.alive()]
        if not pool:
            return None
        return {n: (k, i) for n, _, k, i in pool}, discrete(label, [(n, w) for n, w, _, _ in pool], ranged.POOL_EXPLAIN)

    monkeypatch.setattr(ranged, "_volley_odds", every_shot)
    monkeypatch.setattr(ranged, "_pool", every_pool)
    for s, report in enumerate(cached):
        fate = Fate.from_seed(s)
        plain = ranged.resolve_volley(setup, fate)
        assert plain.to_dict() == report.to_dict()
    fast_fate, slow_fate = Fate.from_seed(3), Fate.from_seed(3)
    monkeypatch.undo()
    ranged.resolve_volley(setup, fast_fate)
    monkeypatch.setattr(ranged, "_volley_odds", every_shot)
    monkeypatch.setattr(ranged, "_pool", every_pool)
    ranged.resolve_volley(setup, slow_fate)
    assert chance_rows(tuple(fast_fate.records)) == chance_rows(tuple(slow_fate.records))


def test_target_draws_once_per_candidate_set_are_the_same_round(monkeypatch: pytest.MonkeyPatch) -> None:
    t = tables()
    from rulekeeper.rulesets.exillis.setup import Tables, UnitSpec, build

    tb = Tables(t.roster, t.rules)
    zone = (build(tb, UnitSpec("Billmen"), "A", set()), build(tb, UnitSpec("Vileins"), "B", set()))
    ctx = melee.MeleeContext(t.rules)
    fast = [Fate.from_seed(s) for s in range(10)]
    fast_reports = [melee.resolve_round(zone, "Billmen", ctx, f) for f in fast]
    monkeypatch.setattr(melee, "_assignment", lambda label, candidates, seen: discrete(label, candidates, melee.TARGET_EXPLAIN))
    slow = [Fate.from_seed(s) for s in range(10)]
    slow_reports = [melee.resolve_round(zone, "Billmen", ctx, f) for f in slow]
    assert [r.to_dict() for r in fast_reports] == [r.to_dict() for r in slow_reports]
    assert [chance_rows(tuple(f.records)) for f in fast] == [chance_rows(tuple(f.records)) for f in slow]


def test_evolve_is_dataclasses_replace() -> None:
    state = start()
    u = state.units[0]
    assert evolve(u, acp=123.0) == dataclasses.replace(u, acp=123.0)
    assert evolve(u.c, morale_base=-5.0, fleeing=True) == dataclasses.replace(u.c, morale_base=-5.0, fleeing=True)
    assert evolve(state, clock=9.0, active=()) == dataclasses.replace(state, clock=9.0, active=())
    with pytest.raises(TypeError, match="no field"):
        evolve(u, nonsense=1)
    with pytest.raises(InvalidStatError):
        evolve(u.c, fatigue=-1.0)  # validation still runs
    with pytest.raises(InvalidStatError):
        evolve(u.c, hp=(-1.0,))
    assert evolve(evolve(u, acp=5.0), acp=6.0) == dataclasses.replace(u, acp=6.0)


def test_evolve_does_not_carry_what_the_old_state_worked_out() -> None:
    state = start()
    u = state.units[0]
    assert state.in_zone(u.zone) if u.zone else True  # builds the zone index
    moved = evolve(state, units=tuple(evolve(x, zone=None) if x.key == u.key else x for x in state.units))
    assert u.key not in {x.key for x in moved.in_zone(u.zone)} if u.zone else True


def test_routes_are_memoized_per_state_and_handed_out_as_copies() -> None:
    t = tables()
    state = start()
    u = state.unit(state.active[0])
    first = move_routes(state, t.rules, u)
    first.clear()
    assert move_routes(state, t.rules, u) == move_routes(dataclasses.replace(state), t.rules, u)
    assert move_routes(state, t.rules, u)
    assert charge_routes(state, t.rules, u) == charge_routes(dataclasses.replace(state), t.rules, u)


def test_sync_heroes_keeps_a_state_that_needs_no_change() -> None:
    state = start("hastings", 11)
    assert sync_heroes(state) is state


def test_shipped_tables_are_the_loaded_ones() -> None:
    assert BattleTables.shipped().roster is tables().roster


def test_state_lookups_agree_with_the_plain_definitions() -> None:
    t = tables()
    state = start("hastings", 11)
    board = state.board
    for _ in range(25):
        for z in board.zones():
            assert state.in_zone(z) == [u for u in state.units if u.on_board and u.zone == z]
            assert state.zone_name(z) == board.name(z)
            assert state.zone_at(board.name(z)) == z == state.zone_at(board.name(z).lower())
            for side in state.sides():
                assert state.enemies_in(z, side) == [u for u in state.in_zone(z) if u.side != side]
                enemies = [e.zone for e in state.units if e.side != side and e.on_board and e.zone is not None]
                expect = min((board.distance(z, e) for e in enemies), default=None)
                assert state.nearest_enemy(z, side) == expect
            for to in board.zones():
                assert state.crossed(z, to) == board.crossed(z, to)
        for u in state.units:
            assert state.unit(u.key) is u
        out = choose_and_apply(state, t)
        if out is None:
            break
        state = out.state
