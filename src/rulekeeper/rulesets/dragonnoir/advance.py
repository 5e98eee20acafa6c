"""The advance after combat: which hexes the victor may step onto, one at a time.

"If, following a combat, the attackers or the defenders had to retreat (or if one of them was stunned or killed),
the victorious player may advance one of his characters by 2 hexes if he is on foot and by 3 hexes if he is
mounted. The first hex crossed must necessarily be one of the hexes evacuated by the enemy (or the hex of the
stunned or killed character)." A stunned man's hex may be crossed, not ended on ("it is possible to move characters
through hexes containing a friendly character, a stunned character or a dead character. But, at the end of each
movement sequence, only one living character must remain per hex"): so an advancer on foot may step onto it only
when he can step on from there to a free hex, and he must (issue 24, point 2; docs/rules/dragonnoir.md).

"Important: the advance after combat must take into account the stacking and infiltration of enemy lines rules.
However, in the latter case, an enemy character adjacent to the hex crossed causes a die roll only if he is not
engaged at that moment in a combat, in attack or in defence. It does not matter whether the combat has already taken
place or not." The keeper's former reading makes no roll on an advance; ruleset option ``advance_infiltration=on``
is the seed's (issue 24, point 6): leaving a hex entered during the advance next to an enemy in a position to attack
who is not engaged costs the infiltration roll (:func:`owes_roll`).
"""

from __future__ import annotations

from dataclasses import replace

from .state import DNState, Man, Pending, character_of
from .steps import NO_INFILTRATION, Step, steps, threats


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
            if st.to == h and _onward(crossing, m, st) and not _roll_on_leaving(crossing, p, m, st):
                out.append(st)
    return out


def _roll_on_leaving(state: DNState, p: Pending, m: Man, at: Step) -> bool:
    """Decision (``advance_infiltration=on``): no step onto a stunned loser's hex that he would owe a roll to leave —
    stopped or stunned there, two living men would remain on one hex ("only one living character must remain")."""
    moved = replace(m, hexes=at.hexes, facing=at.facing)
    return owes_roll(state.with_men(moved), replace(p, unit=m.name), moved)


def engaged(state: DNState, enemy: Man, advancer: Man) -> bool:
    """Whether ``enemy`` is "engaged at that moment in a combat, in attack or in defence" ("It does not matter whether
    the combat has already taken place or not"). Decision (docs/rules/dragonnoir.md): combats are not declared ahead
    in the keeper, so he is engaged when he has attacked this combat sequence, or stands next to a standing character
    of the advancer's side other than the advancer (a combat between them has been fought or may still be)."""
    if enemy.attacked:
        return True
    board = state.board
    around = {board.label(n) for h in enemy.hexes for n in board.neighbours(board.parse(h))}
    return any(o.side == advancer.side and o.name != advancer.name and o.standing and not o.horse
               and set(o.hexes) & around for o in state.men)


def owes_roll(state: DNState, p: Pending, m: Man) -> bool:
    """Whether the advancer ``m`` owes the infiltration roll to leave his hex now (``advance_infiltration=on``): he
    entered it during this advance, and an enemy in a position to attack who is not engaged stands next to it."""
    if state.option("advance_infiltration", "off") != "on" or not p.unit:
        return False
    if character_of(m.character).kind in NO_INFILTRATION:
        return False
    return any(not engaged(state, e, m) for e in threats(state, m, m.hex))


def must_go_on(state: DNState, p: Pending) -> bool:
    """The advancer stands on a stunned man's hex: he may not stop there."""
    return bool(p.unit) and bool(lying(state, state.man(p.unit).hex, state.man(p.unit)))
