"""The odds shown before a Battle System action are the odds rolled.

From random reachable states of every shipped scenario (random legal actions, random seeds), for
every legal action: the draws ``preview`` announces are exactly the chance requests the resolution
records, label by label until the first draw that depends on an earlier result (a morale roll
needs the casualties); and the headline numbers are the exact odds of odds.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import icepool
import pytest
from bs_kit import battle, set_unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.core.chance import ChanceRequest
from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.battlesystem.ground import ground_bonus
from rulekeeper.rulesets.battlesystem.odds import attack_odds
from walk_kit import reach

G: Any = game("battlesystem")
SCENARIOS = G.scenarios()


def _same(a: ChanceRequest, b: ChanceRequest) -> bool:
    return (a.label, a.kind, a.outcomes, a.probabilities) == (b.label, b.kind, b.outcomes, b.probabilities)


def mostly_the_policy(g: Any, state: Any, legal: Sequence[Any], rnd: random.Random) -> Any:
    """Mostly the policy (so that fights happen), sometimes anything legal."""
    return g.policy(state) if rnd.random() < 0.7 else rnd.choice(legal).action


def check(state: Any, action: dict[str, Any]) -> int:
    odds = G.preview(state, action)
    out = G.apply(state, action)
    by_label = {d.label: d for d in odds.draws}
    assert len(by_label) == len(odds.draws)
    matched = 0
    for rec in out.chance:
        want = by_label.get(rec.request.label)
        if want is None:
            break
        assert _same(want, rec.request), f"{action}: shown {want.odds()}, rolled {rec.request.odds()}"
        matched += 1
    if action["kind"] in ("attack", "shoot"):
        a, d = state.piece(action["unit"]), state.piece(action["target"])
        kind = "melee" if action["kind"] == "attack" else "missile"
        exact = attack_odds(a.unit(), d.unit(), kind, ground_bonus(state, a, d, kind), state.rules)
        assert odds.headline_dict()["attack fails"] == float(exact.p_fail)
        # the drawn request weights every total by its count out of 10^5: the same exact distribution
        shown = {int(o): Fraction(p).limit_denominator(100_000) for o, p in rec_odds(out)}
        assert shown == exact.totals
    if action["kind"] == "pursue":  # 5d10 + melee − DR, exact; "any casualties" is P(total > 0) of that very roll
        a, d = state.piece(action["unit"]), state.piece(action["target"])
        mod = (a.type.melee or 0) - d.type.damage_reduction
        exact_totals = {o: Fraction(q, 10**5) for o, q in (5 @ icepool.d(10) + mod).items()}
        assert {int(o): Fraction(p).limit_denominator(100_000) for o, p in rec_odds(out)} == exact_totals
        assert odds.headline_dict()["any casualties"] == pytest.approx(float(sum(p for o, p in exact_totals.items()
                                                                                 if o > 0)), abs=1e-12)
    if action["kind"] == "rally":  # 3d10 morale, exact (data/command.yaml)
        exact_totals = {o: Fraction(q, 1000) for o, q in (3 @ icepool.d(10)).items()}
        assert {int(o): Fraction(p).limit_denominator(1000) for o, p in rec_odds(out)} == exact_totals
        assert odds.headline_dict()["expected morale restored"] == "16.5"
    return matched


def rec_odds(out: Any) -> list[tuple[str, float]]:
    odds: list[tuple[str, float]] = out.chance[0].request.odds()
    return odds


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20), steps=st.integers(0, 60), which=st.integers(0, len(SCENARIOS) - 1))
def test_every_legal_action_previews_the_draws_it_makes(seed: int, steps: int, which: int) -> None:
    state = reach(G, SCENARIOS, SCENARIOS[which].key, seed, steps, mostly_the_policy)
    for lg in G.legal_actions(state):
        check(state, lg.action)


def test_the_check_is_not_vacuous() -> None:
    """Across a few battles, attacks, missiles and barrages were all compared."""
    seen: set[str] = set()
    for sc in SCENARIOS:
        for seed in range(3):
            state = G.initial_state(G.setup(SetupRequest(scenario=sc.path, seed=seed)).document)
            while not G.status(state).over:
                action = G.policy(state)
                if check(state, action):
                    seen.add(action["kind"])
                state = G.apply(state, action).state
    assert {"attack", "shoot", "end_turn", "pursue"} <= seen


@pytest.mark.parametrize("seed", range(4))
def test_pursuit_and_rally_preview_the_rolls_they_make(seed: int) -> None:
    """A state where a general can rally and a unit can follow up its pursuit: every legal action checked."""
    units = [("A", "General", "Chief", "A2"), ("A", "Light Infantry", "Foot", "B1"), ("A", "Archers", "Bows", "A1"),
             ("A", "Light Cavalry", "Horse", "D2"), ("B", "Heavy Infantry", "Shields", "C1"),
             ("B", "Pikemen", "Pikes", "H2")]
    state = set_unit(set_unit(battle(units, height=2, seed=seed), "Horse", morale=0), "Shields", morale=1)
    matched = {lg.action["kind"]: check(state, lg.action) for lg in G.legal_actions(state)}
    assert matched["rally"] == 1
    broke = G.apply(state, {"kind": "attack", "side": "A", "unit": "Foot", "target": "Shields"}).state
    follow = {"kind": "pursue", "side": "A", "unit": "Foot", "target": "Shields"}
    assert broke.piece("Shields").fleeing  # 5d10-14 on a unit at 1 morale: these seeds break it
    assert check(broke, follow) == 1
    for lg in G.legal_actions(broke):
        check(broke, lg.action)


@pytest.mark.parametrize("seed", range(3))
def test_support_work_and_ground_preview_the_rolls_they_make(seed: int) -> None:
    """Issue 25: Medics' tend (1d10, exact), Supply and Engineers (no roll), and attacks whose "other bonuses" come
    from the ground (a hill, a forest, a river): every legal action's preview is its roll."""
    units = [("A", "Medics", "Surgeons", "A1"), ("A", "Light Infantry", "Foot", "B1"), ("A", "Supply", "Wagons", "A2"),
             ("A", "Archers", "Bows", "B2"), ("A", "Engineers", "Sappers", "C2"), ("B", "Heavy Infantry", "Shields",
                                                                                   "C1"),
             ("B", "Pikemen", "Pikes", "E2")]
    terrain = [["B1", "open", 1], ["E2", "dense forest", 0], ["D2", "shallow river", 0]]
    state = set_unit(set_unit(battle(units, height=2, terrain=terrain, seed=seed), "Foot", soldiers=60),
                     "Bows", ammunition=4)
    matched = {lg.action["kind"]: check(state, lg.action) for lg in G.legal_actions(state)}
    assert {"tend", "resupply", "bridge", "attack", "shoot"} <= set(matched) and matched["tend"] == 1
    assert matched["attack"] == 1 and matched["shoot"] == 1
    tend = {"kind": "tend", "side": "A", "unit": "Surgeons", "target": "Foot"}
    assert {int(o): Fraction(p).limit_denominator(10) for o, p in rec_odds(G.apply(state, tend))} == \
        {o: Fraction(1, 10) for o in range(1, 11)}
