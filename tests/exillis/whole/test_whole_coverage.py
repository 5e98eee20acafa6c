"""Issue 27: "Before committing any action with chance, in every game, see the distribution of its whole result".

The Starter scenario played by the shipped policy for 60 actions (seed 7, as ``bench/bench_whole.py``) offers 76
chance actions (charges, fights, shots of every kind). The bench computes the whole odds of each (76 of 76); here,
within a test's time, one of every kind that was once left to the per-draw odds: an Aim (a long action, shown as
the volley it will shoot when its time comes), a lightning bolt (its own resolution), and the charge the Hobelars
make into C2 at the 27th action, met by the Billmen's reaction of equal priority (the simultaneous exchange).
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.exillis.battle.moves import charge_routes, classify, group_of, origin_direction
from rulekeeper.rulesets.exillis.battle.reactions import charge_reactions
from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.whole.compute import AIMED

G = game("exillis")
CHANCE = ("charge", "fight", "shoot")


def _walk(steps: int) -> list[BattleState]:
    sc = next(s for s in G.scenarios() if s.key == "starter")
    state = G.initial_state(G.setup(SetupRequest(scenario=sc.path, seed=7)).document)
    out = []
    for _ in range(steps):
        if not G.legal_actions(state):
            break
        out.append(state)
        pick = G.policy(state)
        if pick is None:
            break
        state = G.apply(state, pick).state
    return out


def _equal_priority(state: BattleState, a: dict[str, Any]) -> bool:
    """Whether the charge ``a`` may meet a reaction of equal priority (as ``handlers._charge`` finds them)."""
    u = state.unit(a["unit"])
    route = next(r for r in charge_routes(state, G.t.rules, u) if state.board.name(r.to) == a["target"])
    assert u.zone is not None
    came_from = origin_direction(state, route.to, route.path[-2] if len(route.path) >= 2 else u.zone)
    members = [m for m in group_of(state, u) if m.on_board]
    reactions = charge_reactions(state, G.t, members, route.to, classify(state, route.to, u.side, came_from))
    return any(r.simultaneous and r.chance > 0 for r in reactions)


def test_the_starter_s_76_chance_actions_include_every_kind_once_left_out() -> None:
    states = _walk(60)
    chance = [(n, lg.action) for n, s in enumerate(states) for lg in G.legal_actions(s) if lg.action["kind"] in CHANCE]
    assert len(chance) == 76
    aim = next((n, a) for n, a in chance if a.get("option") == "aim")
    bolt = next((n, a) for n, a in chance if a.get("option") == "lightning" and a["target"] == "C4")
    equal = [(n, a) for n, a in chance if a["kind"] == "charge" and _equal_priority(states[n], a)]
    assert [(n, a["unit"], a["target"]) for n, a in equal] == [(26, "B:Hobelars", "C2")]
    for n, a in (aim, bolt, equal[0]):
        odds = G.whole_odds(states[n], a)
        assert odds is not None, a
        assert 0 < odds.error_bound <= 0.03 and (odds.measure("enemy_killed").mean or 0) > 0
    aimed = G.whole_odds(states[aim[0]], aim[1])
    assert aimed is not None and AIMED in aimed.note  # says the volley comes later
