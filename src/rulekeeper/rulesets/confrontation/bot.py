"""The search bot's score of an unfinished Confrontation skirmish (``rulekeeper.bots``): points standing.

At the round limit the side whose standing fighters are worth more wins (``skirmish.by_points``), and a side
with nobody standing loses at once; the score is the balance of those points, each fighter weighed by his
hit points left (a hurt fighter is nearer the ground) and halved while he routs (an *estimate*), scaled by 0.8
so that no unfinished skirmish counts as much as a won one.

``rollout_policy`` is the shipped policy (``policy.choose``) computed without what it never picks: the policy
leaves an engaged fighter in his fight, so his disengagements (a way out measured with shapely around every
base: a third of a simulation's cost, profiled) are not listed; it walks only the first fighter able to act,
so the others' walks (another third) are not measured, and of his walks only the first; it charges only if
nobody shoots or casts, and then the cheapest charge, so the charges are measured only then, nearest first,
until no charge left can be cheaper (issue 28: route-finding around the scenery was a third of what was left);
before the Tactical roll it is ``ready``. The action is the same in every state
(``tests/bots/test_rollout_policy.py`` checks it along playthroughs and after every candidate). A pass waiting for
its answer, a charge waiting for reaction fire and a spell waiting for the enemy's counter go to the policy itself.

``rollout_done`` is a simulation's horizon in the game's own time: through the next combat phase (a charge is
declared in the activation and lands in the combat), at most ``ACTIONS_PER_HORIZON`` × the budget's horizon
actions. A round is about eight actions (a whole skirmish 30-50), so this costs about twice the budget's 4.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulekeeper.core.game import LegalAction

from . import policy
from .action_types import ACTIONS, ByFighter
from .cover_move import declaring
from .flight import flees
from .leap import leap_charge_at, leap_charge_offer, may_leap
from .magic import known
from .magic_offers import cast_offers
from .offers import activation as _activation
from .offers import charge_offer, shots, walks
from .skirmish import can_activate, can_charge, straight_cm
from .state import PHASES, Fighter, SkirmishState, other, replace

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


def rollout_policy(state: SkirmishState) -> Mapping[str, object] | None:
    """``policy.choose(state)``, without measuring what it never picks (see the module docstring).

    Before the Tactical roll the declaring side is ``ready`` (the policy never moves under cover). In the
    activation phase the policy shoots if anyone can (the cheapest shot), else a Mystic casts at an enemy (the
    cheapest cast), else charges (the cheapest charge), else the first fighter able to act walks toward his
    nearest enemy or holds (an engaged one stays in his fight, a fleeing one flees): only free fighters can
    shoot, cast or charge (``offers.activation``); the charges are measured only if nobody shoots or casts,
    nearest first, only until the next one cannot be cheaper (:func:`_cheapest_charge`), and the first
    fighter's first walk only if nobody charges; a marksman who walked shoots (the cheapest shot) or holds.
    Every other state (a pass waiting for its answer, a charge for reaction fire, a spell for its counter, the
    combat and maintenance phases, a fighter moved under cover: only a Dodge keeps his activation): the policy.
    """
    if state.over or state.asking or state.reacting or state.casting or state.rapid_flight or state.steeling \
            or state.crying:
        return policy.choose(state)
    if state.phase in ("tactical", "lead") and declaring(state) == state.to_act:
        return ACTIONS.encode(ByFighter("ready", state.to_act, state.standing(state.to_act)[0].key))
    if state.phase != "activation":
        return policy.choose(state)
    aiming = [f for f in state.fighters if f.aiming and f.standing]
    if aiming:  # he walked: his shots (``actions.legal_actions``), else he does not shoot
        walker = replace(aiming[0], activated=False)
        offered = [] if walker.engaged or flees(walker) else shots(state, walker)
        shot = min(offered, key=_cheapest, default=None)
        return shot.action if shot is not None else ACTIONS.encode(ByFighter("hold", state.to_act, walker.key))
    ready = [f for f in state.fighters if f.side == state.to_act and can_activate(state, f)]
    if not ready or any(f.covered for f in ready):
        return policy.choose(state)
    return _activation_choice(state, ready)


def _activation_choice(state: SkirmishState, ready: list[Fighter]) -> Mapping[str, object]:
    """The policy's choice among the activations of ``ready`` (none moved under cover), cheapest kind first."""
    free = [f for f in ready if not f.engaged and not flees(f)]
    shot = min((lg for f in free for lg in shots(state, f)), key=_cheapest, default=None)
    if shot is not None:
        return shot.action
    enemies = {f.key for f in state.fighters if f.side != state.to_act}
    cast = min((lg for f in free if known(f) for lg in cast_offers(state, f) if lg.action["target"] in enemies),
               key=_cheapest, default=None)
    if cast is not None:
        return cast.action
    charge = _cheapest_charge(state, [f for f in free if can_charge(f)])
    if charge is not None:
        return charge.action
    first = ready[0]
    if flees(first):
        return _activation(state, first)[0].action  # his flight, all his activation offers
    walk = None if first.engaged else next(walks(state, first), None)  # the policy's "move", else "hold"
    return walk.action if walk is not None else ACTIONS.encode(ByFighter("hold", first.side, first.key))


def _cheapest_charge(state: SkirmishState, chargers: list[Fighter]) -> LegalAction | None:
    """The policy's charge: the cheapest (cost, then text) of every charge offered to ``chargers``, measured
    nearest first. A charge costs its length rounded to the millimetre, never less than the straight way to
    contact (around is longer; a leap goes straight), so once the straight way of the next pair, rounded, is
    dearer than the cheapest found, no charge left can be cheaper. An assault fire's charge is never measured:
    it costs what the plain charge beside it costs, and its text ("… with assault fire") sorts after the plain
    charge's ("… (12.0 cm)")."""
    pairs = sorted((round(straight_cm(f, t) - 1e-9, 1), i, f, t)
                   for i, (f, t) in enumerate((f, t) for f in chargers for t in state.standing(other(f.side))))
    best: LegalAction | None = None
    for bound, _, f, t in pairs:
        if best is not None and bound > (best.cost or 0.0):
            break
        offered = [charge_offer(state, f, t)]
        leap = leap_charge_at(state, f, t) if may_leap(f) else None
        if leap is not None:
            offered.append(leap_charge_offer(f, t, *leap))
        for lg in offered:
            if lg is not None and (best is None or _cheapest(lg) < _cheapest(best)):
                best = lg
    return best


def _cheapest(lg: LegalAction) -> tuple[float, str]:
    return (lg.cost or 0.0, lg.text)


def rollout_done(start: SkirmishState, state: SkirmishState, actions: int, horizon: int) -> bool:
    """Whether a simulation from ``start`` has played through the next combat phase (see the module docstring)."""
    def clock(s: SkirmishState) -> int:
        return len(PHASES) * s.round + PHASES.index(s.phase)

    began = PHASES.index(start.phase)
    combat = len(PHASES) * (start.round + (1 if began > COMBAT else 0)) + COMBAT
    return clock(state) > combat or actions >= ACTIONS_PER_HORIZON * horizon
