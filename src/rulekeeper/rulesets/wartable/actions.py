"""The War Table's actions (the one ruleset layout's ``actions.py``): attack, then defend.

One engagement has two actions and no choice in them: the attackers' ``{"kind": "attack"}``
declares the attack, the defenders' ``{"kind": "defend"}`` answers it and resolves the six-step
combat (issue 25: both sides' links get a turn). The seed has no rule for declining or leaving a
battle, so the words a player may try for it are named only to refuse them clearly.
"""

from __future__ import annotations

from rulekeeper.core.game import JsonDict

from .model import SideName

ATTACK: JsonDict = {"kind": "attack"}
DEFEND: JsonDict = {"kind": "defend"}
#: Each action's kind and the side that plays it: the attackers attack, the defenders answer.
KIND_SIDE: dict[str, SideName] = {"attack": "attackers", "defend": "defenders"}
#: Words a player may try for leaving a battle; the seed has no such rule.
DECLINE_WORDS = ("withdraw", "decline", "retreat", "flee", "pass", "wait")
WORDS = {"attack": "the attackers attack", "defend": "the defenders meet the attack"}


def action_text(action: JsonDict) -> str:
    """A logged action in the game's words."""
    return WORDS.get(str(action.get("kind")), " ".join(str(v) for v in action.values()))


def side_of(action: JsonDict) -> str:
    """The side of a logged action: its own ``side``, else the one its kind belongs to."""
    return str(action.get("side") or KIND_SIDE.get(str(action.get("kind")), "attackers"))
