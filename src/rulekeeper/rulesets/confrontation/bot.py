"""The search bot's score of an unfinished Confrontation skirmish (``rulekeeper.bots``): points standing.

At the round limit the side whose standing fighters are worth more wins (``skirmish.by_points``), and a side
with nobody standing loses at once; the score is the balance of those points, each fighter weighed by his
hit points left (a hurt fighter is nearer the ground) and halved while he routs (an *estimate*), scaled by 0.8
so that no unfinished skirmish counts as much as a won one.

``rollout_policy`` is the shipped policy (``policy.choose``) computed without what it never picks: the policy
leaves an engaged fighter in his fight, so his disengagements (a way out measured with shapely around every
base: a third of a simulation's cost, profiled) are not listed, and it walks only the first fighter able to act,
so the others' walks (another third) are not measured; the action is the same in every state
(``tests/bots/test_rollout_policy.py`` checks it along playthroughs). A charge waiting for reaction fire, a spell
waiting for the enemy's counter, and an activation where a Mystic could cast (the policy casts before it charges), go to the policy itself.

``rollout_done`` is a simulation's horizon in the game's own time: through the next combat phase (a charge is
declared in the activation and lands in the combat), at most ``ACTIONS_PER_HORIZON`` × the budget's horizon
actions. A round is about eight actions (a whole skirmish 30-50), so this costs about twice the budget's 4.
"""

from __future__ import annotations

from rulekeeper.core.game import JsonDict, LegalAction

from . import policy
from .flight import flees
from .magic import known
from .offers import activation as _activation
from .offers import strikes
from .skirmish import can_activate
from .state import PHASES, Fighter, SkirmishState

#: Actions a simulation plays at most per action of the budget's horizon.
ACTIONS_PER_HORIZON = 10
COMBAT = PHASES.index("combat")


def evaluate(state: SkirmishState, side: str) -> float:
    def worth(s: str) -> float:
        return sum(f.card.cost * _health(f) * (0.5 if f.rout else 1.0) for f in state.standing(s))

    sides = {f.side for f in state.fighters}
    own = worth(side)
    enemy = sum(worth(s) for s in sides if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0


def _health(f: Fighter) -> float:
    """The share of his card's HP a fighter keeps (a quarter at least while he stands; Fierce: a quarter)."""
    if f.fierce or f.card.HP <= 0:
        return 0.25
    return max(0.25, min(1.0, f.hp / f.card.HP))


def rollout_policy(state: SkirmishState) -> JsonDict | None:
    """``policy.choose(state)``, without listing the disengagements it never picks (see the module docstring).

    In the activation phase the policy shoots if anyone can (the cheapest shot), else charges (the cheapest
    charge), else the first fighter able to act walks toward his nearest enemy or holds (an engaged one stays
    in his fight, a fleeing one flees): only free fighters can shoot or charge (``actions.strikes``), and the
    first fighter's own list (his walks) is built only if nobody shoots or charges. Every other phase: the policy.
    """
    if state.over or state.reacting or state.casting or state.phase in ("tactical", "lead", "maintenance", "combat") or \
            any(f.aiming and f.standing for f in state.fighters):
        return policy.choose(state)
    ready = [f for f in state.fighters if f.side == state.to_act and can_activate(state, f)]
    if not ready or any(known(f) for f in ready):  # a Mystic's casts come before charges: the policy weighs them
        return policy.choose(state)
    offered = [lg for f in ready if not f.engaged and not flees(f) for lg in strikes(state, f)]
    for kind in ("shoot", "charge"):
        picks = [lg for lg in offered if lg.action["kind"] == kind]
        if picks:
            return min(picks, key=_cheapest).action
    first = ready[0]
    if first.engaged:
        return {"kind": "hold", "side": first.side, "fighter": first.key}
    mine = _activation(state, first)
    for kind in ("fight", "move", "hold"):
        for lg in mine:
            if lg.action["kind"] == kind:
                return lg.action
    return mine[0].action


def _cheapest(lg: LegalAction) -> tuple[float, str]:
    return (lg.cost or 0.0, lg.text)


def rollout_done(start: SkirmishState, state: SkirmishState, actions: int, horizon: int) -> bool:
    """Whether a simulation from ``start`` has played through the next combat phase (see the module docstring)."""
    def clock(s: SkirmishState) -> int:
        return len(PHASES) * s.round + PHASES.index(s.phase)

    began = PHASES.index(start.phase)
    combat = len(PHASES) * (start.round + (1 if began > COMBAT else 0)) + COMBAT
    return clock(state) > combat or actions >= ACTIONS_PER_HORIZON * horizon
