"""The War Table's actions (the one ruleset layout's ``actions.py``): attack, then defend.

One engagement has two actions and no choice in them: the attackers' ``{"kind": "attack"}``
declares the attack, the defenders' ``{"kind": "defend"}`` answers it and resolves the six-step
combat (issue 25: both sides' links get a turn). The seed has no rule for declining or leaving a
battle, so the words a player may try for it are named only to refuse them clearly.

Both are one typed action, :class:`Engage`, with one JSON codec (:data:`ACTIONS`, a
``core.actioncodec`` codec): the log, the API, the web form and the command line share its JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from rulekeeper.core.actioncodec import ActionCodec

from .model import SideName

EngageKind = Literal["attack", "defend"]
#: Each action's kind and the side that plays it: the attackers attack, the defenders answer.
KIND_SIDE: dict[EngageKind, SideName] = {"attack": "attackers", "defend": "defenders"}
#: The kinds by their words (a request's kind, folded).
KINDS: dict[str, EngageKind] = {k: k for k in KIND_SIDE}
#: Words a player may try for leaving a battle; the seed has no such rule.
DECLINE_WORDS = ("withdraw", "decline", "retreat", "flee", "pass", "wait")
WORDS: dict[EngageKind, str] = {"attack": "the attackers attack", "defend": "the defenders meet the attack"}

@dataclass(frozen=True)
class Engage:
    """The attackers' attack or the defenders' answer. ``side`` is written only when a side other than the
    kind's own plays it (the keeper refuses that as not its turn): the log stores ``{"kind": "attack"}``."""

    #: the core codec leaves an absent side out, as the War Table's log always has
    omit_none: ClassVar[bool] = True

    kind: EngageKind
    side: SideName | None = None

    @property
    def player(self) -> SideName:
        """The side that plays it."""
        return self.side or KIND_SIDE[self.kind]


#: The one JSON codec of the War Table's actions.
ACTIONS: ActionCodec[Engage] = ActionCodec(Engage)
ATTACK = Engage("attack")
DEFEND = Engage("defend")


def action_text(action: Engage) -> str:
    """A logged action in the game's words."""
    return WORDS[action.kind]


def side_of(action: Engage) -> SideName:
    """The side of a logged action: its own ``side``, else the one its kind belongs to."""
    return action.player
