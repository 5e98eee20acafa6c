"""The whole-action odds of one legal action, or None for one without chance or not covered."""

from __future__ import annotations

from rulekeeper.core.whole import WholeOdds

from ..battle.actions import Legal
from ..battle.draws import acting_state
from ..battle.state import BattleState
from ..battle.tables import BattleTables
from .dist import TooBig, start_work
from .melee_actions import Unsupported, charge, fight
from .summary import whole_odds


def whole_action(state: BattleState, t: BattleTables, lg: Legal) -> WholeOdds | None:
    """What ``lg`` will do as a whole, computed from the rules' own functions (see the package docstring)."""
    state = acting_state(state)
    kind = lg.action.kind
    if kind not in ("fight", "charge", "shoot") or _long(state, t, lg):
        return None
    start_work()
    try:
        if kind == "fight":
            start, after, side = fight(state, t, lg)
            note = "a melee round of each member of the group"
        elif kind == "charge":
            start, after, side = charge(state, t, lg)
            note = "charge reactions, the chargers' rounds, the morale that follows"
        else:
            from .volleys import volley

            start, after, side = volley(state, t, lg)
            note = "every projectile of the volley, then the morale check"
    except (Unsupported, TooBig):
        return None
    if not after.states:
        return None
    return whole_odds(start, after, side, note)


def _long(state: BattleState, t: BattleTables, lg: Legal) -> bool:
    return lg.action.kind == "shoot" and bool(t.rules.action(lg.action.option or "shot").long)
