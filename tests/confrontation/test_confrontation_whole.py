"""The whole fray before it is fought, fast (issue 27): "Confrontation: frays of any size the scenarios produce
(at least 4 v 4), exact where the state space allows and otherwise a vectorised estimate with its stated error,
in under 1 s"; and every skirmish action with chance previews its whole result.

The exact walk is checked against the engine's exact fractions; the numpy kernel against the exact walk (within
4 sigma per end) and against the engine's own resolutions (within 4 sigma of both samples).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cf_start import past_tactical

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.whole import WholeOdds, whole_odds_of
from rulekeeper.rulesets.confrontation.cards import FighterCard, shipped_fighter
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import Fray, exact_fray_odds, fray_monte_carlo
from rulekeeper.rulesets.confrontation.fray_kernel import kernel_ends, supported
from rulekeeper.rulesets.confrontation.fray_whole import exact_fray_floats, fray_ends, fray_whole_odds
from rulekeeper.rulesets.confrontation.state import SkirmishState
from rulekeeper.rulesets.confrontation.wounds import load_wound_table

TABLE = load_wound_table()
SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"
FORD, MILL_RACE = SCENARIOS / "the_ford.yaml", SCENARIOS / "the_mill_race.yaml"


def shipped(*names: str, camp_a: int) -> Fray:
    fs = [Combatant(shipped_fighter(n)) for n in names]
    return Fray((tuple(fs[:camp_a]), tuple(fs[camp_a:])), TABLE)


def card(name: str, **kw: Any) -> Combatant:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": 2}
    base.update(kw)
    return Combatant(FighterCard.model_validate(base))


def within_4_sigma(exact: dict[tuple[str, ...], float], sampled: dict[tuple[str, ...], float], runs: int) -> None:
    for end in set(exact) | set(sampled):
        p = exact.get(end, 0.0)
        sigma = math.sqrt(max(p * (1 - p), 1.0 / runs) / runs)
        assert abs(sampled.get(end, 0.0) - p) <= 4 * sigma, (end, p, sampled.get(end, 0.0))


def test_the_exact_walk_in_floats_is_the_engines_exact_fractions() -> None:
    fray = Fray(((card("A1"), card("A2", ATT=5)), (card("B1", HP=3), card("B2", DEF=4))), TABLE)
    exact = exact_fray_odds(fray)
    floats = exact_fray_floats(fray)
    assert set(floats) == set(exact)
    for end, p in exact.items():
        assert floats[end] == pytest.approx(float(p), abs=1e-12)


def test_the_kernel_agrees_with_the_exact_odds_of_a_two_against_two() -> None:
    fray = shipped("Alahan swordsman", "Alahan guard", "Wolfen hunter", "Wolfen predator", camp_a=2)
    assert supported(fray)
    exact = {end: float(p) for end, p in exact_fray_odds(fray).items()}
    within_4_sigma(exact, kernel_ends(fray, 20_000, 5), 20_000)


def test_the_kernel_agrees_with_the_exact_odds_of_a_chain_with_desperate_and_counterattack() -> None:
    """Who fights whom (a chain), Desperate ("in his fight his camp has less fighters"), Counterattack's die."""
    fray = Fray(((card("A1", abilities=["Counterattack"]), card("A2", HP=3)),
                 (card("B1", abilities=["Desperate"], cost=10), card("B2", abilities=["Hard-boiled"]))), TABLE,
                engaged=frozenset({(0, 2), (2, 1), (1, 3)}))
    assert supported(fray)
    exact = {end: float(p) for end, p in exact_fray_odds(fray).items()}
    within_4_sigma(exact, kernel_ends(fray, 20_000, 6), 20_000)


def test_the_kernel_agrees_with_the_engines_resolutions_of_a_three_against_two() -> None:
    """The issue's 44-second fray: its kill odds by the kernel and by the engine's own resolutions."""
    fray = shipped("Alahan swordsman", "Alahan guard", "Alahan paladin", "Wolfen hunter", "Wolfen predator",
                   camp_a=3)
    found = fray_ends(fray)
    assert found.method == "estimate" and found.error_bound == pytest.approx(1.96 * math.sqrt(0.25 / 10_000))
    runs = 1_500
    sampled = fray_monte_carlo(fray, runs, 11).odds
    for k in range(5):
        p = sum(q for e, q in found.odds.items() if e[k] == "killed")
        s = sum(q for e, q in sampled.items() if e[k] == "killed")
        assert abs(p - s) <= 4 * math.sqrt(max(p * (1 - p), 1e-4) * (1 / runs + 1 / 10_000)), k


