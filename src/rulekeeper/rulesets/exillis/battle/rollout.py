"""The search bot's rollout policy: the shipped policy's pick (:func:`.policy.choose`), found in a shorter list.

Why: a simulation of the search bot (``rulekeeper.bots``) asks the policy once an action, and the policy
scored the whole legal list (every retreat's and move's route with its cost, every Challenge, stance and
spell) to pick one entry. :func:`rollout_choice` scores only the entries the policy could pick, *in the legal
list's order*, and picks as :func:`.policy.choose` does (the first best score). Leaving out an entry that some kept
entry scores strictly higher (or as high, listed before it) never changes the first best entry, so the pick
is the shipped policy's in every state (``tests/bots/test_rollout_policy_exillis.py`` checks it along
playthroughs of every shipped scenario and after every candidate of the bot there). What is left out, by the
scores of :func:`.policy.score`:

* an engaged group that can fight: its Fight on the zone (60) is kept; every retreat (at most 30), Challenge
  (60, listed after the Fight), cast (48), stance (0) and Wait (at most 25) is below it or after it. Its
  shots (50 + Bulk / 4, which may beat 60) and a General's Rally (90) are kept;
* a group not engaged: every stance, take-off and landing (0, below the Wait's 2 or 25, which is always
  listed and kept), and every move when a kept entry scores above what any move can: a move scores
  10 + 5 × (zones it brings the group nearer the nearest enemy) − (AcP − 1000) / 500, and a group moves at
  most :func:`.moves.group_movement` zones (each step to an adjacent zone: the board's distance shrinks by at
  most one a step) at an AcP of at least 0, so no move scores above 12 + 5 × movement;
* a fleeing or disabled group, a group that cannot fight in its melee (its enemies fly): nothing (the whole
  list, which the caller may have built already).

The entries kept are built by the legal list's own functions, so they are equal to the list's (action, AcP
and note): the engine may apply the one picked as it would the list's.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import (
    Legal,
    _charges,
    _command_actions,
    _compulsive,
    _ranged,
    _spells,
    fight_on_zone,
    is_disabled,
    is_fleeing,
    leader,
    moves,
    wait_legal,
)
from .moves import group_movement, group_of
from .policy import Scorer, choose, first_best, score
from .state import BattleState
from .tables import BattleTables


def rollout_choice(state: BattleState, t: BattleTables, whole: Callable[[], list[Legal]],
                   score_of: Scorer = score) -> Legal | None:
    """The shipped policy's entry of the legal list (:func:`.policy.choose`), picked among the entries it could
    pick, each scored once (``whole()``: the whole legal list, asked only where nothing can be left out).

    ``score_of``: the scores to pick by (:func:`.policy.bot_score` for the search bot's own play). What is left
    out stays below what is kept for any scores that give moves, retreats, Challenges, casts, stances and the
    Wait of an engaged group the shipped scores (``bot_score`` changes charges only)."""
    if state.over or not state.active:
        return None
    u = leader(state)
    assert u is not None and u.zone is not None
    members = group_of(state, u)
    if is_fleeing(state) or all(is_disabled(m) for m in members):
        return choose(state, t, whole(), score_of)
    polearm = t.rules.num("polearm_extra_acp") if any(m.has_rule("Polearm") for m in members) else 0.0
    if state.engaged(u):
        fight = fight_on_zone(state, u, polearm)
        if fight is None:
            return choose(state, t, whole(), score_of)
        kept = [fight, *_ranged(state, t, u, True), *_command_actions(state, t, u, members, True)]
        return first_best([(lg, score_of(state, t, lg)) for lg in kept])
    charges: list[Legal] = []
    if not any(m.has_rule("Laborious Movements") for m in members):
        charges = _charges(state, t, u, polearm)
        forced = _compulsive(state, t, u, charges)
        if forced:
            return choose(state, t, forced, score_of)
    rest = [*charges, *_ranged(state, t, u, False), *_spells(state, t, u),
            *_command_actions(state, t, u, members, False), wait_legal(t, u, members, False)]
    scored = [(lg, score_of(state, t, lg)) for lg in rest]
    if max(s for _, s in scored) > 12.0 + 5.0 * group_movement(members):
        return first_best(scored)
    return first_best([(lg, score_of(state, t, lg)) for lg in moves(state, t, u)] + scored)
