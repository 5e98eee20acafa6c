"""Frays: combats of several fighters in two camps, on the one engine a duel also runs on.

Published core (issue 15): "each combatant gets 1 combat die, and another 1 per opponent the model is
fighting"; the rest of a fray is the documented estimate (docs/rules/confrontation.md, "Frays").
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.core.chance import Fate, verify_replay
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.rulesets.confrontation.cards import FighterCard, shipped_fighter, shipped_warbands
from rulekeeper.rulesets.confrontation.duel import Duel, exact_odds
from rulekeeper.rulesets.confrontation.exchanges import Health, Report
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import (
    Fray,
    exact_fray_odds,
    fray_method,
    fray_monte_carlo,
    initiative_odds_of,
    initiative_requests,
    resolve_fray,
)
from rulekeeper.rulesets.confrontation.wounds import load_wound_table

TABLE = load_wound_table()
F = Fraction


def fighter(name: str, **kw: Any) -> Combatant:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": 2}
    charged = kw.pop("charged", False)
    base.update(kw)
    return Combatant(FighterCard.model_validate(base), charged)


def test_each_fighter_gets_one_die_and_one_per_opponent_he_fights() -> None:
    """Published core: "each combatant gets 1 combat die, and another 1 per opponent the model is fighting"."""
    two_on_one = Fray(((fighter("A1"), fighter("A2")), (fighter("B"),)), TABLE)
    assert [two_on_one.dice(i) for i in range(3)] == [2, 2, 3]
    chain = Fray(((fighter("A1"), fighter("A2")), (fighter("B1"), fighter("B2"))), TABLE,
                 engaged=frozenset({(0, 2), (2, 1), (1, 3)}))  # A1-B1, B1-A2, A2-B2
    assert [chain.dice(i) for i in range(4)] == [2, 3, 3, 2]
    assert chain.opponents == ((2,), (2, 3), (0, 1), (1,))
    with pytest.raises(ImpossibleRequestError, match="fights no opponent"):
        Fray(((fighter("A1"), fighter("A2")), (fighter("B"),)), TABLE, engaged=frozenset({(0, 2)}))
    with pytest.raises(ImpossibleRequestError, match="two camps"):
        Fray(((fighter("A"),), ()), TABLE)


def test_a_duel_is_the_smallest_fray() -> None:
    a, b = fighter("A", abilities=["Counterattack"]), fighter("B", ATT=5, abilities=["Brutal"])
    fray_odds = exact_fray_odds(Fray(((a,), (b,)), TABLE))
    assert {(e[0], e[1]): p for e, p in fray_odds.items()} == exact_odds(Duel(a, b, TABLE))


def test_the_losing_camp_places_first_and_the_winners_answer_what_may_come_at_them() -> None:
    """Published core: "the winner of the roll places their combat dice … after the loser"; a winner keeps one
    defence die per attack die he may expect (estimated: each opponent's attack dice shared among the fighters
    that opponent fights, rounded up)."""
    fray = Fray(((fighter("A1"), fighter("A2")), (fighter("B"),)), TABLE)
    lone_wins = fray.opening(1)  # A1, A2 place 1/1 each first; B expects 2 attacks, keeps 2 in defence
    assert lone_wins.attack == (1, 1, 1) and lone_wins.defence == (1, 1, 2)
    pair_wins = fray.opening(0)  # B places 2/1 first; each of A1, A2 expects one of B's 2 attacks
    assert pair_wins.attack == (1, 1, 2) and pair_wins.defence == (1, 1, 1)


def test_camps_alternate_and_attack_the_undefended_first() -> None:
    """Estimated: the camps alternate one attack at a time; an attacker strikes the opponent he fights with no
    defence die left, then the one with the fewest HP."""
    fray = Fray(((fighter("A1"), fighter("A2")), (fighter("B"),)), TABLE)
    s = fray.opening(0)
    assert fray.attacker(s) == 0 and fray.target(s, 2) in (0, 1)
    after = fray.after_blow(s, 0, 2, ("parried", ""))
    assert after.defence[2] == 0 and fray.attacker(after) == 2  # B's turn now
    after = fray.after_blow(after, 2, 0, ("fail",))
    assert fray.attacker(after) == 1  # then A2, the next of camp A
    hurt = fray.after_blow(s, 0, 2, ("hit",), Health(1))
    assert fray.target(hurt, 2) == 0 or hurt.defence[0] == 0


def test_desperate_counts_the_camps() -> None:
    """Desperate: "+1 on the final results of his INI, ATT and DEF tests as long as: in his fight his camp has less
    fighters than the other"."""
    lone = fighter("B", abilities=["Desperate"])
    fray = Fray(((fighter("A1"), fighter("A2")), (lone,)), TABLE)
    s = fray.opening(0)
    assert fray.desperate(s, 2) and fray.side(s, 2).att_shape.modifier == 1
    one_left = fray.after_blow(s, 2, 0, ("hit",), Health(0, killed=True))
    assert not fray.desperate(one_left, 2)
    assert not Fray(((fighter("A"),), (lone,)), TABLE).desperate(Fray(((fighter("A"),), (lone,)), TABLE).opening(0), 1)


