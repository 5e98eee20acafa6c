"""The default policy (autoplay): fight what is engaged, charge what is in reach, close in on the rest.

Deterministic and simple on purpose, so an autoplayed skirmish is a fair baseline rather than a
strong player: in the combat phase the first listed fight; when activating, a marksman who can shoot
shoots the nearest enemy he can, else a Mystic casts his cheapest spell (calls his cheapest miracle) at an
enemy, else the first fighter that can charge charges the nearest enemy in reach (the cheapest charge), else the first fighter walks the
whole way toward its nearest enemy, else it holds.
"""

from __future__ import annotations

from rulekeeper.core.game import JsonDict

from .actions import legal_actions
from .state import SkirmishState


def choose(state: SkirmishState) -> JsonDict | None:
    legal = legal_actions(state)
    if not legal:
        return None
    shots = [lg for lg in legal if lg.action["kind"] == "shoot"]
    if shots:  # a marksman shoots the nearest enemy he can (before anyone charges into his line)
        return min(shots, key=lambda lg: (lg.cost or 0.0, lg.text)).action
    casts = [lg for lg in legal if lg.action["kind"] == "cast"
             and lg.action["target"] in {f.key for f in state.fighters if f.side != state.to_act}]
    if casts:  # a Mystic strikes the enemy with his cheapest card (the keeper heals no one by itself)
        return min(casts, key=lambda lg: (lg.cost or 0.0, lg.text)).action
    charges = [lg for lg in legal if lg.action["kind"] == "charge"]
    if charges:
        return min(charges, key=lambda lg: (lg.cost or 0.0, lg.text)).action
    first = legal[0].action.get("fighter")
    mine = [lg for lg in legal if lg.action.get("fighter") == first]
    for kind in ("fight", "move", "hold"):
        for lg in mine:
            if lg.action["kind"] == kind:
                return lg.action
    return legal[0].action
