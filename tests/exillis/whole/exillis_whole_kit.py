"""Shared by the whole-action tests (not a test module): the same measures read off the engine's ``apply``.

A seeded Monte Carlo plays the action with the engine itself (``engine.apply`` on the state
reseeded; a long action then resolved by the engine's own ``_resolve_pending``, as when the group's time
comes) and reads what the whole-action odds predict from the resolution's own report: the
casualties of its melee rounds or volleys by side, the morale state each enemy unit is left in
by the last of them, and which units turned Fleeing.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from rulekeeper.core.chance import Fate
from rulekeeper.core.rng import RngState
from rulekeeper.core.whole import WholeOdds
from rulekeeper.rulesets.exillis.battle.actions import Legal
from rulekeeper.rulesets.exillis.battle.engine import Run, _resolve_pending, apply
from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.battle.tables import BattleTables

RESOLUTIONS = ("melee", "shoot")


def observed(state: BattleState, t: BattleTables, lg: Legal, seed: int) -> dict[str, Any]:
    """One play of ``lg`` by the engine, read as the whole-action measures."""
    out = apply(replace(state, rng=RngState.from_seed(seed)), lg.action, t, lg)
    report = list(out.report)
    group = tuple(k for k in (m.key for m in out.state.units) if out.state.unit(k).pending is not None)
    if group:  # a long action (Aim): resolved as the engine does when the group's time comes
        run = Run(out.state, t, Fate.from_state(RngState.from_seed(seed + 1_000_003)))
        _resolve_pending(run, group)
        report += run.report
    side = state.unit(lg.action.unit).side
    killed = lost = 0
    last: dict[str, str] = {}
    fled: set[str] = set()
    for r in report:
        if r.get("kind") not in RESOLUTIONS:
            continue
        for mini in r["casualties"]:
            key = mini.rsplit(" #", 1)[0]
            if state.unit(key).side == side:
                lost += 1
            else:
                killed += 1
        for m in r["morale"]:
            last[m["unit"]] = m["state_after"]
            if m["state_after"] == "Fleeing" and m["state_before"] != "Fleeing":
                fled.add(m["unit"])
    enemy_rout = any(state.unit(k).side != side and not state.unit(k).c.fleeing for k in fled)
    return {"enemy_killed": killed, "own_losses": lost, "morale": last, "enemy_routs": enemy_rout}


def agreement(odds: WholeOdds, plays: list[dict[str, Any]], sigmas: float = 4.0) -> list[str]:
    """Every outcome whose sampled share differs from the computed probability by more than ``sigmas``
    standard errors (plus the stated error bound); empty when all agree."""
    n = len(plays)
    bad = []

    def check(what: str, p: float, hits: int) -> None:
        se = math.sqrt(max(p * (1 - p), 1.0 / n) / n)
        if abs(hits / n - p) > sigmas * se + odds.error_bound:
            bad.append(f"{what}: computed {p:.4f}, sampled {hits / n:.4f} (n={n})")

    for key in ("enemy_killed", "own_losses"):
        m = odds.measure(key)
        seen = {str(v) for v in (pl[key] for pl in plays)}
        for outcome in sorted(seen | {o for o, _ in m.outcomes}):
            check(f"{key}={outcome}", m.probability(outcome), sum(1 for pl in plays if str(pl[key]) == outcome))
    for m in odds.measures:
        if m.key.startswith("morale:"):
            unit = m.key.split(":", 1)[1]
            for outcome, p in m.outcomes:
                if outcome == "destroyed":
                    continue
                check(f"{m.key}={outcome}", p, sum(1 for pl in plays if pl["morale"].get(unit) == outcome))
    check("enemy routs", odds.event("an enemy unit routs"), sum(1 for pl in plays if pl["enemy_routs"]))
    return bad