def test_a_four_against_four_is_estimated_with_its_error() -> None:
    fray = shipped("Alahan swordsman", "Alahan guard", "Alahan paladin", "Alahan swordsman", "Wolfen hunter",
                   "Wolfen predator", "Wolfen warlord", "Wolfen tracker", camp_a=4)
    whole = fray_whole_odds(fray)
    assert whole.method == "estimate" and 0.009 < whole.error_bound < 0.01
    assert [o for o, _ in whole.measure("enemies_killed").outcomes] == ["0", "1", "2", "3", "4"]
    losses = whole.measure("own_losses")
    assert losses.mean is not None and 0 < losses.mean < 4
    assert whole.event("no one killed") + sum(p for o, p in losses.outcomes if o != "0") >= 0.99


def test_a_fray_the_kernel_does_not_model_is_sampled_by_the_engine() -> None:
    fray = Fray(((card("A1", abilities=["Master strike/1"]), card("A2")), (card("B1"), card("B2"), card("B3"))),
                TABLE)
    assert not supported(fray)
    found = fray_ends(fray)
    assert found.method == "estimate" and "resolutions by the engine" in found.note
    assert found.error_bound == pytest.approx(1.96 * math.sqrt(0.25 / 2_000))


# -- the skirmish's actions --------------------------------------------------------------------------------


def start(g: Game, scenario: Path = FORD) -> SkirmishState:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=scenario, seed=3)).document))
    assert isinstance(state, SkirmishState)
    return state


def engaged(state: SkirmishState, pairs: list[tuple[str, str]]) -> SkirmishState:
    with_whom: dict[str, list[str]] = {}
    for a, b in pairs:
        with_whom.setdefault(a, []).append(b)
        with_whom.setdefault(b, []).append(a)
    fighters = tuple(replace(f, engaged=tuple(with_whom.get(f.key, ())), activated=True) for f in state.fighters)
    return replace(state, fighters=fighters, phase="combat", to_act="A")


def sampled_apply(g: Game, state: SkirmishState, action: dict[str, Any], runs: int,
                  measure: Any) -> dict[Any, float]:
    """A seeded Monte Carlo of the engine's own ``apply``: the state reseeded each run."""
    counts: dict[Any, int] = {}
    for seed in range(runs):
        out = g.apply(replace(state, rng=type(state.rng).from_seed(1000 + seed)), action).state
        key = measure(out)
        counts[key] = counts.get(key, 0) + 1
    return {k: v / runs for k, v in counts.items()}


def agree(whole: WholeOdds, key: str, sampled: dict[Any, float], runs: int) -> None:
    for outcome, p in whole.measure(key).outcomes:
        s = sampled.get(int(outcome), 0.0)
        assert abs(s - p) <= 4 * math.sqrt(max(p * (1 - p), 1.0 / runs) / runs) + whole.error_bound, (outcome, p, s)


@pytest.mark.parametrize("placement", ["keeper", "players"])
def test_a_fights_whole_odds_agree_with_the_engines_apply(g: Game, placement: str) -> None:
    """The keeper's one-action fight: its whole odds are the fray's. The players' (placing.py): the fight draws
    the INI tests alone (no whole odds), and the last placement, which draws the exchanges, has the fray's from
    the winner's opening with every die placed (here a placement other than the keeper's proposal)."""
    s = engaged(start(g), [("Alahan guard", "Wolfen hunter")])
    s = replace(s, options=(*(o for o in s.options if o[0] != "placement"), ("placement", placement)))
    fight = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "fight")
    if placement == "players":
        assert whole_odds_of(g, s, fight) is None
        s = g.apply(s, fight).state
        first = g.legal_actions(s)
        assert whole_odds_of(g, s, first[0].action) is None  # a placement the other camp's follows
        s = g.apply(s, first[0].action).state
        fight = g.legal_actions(s)[-1].action  # the last placement, not the proposal
    whole = whole_odds_of(g, s, fight)
    assert whole is not None and whole.method == "exact"
    hp_keys = [m.key for m in whole.measures if m.label == "Wolfen hunter: HP left"]
    runs = 200
    sampled = sampled_apply(g, s, fight, runs, lambda out: out.fighter("Wolfen hunter").hp)
    agree(whole, hp_keys[0], sampled, runs)
    killed = sampled_apply(g, s, fight, runs, lambda out: int(out.fighter("Wolfen hunter").killed))
    assert abs(killed.get(1, 0.0) - whole.event("Wolfen hunter killed")) <= 4 * math.sqrt(0.25 / runs)


def test_a_shots_whole_odds_agree_with_the_engines_apply(g: Game) -> None:
    s = start(g, MILL_RACE)
    shot = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "shoot")
    whole = whole_odds_of(g, s, shot)
    assert whole is not None and whole.method == "exact"
    runs = 400
    target = str(shot["target"])
    agree(whole, "hp_target", sampled_apply(g, s, shot, runs, lambda out: out.fighter(target).hp), runs)


