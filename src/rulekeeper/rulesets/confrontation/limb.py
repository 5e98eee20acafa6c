"""After a fight's INI test, each player announces which of his fighters use Additional limb (options ``placement``
and ``declarations`` both ``players``).

Why: Additional limb is active, the player's to use or not: "A fighter using Additional limb swaps his ATT and DEF
for the duration of the combat being played. If there are opponents endowed with Additional limb involved in this
same combat, then the loser of the INI roll is the first one to announce which of his fighters will be using this
ability." So the announcement comes after the INI tests and before any die is placed (the swap changes what a
fighter places): the INI loser's fighters first, then the winner's, who sees them, in the fray's placing order
(:func:`~.placing.order`). ``declare FIGHTER yes|no`` (a :class:`~.action_types.Declare` of "Additional limb").
The keeper's proposal, listed first, is its old policy (used when it raises his ATT: DEF above ATT); announced so,
a fight ends as the one-action fight's policy would have played it.

The announcements sit in ``before_ini`` as its declarations do (:mod:`.declarations`: used, the card reads
``Additional limb/used``; not, the card without it), while ``placing`` holds the INI result; under
``placement=keeper`` (a fight in one action) or ``declarations=keeper`` (a battle stored before these choices) the
policy decides as before.
"""

from __future__ import annotations

from typing import NamedTuple

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction

from .action_types import Declare, offer
from .declarations import OPTION, STORED_BEFORE, triples
from .placing import by_players, choices, group_now, order
from .skirmish import fray_of
from .state import Fighter, SkirmishState, replace

ABILITY = "Additional limb"


class Announcement(NamedTuple):
    """One announcement the fight waits for: who, and the keeper's proposal (1: used)."""

    fighter: Fighter
    proposal: int


def announces(state: SkirmishState) -> bool:
    """Whether a fight's INI result leads to announcements (both options the players')."""
    return by_players(state) and state.option(OPTION, STORED_BEFORE) == "players"


def queue(state: SkirmishState) -> list[Announcement]:
    """Every announcement the fight whose dice are about to be placed asks for, in the placing order (the INI
    loser's camp first); a fighter in rout has no active ability (:func:`~.skirmish.combatant`)."""
    group, winner = group_now(state), int(state.placing[2])
    bare = fray_of(group, replace(state, before_ini=state.before_ini[:2]))  # the cards before any announcement
    flat = [*group[0], *group[1]]
    out = []
    for i in order(bare, winner):
        fighter = bare.fighters[i]
        if fighter.has(ABILITY):
            out.append(Announcement(flat[i], int(fighter.card.DEF > fighter.card.ATT)))
    return out


def _made(state: SkirmishState) -> int:
    return sum(1 for _, ability, _ in triples(state.before_ini[2:]) if ability == ABILITY)


def pending(state: SkirmishState) -> Announcement | None:
    """The announcement the fight waits for now (``None``: none, or all made; placing begins)."""
    if not state.placing or len(state.placing) > 3 or not announces(state):
        return None
    wanted = queue(state)
    made = _made(state)
    return wanted[made] if made < len(wanted) else None


def _words(now: Announcement, value: int) -> str:
    card, key = now.fighter.card, now.fighter.key
    if value:
        return f"{key} uses Additional limb: ATT {card.DEF}, DEF {card.ATT} for this combat (his ATT and DEF swapped)"
    return f"{key} does not use Additional limb: ATT {card.ATT}, DEF {card.DEF}"


def offers(state: SkirmishState) -> list[LegalAction]:
    now = pending(state)
    assert now is not None  # announcing(state)
    rest = len(queue(state)) - _made(state) - 1
    note = "then the dice are placed" if rest == 0 else f"then {rest} more announcement" + ("s" if rest > 1 else "")
    f = now.fighter
    return [offer(Declare(f.side, f.key, ABILITY, value),
                  _words(now, value) + (" (the keeper's proposal)" if value == now.proposal else ""), f.side, None,
                  note, f"{ABILITY}: {'yes' if value else 'no'}", f"{f.key}: after the INI test")
            for value in (now.proposal, 1 - now.proposal)]


def check(state: SkirmishState, action: Declare) -> None:
    now = pending(state)
    if now is None:
        raise IllegalActionError("no fight waits for an Additional limb announcement now", kind="declare")
    if action.fighter != now.fighter.key or action.ability != ABILITY:
        raise IllegalActionError(f"{now.fighter.key} announces his Additional limb now (the INI loser's camp first), "
                                 f"not {action.fighter}'s {action.ability}", field="fighter")
    if action.value not in (0, 1):
        raise IllegalActionError(f"{now.fighter.key}'s Additional limb: 1 (used) or 0, not {action.value}",
                                 field="value")


def with_announcement(state: SkirmishState, action: Declare) -> SkirmishState:
    """The state once ``action`` is announced; the next announcer acts, or the first fighter to place his dice."""
    new = replace(state, before_ini=(*state.before_ini, action.fighter, ABILITY, str(action.value)))
    after = pending(new)
    return replace(new, to_act=(after.fighter if after is not None else choices(new).fighter).side)


def opening(state: SkirmishState) -> SkirmishState:
    """A fight whose INI tests are drawn: if someone announces, the announcements are recorded where the
    declarations are (``before_ini``, begun with the fight's side and lead if nothing was declared before the INI
    test) and the first announcer acts; else the state as it is (the first placer acts)."""
    if not announces(state) or not queue(state):
        return state
    said = state.before_ini or state.placing[:2]
    first = queue(replace(state, before_ini=said))[0]
    return replace(state, before_ini=said, to_act=first.fighter.side)
