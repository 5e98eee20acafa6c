"""The whole result of a Battle System action before it is made (issue 27): casualties on both sides, morale
damage and who flees, exactly; checked against a seeded Monte Carlo of ``apply`` (4 sigma per outcome)."""

from __future__ import annotations

from typing import Any

import pytest
from bs_kit import G, battle, set_unit

from rulekeeper.core.whole import whole_odds_of
from whole_kit import agree, frequencies, outcomes

UNITS = [("A", "General", "Chief", "A2"), ("A", "Light Infantry", "Foot", "B1"), ("A", "Archers", "Bows", "A1"),
         ("A", "Light Cavalry", "Horse", "D2"), ("B", "Heavy Infantry", "Shields", "C1"),
         ("B", "Pikemen", "Pikes", "H2")]


def lost(before: Any, name: str) -> Any:
    return lambda out: before.piece(name).soldiers - out.piece(name).soldiers


@pytest.mark.parametrize(("attacker", "target", "morale"), [("Foot", "Shields", 1), ("Foot", "Shields", 12),
                                                             ("Bows", "Shields", 12)])
def test_attacks_agree_with_the_engines_apply(attacker: str, target: str, morale: int) -> None:
    state = set_unit(battle(UNITS, height=2, seed=3), target, morale=morale)
    action = next(lg.action for lg in G.legal_actions(state)
                  if lg.action.get("unit") == attacker and lg.action.get("target") == target)
    whole = whole_odds_of(G, state, action)
    assert whole is not None and whole.method == "exact"
    runs = 300
    done = outcomes(G, state, action, runs)
    assert agree(whole, "enemy_casualties", frequencies(done, lost(state, target)), runs) > 5
    agree(whole, "own_losses", frequencies(done, lost(state, attacker)), runs)
    flee = sum(out.piece(target).morale == 0 for out in done) / runs
    p = whole.event(f"{target} flee")
    assert abs(flee - p) <= 4 * max(p * (1 - p), 1 / runs) ** 0.5 / runs ** 0.5


def test_a_rally_and_a_pursuit_are_their_die_run_through_the_rules() -> None:
    state = set_unit(set_unit(battle(UNITS, height=2, seed=1), "Horse", morale=0), "Shields", morale=1)
    rally = next(lg.action for lg in G.legal_actions(state) if lg.action["kind"] == "rally")
    whole = whole_odds_of(G, state, rally)
    assert whole is not None and "every outcome of the die" in whole.note
    restored = whole.measure("morale")
    assert restored.mean is not None and restored.mean > 0
    runs = 200
    done = outcomes(G, state, rally, runs)
    agree(whole, "morale", frequencies(done, lambda out: out.piece("Horse").morale - 0), runs)
    broke = G.apply(state, {"kind": "attack", "side": "A", "unit": "Foot", "target": "Shields"}).state
    follow = {"kind": "pursue", "side": "A", "unit": "Foot", "target": "Shields"}
    pursuit = whole_odds_of(G, broke, follow)
    assert pursuit is not None
    agree(pursuit, "lost", frequencies(outcomes(G, broke, follow, runs), lost(broke, "Shields")), runs)


def test_moves_have_no_whole_odds() -> None:
    state = battle(UNITS, height=2, seed=3)
    moves = [lg.action for lg in G.legal_actions(state) if lg.action["kind"] == "move"]
    assert moves and all(whole_odds_of(G, state, a) is None for a in moves)
