"""Does a simple *plan* beat the shipped policy from the side an Ex illis scenario disfavours? (issue 28)

    python bench/bench_exillis_plans.py [--scenarios hastings forest_fence starter] [--side A] [--battles 200]
                                        [--plans policy hold late shoot kite] [--seed 1000]

Why: with sides swapped, the search bot's win rate against the shipped policy is about half its rate from the
favoured side (near 100 %) and half its rate from the other; on *hastings* the policy wins 5 % from side A and the
bot 22 %. If some plain change of plan (charge later, never charge with shooters, keep away) won far more from
that side, the search would be missing a plan it cannot find one move at a time; if none does, the scenario itself
is what decides.

Each plan is the shipped policy (``battle.policy.score``) with one rule changed, played by ``--side`` only; the other
side plays the shipped policy unchanged. The battles are the shipped policy's baseline battles (``--baseline`` of
``bench_bot.py``: ``battle_seed(seed, i)``), so ``policy`` reproduces that baseline. Plans draw no chance: every
difference between two rows is the plan's.

* ``policy``: the shipped policy;
* ``hold``: no charge (a group engaged still fights), and melee groups stay where they are;
* ``late``: ``hold`` until round 6, then the shipped policy;
* ``shoot``: groups that can shoot never charge (the others play the shipped policy);
* ``kite``: no charge, and every group with an enemy within one zone steps away from it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_bot import baseline  # noqa: E402
from bench_plans import print_row  # noqa: E402

from rulekeeper.core.ruleset import game as game_named  # noqa: E402
from rulekeeper.rulesets.exillis.battle import policy, rollout  # noqa: E402
from rulekeeper.rulesets.exillis.battle.actions import Legal  # noqa: E402
from rulekeeper.rulesets.exillis.battle.state import BattleState  # noqa: E402
from rulekeeper.rulesets.exillis.battle.tables import BattleTables  # noqa: E402

SHIPPED = policy.score
#: below every action the shipped policy prefers to standing still (its Wait scores 2)
SHELVED = 1.0


def _hold(state: BattleState, lg: Legal, shipped: float) -> float:
    unit = state.unit(lg.action.unit)
    if lg.action.kind == "charge":
        return SHELVED
    if lg.action.kind == "move" and not unit.c.profile.shots:
        return SHELVED + 0.5
    return shipped


def _late(state: BattleState, lg: Legal, shipped: float) -> float:
    return _hold(state, lg, shipped) if state.round < 6 else shipped


def _shoot(state: BattleState, lg: Legal, shipped: float) -> float:
    unit = state.unit(lg.action.unit)
    return SHELVED if lg.action.kind == "charge" and unit.c.profile.shots else shipped


def _kite(state: BattleState, lg: Legal, shipped: float) -> float:
    unit, kind = state.unit(lg.action.unit), lg.action.kind
    if kind == "charge":
        return SHELVED
    if kind in ("move", "retreat") and unit.zone is not None:
        before = state.nearest_enemy(unit.zone, unit.side)
        after = state.nearest_enemy(state.zone_at(lg.action.target or ""), unit.side)
        if before is not None and after is not None:
            # away from an enemy within a zone: above a Fight (60); else stay (below the Wait)
            return 58.0 + 5.0 * (after - before) if before <= 1 else SHELVED + 0.5
    return shipped


PLANS: dict[str, Callable[[BattleState, Legal, float], float] | None] = {
    "policy": None, "hold": _hold, "late": _late, "shoot": _shoot, "kite": _kite}


def use_plan(name: str, side: str) -> None:
    """Make ``side`` play plan ``name`` (the policy's and the rollout policy's scores both read it)."""
    change = PLANS[name]

    def score(state: BattleState, t: BattleTables, lg: Legal) -> float:
        shipped = SHIPPED(state, t, lg)
        if change is None or state.unit(lg.action.unit).side != side:
            return shipped
        return change(state, lg, shipped)

    policy.score = score  # type: ignore[assignment]
    rollout.score = score  # type: ignore[attr-defined]


def tally(scenario: str, side: str, plan: str, battles: int, seed: int) -> dict[str, int]:
    """Wins per side (``drawn``, ``unfinished``) of ``battles`` policy battles, ``side`` playing ``plan``: the
    shipped policy's baseline battles (``bench_bot.baseline``) with the plan in place."""
    use_plan(plan, side)
    g = game_named("exillis")
    return baseline(g, next(info.path for info in g.scenarios() if info.key == scenario), seed, battles)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenarios", nargs="+", default=["hastings", "forest_fence", "starter"])
    ap.add_argument("--side", default="A", help="the side that plays the plan (the others play the shipped policy)")
    ap.add_argument("--battles", type=int, default=200)
    ap.add_argument("--plans", nargs="+", default=list(PLANS), choices=list(PLANS))
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    for scenario in args.scenarios:
        for plan in args.plans:
            started = time.process_time()
            print_row(scenario, args.side, plan, tally(scenario, args.side, plan, args.battles, args.seed), started)


if __name__ == "__main__":
    main()
