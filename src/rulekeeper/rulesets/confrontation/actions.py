"""The actions of a skirmish: what is legal now (this module), why an action is refused (:mod:`.checks`), and its
odds before the roll (:mod:`.previews`).

Actions are typed (:mod:`.action_types`: ``ToPoint("move", "A", "Alahan guard", (30.0, 20.0))``), and the legal list
holds the JSON their one codec writes (``{"kind": "move", "side": "A", "fighter": "Alahan guard", "to": [30.0,
20.0]}``), the log's. The offers of each phase: :mod:`.offers` (a fighter's activation, a pursuit) and :mod:`.phase_offers` (the Tactical
roll, the combat phase's fights and splits, Reinforcement).
"""

from __future__ import annotations

from rulekeeper.core.game import LegalAction

from . import after_ini, before_ini, cure, rallying_cry, steeling
from .action_types import ByFighter, offer
from .authority_uses import answer_offers, pass_offer, split_offers, token_chooser
from .checks import KINDS, PHASE_OF, check
from .concentration import concentrate_offers, declaring
from .flight import pursuers, rapid_offers
from .magic_offers import counter_offers
from .offers import activation, point, pursuit_offers, strikes
from .phase_offers import combat_offers, reinforcement_offers, tactical_offers
from .placing import offers as placing_offers
from .previews import fray_outlook, preview
from .reaction import reaction_offers
from .reinforcement import waiting_choice
from .skirmish import can_activate
from .state import SkirmishState, replace

__all__ = ["KINDS", "PHASE_OF", "activation", "check", "fray_outlook", "legal_actions", "point", "preview", "strikes"]


def legal_actions(state: SkirmishState) -> list[LegalAction]:
    if state.over:
        return []
    side = state.to_act
    if state.crying:  # Rallying cry, announced or not at the start of a round (rallying_cry.py)
        return rallying_cry.offers(state)
    if state.steeling:  # Resolute on a COU test inside another's action or the rally (steeling.py)
        return steeling.offers(state)
    if state.rapid_flight:  # a fleeing fighter's Rapidity, his opponent's choice (flight.py)
        return rapid_offers(state)
    if before_ini.declaring(state):  # a fight's War fury, Sequence, Resolute, declared before its INI test (before_ini.py)
        return before_ini.offers(state)
    if after_ini.pending(state) is not None:  # after the INI test: Additional limb (its loser first), a Fencer's reserve (after_ini.py)
        return after_ini.offers(state)
    if state.placing:  # a fight's combat dice, one fighter at a time (placing.py)
        return placing_offers(state)
    if state.phase in ("tactical", "lead"):
        return tactical_offers(state)
    if state.phase == "maintenance":  # Reinforcement's choices, then whom each curer cures (cure.py)
        return reinforcement_offers(state) if waiting_choice(state) else cure.offers(state) if cure.waiting(state) else []
    chasing = pursuers(state)
    if state.phase == "combat" and chasing:
        return pursuit_offers(chasing[0], state)
    if state.phase == "combat" and token_chooser(state) == side:  # Authority: a token at the beginning of combat
        return split_offers(state, side)
    if state.phase == "combat" and declaring(state) == side:  # Concentration, before the next fight
        return concentrate_offers(state, side)
    if state.phase == "combat":
        return combat_offers(state)
    if state.asking:  # a pass waits for the token holder's answer
        return answer_offers(state)
    if state.reacting:  # a charge waits for the charged fighter's reaction fire
        return reaction_offers(state)
    if state.casting:  # a spell that worked waits for the enemy's counter
        return counter_offers(state)
    aiming = [f for f in state.fighters if f.aiming and f.standing]
    if aiming:  # he walked: he may still shoot (at +1) or end his activation
        f = aiming[0]
        shots = [lg for lg in activation(state, replace(f, activated=False)) if lg.action["kind"] == "shoot"]
        return [*shots, offer(ByFighter("hold", side, f.key), f"{f.key} does not shoot",
                              side, 0.0, "", "no shot", f"{f.key}: shoot")]
    out: list[LegalAction] = []
    for f in state.fighters:
        if f.side == side and can_activate(state, f):
            out += activation(state, f)
    return [*out, *pass_offer(state, side)]