def test_a_kill_takes_the_fighters_dice_and_the_fray_ends_when_no_one_can_attack() -> None:
    fray = Fray(((fighter("A1"), fighter("A2")), (fighter("B"),)), TABLE)
    s = fray.opening(0)
    dead = fray.after_blow(s, 2, 0, ("hit",), Health(0, killed=True))
    assert dead.attack[0] == 0 and dead.defence[0] == 0
    both = fray.after_blow(dead, 2, 1, ("hit",), Health(0, killed=True))
    assert fray.attacker(both) is None


def _two_on_one() -> Fray:
    hero = fighter("Hero", INI=4, ATT=5, STR=6, DEF=4, RES=5, HP=3, character=True, cost=80,
                   abilities=["Counterattack", "Desperate"])
    return Fray(((fighter("Guard 1", STR=7), fighter("Guard 2", STR=6, abilities=["Fierce"])), (hero,)), TABLE)


def test_a_two_on_one_fray_has_exact_odds_that_sum_to_one() -> None:
    fray = _two_on_one()
    odds = exact_fray_odds(fray)
    assert sum(odds.values()) == 1 and fray_method(fray, "auto") == "exact"
    assert all(len(end) == 3 for end in odds)
    assert 0 < initiative_odds_of(fray) < 1
    hero_killed = sum((p for e, p in odds.items() if e[2] == "killed"), F(0))
    guards_killed = sum((p for e, p in odds.items() if e[0] == e[1] == "killed"), F(0))
    assert 0 < hero_killed < 1 and 0 < guards_killed < 1


def test_exact_fray_odds_agree_with_seeded_resolutions_within_4_sigma() -> None:
    """The issue: "exact odds agree with … seeded resolutions within 4σ", here for a fray (2·10^4 runs: the
    duel's test carries the 10^5)."""
    fray = _two_on_one()
    exact = exact_fray_odds(fray)
    mc = fray_monte_carlo(fray, 20_000, seed=8)
    assert set(mc.odds) <= set(exact)
    for end, p in exact.items():
        sigma = mc.sigma(float(p))
        assert sigma == 0 or abs(mc.odds.get(end, 0.0) - float(p)) <= 4 * sigma, (end, float(p))


def test_a_resolution_replays_and_reports_every_blow() -> None:
    fray = _two_on_one()
    fate = Fate.from_seed(11)
    report = Report()
    end = resolve_fray(fate, fray, report)
    assert fate.start is not None
    verify_replay(fate.start, fate.records)
    assert tuple(h.status() for h in end) in exact_fray_odds(fray) and report.end == tuple(h.status() for h in end)
    assert "initiative" in report.initiative and len(report.placement) == 3
    assert all(" attacks " in b for b in report.blows)
    assert all(math.isclose(sum(r.request.probabilities), 1.0, rel_tol=1e-12) for r in fate.records)


def test_a_large_fray_goes_to_monte_carlo_and_says_so() -> None:
    assert fray_method(Fray(((fighter("A1"), fighter("A2")), (fighter("B1"), fighter("B2"))), TABLE), "auto") == "exact"
    big = Fray(((fighter("A1"), fighter("A2"), fighter("A3")), (fighter("B1"), fighter("B2"))), TABLE)
    assert fray_method(big, "auto") == "monte-carlo" and fray_method(big, "exact") == "exact"
    mc = fray_monte_carlo(big, 300, seed=2)
    assert mc.runs == 300 and abs(sum(mc.odds.values()) - 1) < 1e-9
    with pytest.raises(ImpossibleRequestError, match="--method"):
        fray_method(big, "guess")


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from([f.name for b in shipped_warbands() for f in b.fighters]), min_size=3, max_size=3),
       st.integers(1, 2), st.integers(0, 10**6))
def test_property_a_fray_resolution_replays_and_ends_where_the_exact_odds_say(names: list[str], camp_a: int,
                                                                              seed: int) -> None:
    cards = [shipped_fighter(n).model_copy(update={"name": f"{n} {k}"}) for k, n in enumerate(names)]
    fray = Fray((tuple(Combatant(c) for c in cards[:camp_a]), tuple(Combatant(c) for c in cards[camp_a:])), TABLE)
    fate = Fate.from_seed(seed)
    end = resolve_fray(fate, fray)
    assert fate.start is not None
    verify_replay(fate.start, fate.records)
    assert tuple(h.status() for h in end) in exact_fray_odds(fray)
    assert [r.request.label for r in fate.records[:2]] == [r.label for r in initiative_requests(fray)]
