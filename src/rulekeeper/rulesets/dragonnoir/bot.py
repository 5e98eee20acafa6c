"""The search bot's score of an unfinished Dragon Noir battle (``rulekeeper.bots``): who is alive, and how strong.

At the turn limit the side with more living characters wins (``turns.at_limit``), and a side with none loses at
once. So each living character counts first for being alive (``ALIVE``), then for the strength of the counter side
he shows (attack + defence + half his movement, against a healthy man's ``REFERENCE``): a wounded or stunned
counter is weaker, and a strong character (Crazy Ork, a knight) is worth more than a goblin. A wizard adds his
energy points left (``ENERGY`` per point: his spells are strength too). Every weight is an *estimate*. The score is
(own − enemy) / (own + enemy), scaled by 0.8 so that no unfinished battle counts as much as a won one.

Tried and dropped (issue 28, measured on the_mill_house, docs/bots.md): a *threat* term (each character's worst
threat next, from a shooter with a line of fire to him or an enemy within reach, weighed by attack against his
defence) did not help: 20-57 % against 56 % for the old score, and draws and losses as the Archers, the side the
shipped policy wins with (most likely steering away from danger instead of shooting).
"""

from __future__ import annotations

from .harm import movement_of
from .state import PHASES, SIDES, DNState, Man, fighter_of
from .turns import living

ALIVE = 0.6  # what being alive is worth (the turn limit counts heads)
REFERENCE = 13.5  # a healthy man on foot: attack 5 + defence 5 + movement 7 / 2
STRENGTH = 0.4  # what a counter as strong as REFERENCE adds
ENERGY = 0.02  # per energy point a wizard has left
#: Sequences a simulation plays to the end of (the current one counts): 2 from a step in the movement sees the
#: combat it leads to, from the offensive fire the movement, from the combat the other side's volley.
SEQUENCES = 2
#: Actions a simulation plays at most per action of the budget's horizon (a bound, should a sequence drag on).
ACTIONS_PER_HORIZON = 10

def strength(state: DNState, m: Man) -> tuple[int, int, float]:
    """Attack, defence and the character's whole strength (attack + defence + movement / 2) on the counter up."""
    f = fighter_of(state, m)
    attack, defence = int(f.attack), int(f.defence)
    return attack, defence, attack + defence + movement_of(m) / 2


def worth(state: DNState, m: Man) -> float:
    """What a living character is worth: being alive, and the strength of his counter side up."""
    return ALIVE + STRENGTH * strength(state, m)[2] / REFERENCE


def side_value(state: DNState, side: str) -> float:
    """What ``side``'s living characters are worth, a wizard's energy left included."""
    own = living(state, side)
    value = sum(worth(state, m) for m in own)
    names = {m.name for m in own}
    return value + ENERGY * sum(w.energy for w in state.wizards if w.name in names)


def evaluate(state: DNState, side: str) -> float:
    own = side_value(state, side)
    enemy = sum(side_value(state, s) for s in SIDES if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0


def clock(state: DNState) -> int:
    """The sequences begun since the battle began (three a player turn; a skipped offensive fire counts)."""
    return 3 * state.player_turn + PHASES.index(state.phase)


def rollout_done(start: DNState, state: DNState, actions: int, horizon: int) -> bool:
    """A simulation's horizon in Dragon Noir's own time: the end of the sequence after the current one
    (``SEQUENCES``), at most ``ACTIONS_PER_HORIZON`` × ``horizon`` actions. Why: a move is one hex, so the
    budget's 4 actions never saw a charge or a volley land (issue 28)."""
    return clock(state) - clock(start) >= SEQUENCES or actions >= ACTIONS_PER_HORIZON * horizon
