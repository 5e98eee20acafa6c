"""The sampled kernel (``whole/sampled_round.py``, ``whole/sampled_volley.py``) against the exact one, outcome by outcome.

When a crowded zone's wounds make too many states to enumerate within a preview's work allowance
(``dist.EXACT_WORK``), the action's last round or volley is sampled for 10,000 particles with the same
draw laws instead. Here both kernels work the same positions (the agreement test's, where the exact
one finishes) and every probability they show must agree within 4.5 binomial standard errors of
10,000 particles (±0.023 at worst): a missed retaliation, a cap ignored, a wrong damage law or a
mis-ordered death would move whole outcomes by more. The bound each states (±0.0098, 95 %) is checked too.
"""

from __future__ import annotations

import math

import pytest
from exillis_battle_kit import act, battle, legal, tables, unit
from exillis_matchups import MATCHUPS, SEVERAL_ROUNDS, Matchup

from rulekeeper.core.whole import WholeOdds
from rulekeeper.rulesets.exillis.whole import dist, sampled_action
from rulekeeper.rulesets.exillis.whole.compute import whole_action
from rulekeeper.rulesets.exillis.whole.melee_actions import Sequence
from rulekeeper.rulesets.exillis.whole.sampled import MIN_SHARE, PARTICLES, half_width, share
from rulekeeper.rulesets.exillis.whole.summary import whole_odds
from rulekeeper.rulesets.exillis.whole.volleys import _volleys

CHECKED = [m for m in MATCHUPS if m.name in (
    "knights charge peasants", "billmen fight peasants", "peasants fight billmen", "flank charge",
    "charge into a crowded zone", "fight wounded peasants", "longbow volley", "volley fire", "swift shot",
    "volley into a melee", "volley at shielded knights", "group fight of a hero and retinue")]


def _odds(m: Matchup, work: float, monkeypatch: pytest.MonkeyPatch) -> WholeOdds:
    monkeypatch.setattr(dist, "EXACT_WORK", work)
    state = m.build()
    lg = next(lg for lg in legal(state) if lg.action.kind == m.kind and lg.action.unit == m.unit
              and (m.target is None or lg.action.target == m.target)
              and (m.option is None or lg.action.option == m.option))
    odds = whole_action(state, tables(), lg)
    assert odds is not None
    return odds


@pytest.fixture(autouse=True)
def _no_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "MAX_SECONDS", math.inf)
    monkeypatch.setattr(dist, "MAX_WORK", math.inf)  # the preview's work allowance too: the tests check the numbers


def test_the_stated_bound_is_the_95_percent_half_width() -> None:
    assert PARTICLES == 10_000
    assert half_width(PARTICLES) == pytest.approx(1.96 * math.sqrt(0.25 / 10_000))
    assert round(half_width(PARTICLES), 4) == 0.0098


@pytest.mark.parametrize("m", CHECKED, ids=[m.name for m in CHECKED])
def test_sampled_agrees_with_exact(m: Matchup, monkeypatch: pytest.MonkeyPatch) -> None:
    exact = _odds(m, math.inf, monkeypatch)
    sampled = _odds(m, 0, monkeypatch)
    assert exact.error_bound < 1e-3 and sampled.method == "estimate"
    assert "10000 particles" in sampled.note and "±0.0098 (95 %)" in sampled.note
    bad = []
    for e in exact.measures:
        s = sampled.measure(e.key)
        for outcome in {o for o, _ in e.outcomes} | {o for o, _ in s.outcomes}:
            p, q = e.probability(outcome), s.probability(outcome)
            if abs(p - q) > 4.5 * math.sqrt(max(p * (1 - p), 1 / PARTICLES) / PARTICLES) + exact.error_bound + 1e-9:
                bad.append(f"{e.key}={outcome}: exact {p:.4f}, sampled {q:.4f}")
    for (name, p), (_n, q) in zip(exact.events, sampled.events, strict=True):
        if abs(p - q) > 4.5 * math.sqrt(max(p * (1 - p), 1 / PARTICLES) / PARTICLES) + exact.error_bound + 1e-9:
            bad.append(f"{name}: exact {p:.4f}, sampled {q:.4f}")
    assert bad == []


