"""The advance after combat: which hexes the victor may step onto, one at a time.

"If, following a combat, the attackers or the defenders had to retreat (or if one of them was stunned or killed),
the victorious player may advance one of his characters by 2 hexes if he is on foot and by 3 hexes if he is
mounted. The first hex crossed must necessarily be one of the hexes evacuated by the enemy (or the hex of the
stunned or killed character)." A stunned man's hex may be crossed, not ended on ("it is possible to move characters
through hexes containing a friendly character, a stunned character or a dead character. But, at the end of each
movement sequence, only one living character must remain per hex"): so an advancer on foot may step onto it only
when he can step on from there to a free hex, and he must (issue 24, point 2; docs/rules/dragonnoir.md).
"""

from __future__ import annotations

from dataclasses import replace

from .state import DNState, Man, Pending
from .steps import Step, steps


def lying(state: DNState, label: str, m: Man) -> list[Man]:
    """The stunned characters on ``label`` (no one else living there but ``m``)."""
    here = [o for o in state.living_on(label) if o.name != m.name]
    return here if here and all(o.health == "stunned" for o in here) else []


def _probe(state: DNState, down: list[Man]) -> DNState:
    """The state with the stunned men on a hex treated as lying there like the dead (crossable)."""
    return state.with_men(*(replace(o, health="dead") for o in down))


def _onward(state: DNState, m: Man, at: Step) -> bool:
    moved = replace(m, hexes=at.hexes, facing=at.facing, mp=99)
    return any(not state.living_on(st.to) for st in steps(state.with_men(moved), moved) if st.to != at.to)


def advance_steps(state: DNState, p: Pending, m: Man) -> list[Step]:
    """The hexes ``m`` may advance onto now (the first into an evacuated hex or a stunned loser's hex)."""
    probe = replace(m, mp=99)
    out = [st for st in steps(state, probe) if p.unit or st.to in p.hexes]
    if p.unit or m.mounted:  # decision: a horseman (two hexes) never crosses the stunned man
        return out
    for h in p.hexes:
        down = lying(state, h, m)
        if not down:
            continue
        crossing = _probe(state, down)
        for st in steps(crossing, probe):
            if st.to == h and _onward(crossing, m, st):
                out.append(st)
    return out


def must_go_on(state: DNState, p: Pending) -> bool:
    """The advancer stands on a stunned man's hex: he may not stop there."""
    return bool(p.unit) and bool(lying(state, state.man(p.unit).hex, state.man(p.unit)))