def test_every_legal_action_of_the_starter_has_whole_odds_or_none_fast(g: Game) -> None:
    s = engaged(start(g), [("Alahan guard", "Wolfen hunter"), ("Alahan swordsman", "Wolfen hunter")])
    seen = set()
    while True:  # the fight, then its placements: the last one draws the fray and shows its whole odds
        legal = g.legal_actions(s)
        for lg in legal:
            whole = whole_odds_of(g, s, lg.action)
            if whole is not None:
                seen.add(lg.action["kind"])
                for m in whole.measures:
                    assert math.fsum(p for _, p in m.outcomes) == pytest.approx(1.0)
        if not legal or legal[0].action["kind"] not in ("fight", "place"):
            break
        s = g.apply(s, legal[0].action).state
    assert "place" in seen


def test_a_charges_whole_odds_are_its_cou_tests() -> None:
    from rulekeeper.rulesets.confrontation.abilities import shape_of
    from rulekeeper.rulesets.confrontation.fear import FearTest
    from rulekeeper.rulesets.confrontation.rolls import p_success
    from rulekeeper.rulesets.confrontation.whole import charge_whole

    shape = shape_of("COU", [])
    mine, theirs = FearTest("me", 5, 3, shape), FearTest("him", 4, 2, shape)
    whole = charge_whole("him", mine, [], theirs)
    goes = float(p_success(shape, 3, 5))
    assert whole.event("charge goes in") == pytest.approx(goes)
    assert whole.event("him routs") == pytest.approx(goes * (1 - float(p_success(shape, 2, 4))))
    assert whole.measure("charge").probability("does not charge") == pytest.approx(1 - goes)
    assert goes == float(Fraction(mine.chance()))


@pytest.mark.parametrize("steps", [1, 2])
def test_a_charges_whole_odds_agree_with_the_engines_apply(g: Game, steps: int) -> None:
    """The ford after one or two of the policy's actions: a Wolfen charge that may rout its target, an Alahan
    charge whose charger may fail his COU test (the Wolfen's FEAR)."""
    s: Any = start(g)
    for _ in range(steps):
        action = g.policy(s)
        assert action is not None
        s = g.apply(s, action).state
    charges = [lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "charge"]
    charge = next(a for a in charges if (w := whole_odds_of(g, s, a)) is not None
                  and 0 < w.event("charge goes in") * (1 - w.event(f"{a['target']} routs")) < 1)
    whole = whole_odds_of(g, s, charge)
    assert whole is not None
    runs = 300
    charger, target = str(charge["fighter"]), str(charge["target"])
    went = rout = 0
    for seed in range(runs):
        out = g.apply(replace(s, rng=type(s.rng).from_seed(77 + seed)), charge).state
        went += target in out.fighter(charger).engaged
        rout += out.fighter(target).rout > 0 and s.fighter(target).rout == 0
    for shown, freq in ((whole.event("charge goes in"), went / runs), (whole.event(f"{target} routs"), rout / runs)):
        assert abs(freq - shown) <= 4 * math.sqrt(max(shown * (1 - shown), 1 / runs) / runs), (shown, freq)


def test_the_kernels_attack_odds_are_the_engines_in_floats() -> None:
    """``attack_floats`` (the kernel's rows) against ``attack_outcomes`` (the exact walk's), every side met."""
    from rulekeeper.rulesets.confrontation.exchanges import attack_outcomes
    from rulekeeper.rulesets.confrontation.fray_kernel import FAIL, GAINED, HIT, PARRIED, attack_floats

    fray = Fray(((card("A1", abilities=["Counterattack"]), card("A2", ATT=6, abilities=["Brutal"])),
                 (card("B1", DEF=5, abilities=["Hardened"]), card("B2", abilities=["Desperate"], cost=5))), TABLE)
    s = fray.opening(0)
    compared = 0
    for i in range(4):
        for t in range(4):
            for defends in (False, True):
                att, dfd = fray.side(s, i), fray.side(s, t)
                exact = {FAIL if b[0] == "fail" else HIT if b[0] == "hit" else GAINED if b[1] == "gain" else PARRIED:
                         float(p) for b, p in attack_outcomes(att, dfd, defends, fray.fighters[t].counter_margin)}
                floats = dict(attack_floats(att, dfd, defends, fray.fighters[t].counter_margin))
                assert floats.keys() == exact.keys()
                assert all(floats[k] == pytest.approx(exact[k], abs=1e-12) for k in exact)
                compared += 1
    assert compared == 32