def _agree(exact: WholeOdds, sampled: WholeOdds) -> list[str]:
    """Every probability of ``sampled`` within 4.5 binomial standard errors of ``exact``'s (plus its bound)."""
    bad = []
    for e in exact.measures:
        s = sampled.measure(e.key)
        for outcome in {o for o, _ in e.outcomes} | {o for o, _ in s.outcomes}:
            p, q = e.probability(outcome), s.probability(outcome)
            if abs(p - q) > 4.5 * math.sqrt(max(p * (1 - p), 1 / PARTICLES) / PARTICLES) + exact.error_bound + 1e-9:
                bad.append(f"{e.key}={outcome}: exact {p:.4f}, sampled {q:.4f}")
    return bad


@pytest.mark.parametrize("m", SEVERAL_ROUNDS, ids=[m.name for m in SEVERAL_ROUNDS])
def test_an_action_of_several_rounds_is_sampled_whole(m: Matchup, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the exact allowance a group's fight or a charge that meets reactions is sampled round after round, each
    particle carrying its wounds (``sampled_action.sampled_play``), not left to the per-draw odds."""
    calls: list[int] = []
    play = sampled_action.sampled_play

    def spy(*args: object, **kw: object) -> None:
        calls.append(len(args[0].steps))  # type: ignore[attr-defined]
        play(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(sampled_action, "sampled_play", spy)
    odds = _odds(m, 0, monkeypatch)
    assert odds.method == "estimate" and max(calls) >= 2


def test_volleys_in_turn_carry_their_wounds_when_sampled() -> None:
    """A group's volleys (each member's in turn, the second finding the wounds the first left): the sampled kernel
    (``sampled_action.sampled_volleys``) against the exact one on longbowmen then crossbowmen into one zone."""
    state = act(battle([unit("Longbowmen", "B2", miniatures=2), unit("Arbalestiers", "B2", miniatures=2)],
                       [unit("Vileins", "C2", miniatures=3)], terrain={}), "A:Longbowmen")
    lg = next(lg for lg in legal(state) if lg.action.kind == "shoot" and lg.action.option == "shot")
    members = [state.unit("A:Longbowmen"), state.unit("A:Arbalestiers")]
    keys = ["B:Vileins", "A:Longbowmen", "A:Arbalestiers"]
    start = tuple(state.unit(k).c for k in keys)
    exact = whole_odds(start, _volleys(state, tables(), lg.action, members, keys), "A")
    sampled = whole_odds(start, sampled_action.sampled_volleys(state, tables(), lg.action, members, keys), "A")
    assert exact.method == "exact" and sampled.method == "estimate"
    assert exact.measure("enemy_killed").probability("0") < 0.9  # the volleys do hurt: the wounds carried matter
    assert _agree(exact, sampled) == []


def test_each_branch_of_a_charge_draws_its_share_from_a_stream_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The combinations of charge reactions (drawn before any strike) split the particles in proportion to their
    chances (stratified: the stated bound holds) and draw independent random numbers (one shared stream would
    correlate their errors and the bound would not hold)."""
    assert share(1.0) == PARTICLES and share(0.5) + share(0.5) == PARTICLES and share(1e-6) == MIN_SHARE
    seen: list[tuple[float, int]] = []
    play = sampled_action.sampled_play

    def spy(seq: Sequence, start: object, weight: float, out: object, *args: object) -> None:
        seen.append((weight, seq.stream()))
        play(seq, start, weight, out, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sampled_action, "sampled_play", spy)
    m = next(m for m in SEVERAL_ROUNDS if m.name == "charge meets a reaction striking first")
    _odds(m, 0, monkeypatch)
    assert seen and all(w < 1 and s != 0 for w, s in seen) and len({s for _w, s in seen}) == len(seen)
