"""Crossing friendly characters: the seed's reading as ruleset option ``crossing=friends`` (issue 24, point 6).

"Characters cannot pass through hexes containing enemy characters, unless these are stunned or dead. Crossing hexes
containing friendly characters, on the other hand, poses no problem." and "at the end of each movement sequence, only
one living character must remain per hex". The keeper's former reading (``crossing=refused``, the default) never
enters a friend's hex, because a mover stopped there — by the infiltration roll or a defensive shot — would break
that promise. Under ``friends`` the promise is kept by offering the step onto a friend's hex only when nothing can
stop the mover there (decisions, docs/rules/dragonnoir.md):

* the mover and the friend are both on foot (a horseman's two hexes, and riders, are not crossed), the mover carries
  and leads nobody, and the friend stands alone on his hex;
* leaving the friend's hex owes no infiltration roll (no enemy in a position to attack next to it), and no enemy
  shooter may fire at the mover there (defensive fire);
* the mover can pay the step and then a step on to a hex where he may stop;
* while he stands on the friend's hex, his side's only legal actions are his steps on (:func:`crosser`).
"""

from __future__ import annotations

from dataclasses import replace

from .shots import defensive_shooters
from .state import DNState, Man
from .steps import Step, free_for, must_roll, on_foot, step_cost_to


def allowed(state: DNState) -> bool:
    return state.option("crossing", "refused") == "friends"


def passed_over(state: DNState, label: str, m: Man) -> Man | None:
    """The one living friend on foot alone on ``label`` whom ``m`` may pass over, else None."""
    others = [o for o in state.living_on(label) if o.name != m.name]
    if len(others) != 1:
        return None
    friend = others[0]
    return friend if friend.side == m.side and on_foot(friend) and not friend.carrying else None


def _way_on(state: DNState, m: Man) -> bool:
    """A step from where ``m`` stands onto a hex he may stop on, that he can pay."""
    board = state.board
    for n in board.neighbours(board.parse(m.hex)):
        to = board.label(n)
        cost = step_cost_to(state, m, to) if free_for(state, to, m) else None
        if cost is not None and cost <= m.mp:
            return True
    return False


def crossing_steps(state: DNState, m: Man) -> list[Step]:
    """The friends' hexes ``m`` may step onto now (each step's ``why`` names the friend passed over)."""
    if not allowed(state) or not m.standing or not on_foot(m) or m.carrying or m.leading or m.mp <= 0:
        return []
    board = state.board
    out = []
    for n in board.neighbours(board.parse(m.hex)):
        to = board.label(n)
        friend = passed_over(state, to, m)
        cost = None if friend is None else step_cost_to(state, m, to)
        if friend is None or cost is None or cost > m.mp:
            continue
        moved = replace(m, hexes=(to,), mp=m.mp - cost, steps=m.steps + 1, moved=True)
        there = state.with_men(moved)
        if must_roll(there, moved) or defensive_shooters(there, moved) or not _way_on(there, moved):
            continue
        out.append(Step(to, (to,), None, cost, f"over {friend.name}"))
    return out


def crosser(state: DNState) -> Man | None:
    """The character of the side to act who stands on a friend's hex in the middle of crossing it: he must step on."""
    if not allowed(state) or state.phase != "move":
        return None
    for m in state.men:
        if m.side == state.side and m.standing and on_foot(m) and m.steps > 0 and not free_for(state, m.hex, m):
            return m
    return None
