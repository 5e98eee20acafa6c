"""The shipped policy's action, computed faster: what the search bot's simulations play (``rulekeeper.bots``).

:func:`rollout_policy` answers exactly what :func:`.policy.choose` answers, in every state
(``tests/bots/test_rollout_policy_dragonnoir.py`` checks it along playthroughs of every shipped scenario, the
bot's candidates included), without building the whole legal list: the policy picks from a few parts of it only
(:mod:`.legal`), so only those are built, through the same rules (the policy's own helpers judge them):

* the spells it may cast: a heal whenever offered, a stun in a combat sequence, spectres in its movement, so only
  those spells' odds are worked out (:func:`.sorcery.casts` ``only``), not every spell on every target;
* the offensive fire: the shots (all of them: the best is picked);
* the movement: the dragon's steps, then each character in turn who closes in, and of him only his one-hex
  steps, until one steps (not every character's half-turns, mounts, carries, jumps, flights and bridles, nor
  the dead cleared away, which the policy never picks: it ends the movement instead);
* the combat: the attacks.

Profiled (issue 28): the policy was two thirds of a Dragon Noir simulation, and the whole legal list two fifths of
the policy. A piece to place, a decision owed (defensive fire, a blow, the advance, a spell's answer) or a friend
to step off go to the policy itself: their lists are short and all of them is read.
"""

from __future__ import annotations

from rulekeeper.core.game import LegalAction

from . import dragon
from .action_types import ACTIONS, DNAction
from .legal import attack_part, dragon_part, end_action, fire_part, in_sequence, step_part
from .policy import Choice, _best_attack, _best_shot, _close_in, _dragon_closes_in, _spell, choose, gap, touching_hexes
from .shots import is_shooter
from .sorcery import casts
from .state import DNState

HEALS = frozenset({"Healing", "Self-healing"})
SUMMONS = frozenset({"Call the Gargoyles", "Raise the Living Deads"})
STUN = "Stunning"


def _typed(part: tuple[LegalAction, ...] | list[LegalAction]) -> list[Choice]:
    return [(ACTIONS.listed(lg.action), lg) for lg in part]


def rollout_policy(state: DNState) -> DNAction | None:
    """``policy.choose(state)``, reading only the parts of the legal list it picks from (the module docstring)."""
    if not in_sequence(state):
        return choose(state)
    side = state.side
    pick: DNAction | None = None
    if state.wizards:  # the legal list's spells are the side's own (none while a decision is owed)
        pick = _spell(state, _typed(casts(state, side, wanted(state, side))), side)
    if pick is not None:
        return pick
    if state.phase == "fire":
        pick = _best_shot(state, _typed(fire_part(state)), 0.0)
    elif state.phase == "move":
        pick = _dragon_closes_in(state, _typed(dragon_part(state)))
        for m in state.men if pick is None else ():
            if m.side == side and m.standing and not m.horse and not is_shooter(m) and not dragon.is_part(m):
                steps = step_part(state, m)  # the policy's _close_in looks at his steps only
                pick = _close_in(state, m, _typed(steps)) if steps else None
                if pick is not None:
                    break
    else:
        pick = _best_attack(state, _typed(attack_part(state)))
    return pick or ACTIONS.listed(end_action(state).action)


def wanted(state: DNState, side: str) -> frozenset[str]:
    """The spells :func:`.policy._spell` may cast now: a heal always; a stun in a combat sequence, if an enemy
    touches one of ours (it stuns only such a one); spectres in the side's movement, if no enemy wizard stands and
    one of ours is within 6 hexes of an enemy (else it calls none). Each test is the policy's own, or wider."""
    spells = set(HEALS)
    board = state.board
    if state.phase == "combat":
        ours = [m for m in state.men if m.side == side and m.standing and not m.horse]
        if any(touching_hexes(board, e.hexes, m.hexes) for e in state.men if e.side != side for m in ours):
            spells.add(STUN)
    elif state.phase == "move" and state.side == side:
        wizards = {w.name for w in state.wizards}
        rival = any(m.side != side and m.standing and m.name in wizards for m in state.men)
        if not rival and any(m.side == side and m.name in wizards and gap(state, m.hexes, side) <= 6
                             for m in state.men):
            spells |= SUMMONS
    return frozenset(spells)
