"""A simple, deterministic policy that plays a side: the demo and the lab's first opponent.

It scores every legal action with plain heuristics (rally the broken, fight when engaged,
shoot the densest enemy zone in reach, charge when it has the better melee, close in
otherwise, rest when tired) and picks the best; ties go to the first listed. It draws no
chance, so a seeded battle autoplayed twice is the same battle.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Legal, legal_actions
from .engine import Outcome, apply
from .state import BattleState
from .tables import BattleTables

#: A policy's scores: the action it plays is the first of the best (:func:`first_best`).
Scorer = Callable[[BattleState, BattleTables, Legal], float]


def _enemy_strength(state: BattleState, side: str, zone_name: str) -> float:
    z = state.zone_at(zone_name)
    return sum(u.c.count * u.c.stat("intimidation") for u in state.enemies_in(z, side))


def score(state: BattleState, t: BattleTables, lg: Legal) -> float:
    a = lg.action
    u = state.unit(a.unit)
    if a.kind == "flee":
        return 1000.0
    if a.kind == "rally":
        return 90.0
    if a.kind == "fight":
        return 60.0
    if a.kind == "shoot":
        z = state.zone_at(a.target or "")
        bulk = sum(e.c.count * e.c.stat("bulk") for e in state.enemies_in(z, u.side))
        bonus = 3.0 if a.option == "aim" else 2.0 if a.option in ("shot", "firebolt") else 0.0
        return 50.0 + bulk / 4 + bonus
    if a.kind == "cast":
        return 48.0
    if a.kind == "reload":
        return 47.0
    if a.kind == "charge":
        mine = sum(m.c.count * m.c.stat("intimidation") for m in state.units if m.key in state.active)
        theirs = _enemy_strength(state, u.side, a.target or "")
        melee_unit = u.c.stat("acc") >= u.c.stat("racc") or not u.c.profile.shots
        return (55.0 if melee_unit else 20.0) + 10.0 * (mine / max(theirs, 1e-9) > 1.0) - lg.acp / 1000
    if a.kind in ("move", "retreat"):
        if u.zone is None:
            return 0.0
        to = state.zone_at(a.target or "")
        before = state.nearest_enemy(u.zone, u.side)
        if before is None:
            return 0.0
        after = state.nearest_enemy(to, u.side)
        assert after is not None
        reach = u.c.stat("range")
        if reach and before <= reach:
            return 5.0 - (after < before)  # a shooter in reach stays put
        if a.kind == "retreat":
            return 30.0 if u.c.count <= max(1, len(u.c.hp) // 4) else 0.0
        return 10.0 + 5.0 * (before - after) - (lg.acp - 1000) / 500
    if a.kind == "wait":
        return 25.0 if u.c.fatigue >= 8 and not state.engaged(u) else 2.0
    return 0.0


def bot_score(state: BattleState, t: BattleTables, lg: Legal) -> float:
    """:func:`score`, but a group that can shoot never charges (its charge scores below the Wait): the search
    bot's own default play (``ExIllisGame.bot_policy``), never the shipped policy's.

    Why (issue 28, ``bench/bench_exillis_plans.py``, 200 policy battles a row, seed 1000): the shipped policy
    charges with shooters whose melee accuracy equals their ranged one (Longbowmen: 50 and 50), and with any
    shooter out of reach of a shot when it has the better melee. Played by one side against the shipped policy,
    this change won *forest_fence* from side A 87 times instead of 29, *starter* 97 instead of 86, and was never
    worse from either side of the five scenarios (the Hastings pattern: 11 instead of 10 from A, 190 and 190
    from B; the duel and the skirmish: the same).
    """
    shipped = score(state, t, lg)
    if lg.action.kind == "charge" and state.unit(lg.action.unit).c.profile.shots:
        return 1.0
    return shipped


def choose(state: BattleState, t: BattleTables, legal: list[Legal] | None = None,
           score_of: Scorer | None = None) -> Legal | None:
    """The policy's action for the active group, or ``None`` when the battle is over.

    ``legal``: the group's legal actions when the caller already has them (built once per action).
    ``score_of``: the scores to pick by (default: :func:`score`, the shipped policy's).
    """
    legal = legal_actions(state, t) if legal is None else legal
    scorer = score if score_of is None else score_of
    return first_best([(lg, scorer(state, t, lg)) for lg in legal])


def first_best(scored: list[tuple[Legal, float]]) -> Legal | None:
    """The entry of the best score, the first listed on a tie (``None`` for an empty list)."""
    if not scored:
        return None
    best, best_score = scored[0]
    for lg, s in scored[1:]:
        if s > best_score:
            best, best_score = lg, s
    return best


def choose_and_apply(state: BattleState, t: BattleTables) -> Outcome | None:
    """One autoplayed action: the policy's choice applied, building the legal list only once.

    ``None`` when the battle is over. The same outcome as ``apply(state, choose(state, t).action, t)``.
    """
    lg = choose(state, t)
    return None if lg is None else apply(state, lg.action, t, lg)
