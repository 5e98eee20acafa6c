"""Issue 27: "for at least 20 Ex illis matchups (charges, fights, volleys, several units in a zone, wounded
units, flank and rear) the computed distribution agrees with a seeded Monte Carlo of the engine's own
``apply`` within 4σ per outcome".

Each matchup's whole-action odds (``ExIllisBattles.whole_odds``) are compared, outcome by outcome
(enemy miniatures killed, our losses, each enemy unit's morale state after, an enemy rout), with
``SAMPLES`` plays of the action by ``engine.apply`` under seeds 0..SAMPLES-1 (see ``exillis_whole_kit``).

Sized to what it must prove within CI's time (about 20 s for the 20 positions on one worker): 120
plays (400 where a smaller error must be caught: Aim's accuracy, lightning's Luck; ``Matchup.plays``) put 4σ at ±0.18 for an even chance and ±0.11 for a 10 % one, enough to catch a wrong rule
(a missed retaliation, a cap ignored, a wrong damage law shifts whole outcomes by more); the
exactness of each draw's law is the business of ``test_whole_kernel.py``. The bench runs 10⁶.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from exillis_battle_kit import legal, tables
from exillis_matchups import MATCHUPS, SEVERAL_ROUNDS, SIMULTANEOUS, Matchup
from exillis_whole_kit import agreement, observed

from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.whole import dist
from rulekeeper.rulesets.exillis.whole.compute import whole_action
from rulekeeper.rulesets.exillis.whole.sampled import PARTICLES, half_width

SAMPLES = 120


def test_at_least_twenty_matchups_of_every_kind() -> None:
    assert len(MATCHUPS) - len(SEVERAL_ROUNDS) - len(SIMULTANEOUS) >= 20
    assert {m.kind for m in MATCHUPS} == {"charge", "fight", "shoot"}
    names = " ".join(m.name for m in MATCHUPS)
    for word in ("flank", "rear", "wounded", "crowded", "melee", "tired"):
        assert word in names
    assert {m.kind for m in SEVERAL_ROUNDS} == {"charge", "fight"}


@pytest.fixture(autouse=True)
def _no_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The preview's one-second allowance depends on the machine's load: the tests check the numbers."""
    monkeypatch.setattr(dist, "MAX_SECONDS", math.inf)
    monkeypatch.setattr(dist, "MAX_WORK", math.inf)  # the preview's work allowance too: the tests check the numbers
    monkeypatch.setattr(dist, "EXACT_WORK", math.inf)  # the exact kernel here; the sampled one below


def _legal_of(state: BattleState, m: Matchup) -> Any:
    """The matchup's action among the position's legal ones."""
    return next(lg for lg in legal(state) if lg.action.kind == m.kind and lg.action.unit == m.unit
                and (m.target is None or lg.action.target == m.target)
                and (m.option is None or lg.action.option == m.option))


#: Enumerated exactly here; the actions of several rounds are checked sampled (their exact state space is too big).
EXACT = [m for m in MATCHUPS if m not in SEVERAL_ROUNDS and m not in SIMULTANEOUS]


@pytest.mark.parametrize("m", EXACT, ids=[m.name for m in EXACT])
def test_the_computed_distribution_agrees_with_the_engine(m: Matchup) -> None:
    state = m.build()
    lg = _legal_of(state, m)
    odds = whole_action(state, tables(), lg)
    assert odds is not None, f"{m.name}: no whole-action odds"
    assert odds.error_bound < 1e-3
    plays = [observed(state, tables(), lg, seed) for seed in range(m.plays)]
    assert agreement(odds, plays) == []


#: The sampled kernel (what a preview falls back to in a crowded zone) against the same plays of the engine.
SAMPLED = [m for m in MATCHUPS if m.name in (
    "knights charge peasants", "billmen fight peasants", "longbow volley", "swift shot")] + [
    m for m in MATCHUPS if any(w in m.name for w in ("crowded", "flank", "rear", "wounded", "melee"))][:6] + [
    m for m in SEVERAL_ROUNDS] + [  # sampled whole: particles carry their wounds from round to round
    m for m in MATCHUPS if "lightning" in m.name][:1] + SIMULTANEOUS


@pytest.mark.parametrize("m", SAMPLED, ids=[m.name for m in SAMPLED])
def test_the_sampled_kernel_agrees_with_the_engine(m: Matchup, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "EXACT_WORK", 0)  # every last round or volley sampled
    state = m.build()
    lg = _legal_of(state, m)
    odds = whole_action(state, tables(), lg)
    assert odds is not None, f"{m.name}: no whole-action odds"
    assert odds.method == "estimate" and odds.error_bound == pytest.approx(half_width(PARTICLES))
    plays = [observed(state, tables(), lg, seed) for seed in range(m.plays)]
    assert agreement(odds, plays) == []
