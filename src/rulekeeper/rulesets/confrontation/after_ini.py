"""After a fight's INI test, before the dice are placed: each player announces which of his fighters use Additional
limb, and each Fencer's player whether he holds a die in reserve (options ``placement`` and ``declarations`` both
``players``).

Why: both are the player's: Additional limb is active ("A fighter using Additional limb swaps his ATT and DEF for
the duration of the combat being played. If there are opponents endowed with Additional limb involved in this same
combat, then the loser of the INI roll is the first one to announce which of his fighters will be using this
ability"); Fencer "When a Fencer's combat dice are being placed before a combat, one of them can be held in reserve
by the player controlling him". So once the INI tests are drawn, every Additional limb is announced before any die
is placed (the swap changes what a fighter places): the INI loser's fighters first, then the winner's, who sees
them, in the placing order (:func:`~.placing.order`); a Fencer with two dice or more says whether he holds one just
before he places his own. ``declare FIGHTER yes|no`` (a :class:`~.action_types.Declare` of "Additional limb" or
"Fencer"). The keeper's proposal, listed first, is its old policy (Additional limb used when it raises his ATT: DEF
above ATT; Fencer holds his die); declared so, a fight ends as the one-action fight's policy plays it. Where the
held die goes in the exchanges stays the keeper's policy (:meth:`~.melee.Fray.ready`): the exchanges are drawn in one
go.

The announcements sit in ``before_ini`` as its declarations do (:mod:`.declarations`: Additional limb used reads
``Additional limb/used`` on his card, not used the card without it; no die held, the card without Fencer for this
fight), while ``placing`` holds the INI result; under ``placement=keeper`` (a fight in one action) or
``declarations=keeper`` (a battle stored before these choices) the policy decides as before.
"""

from __future__ import annotations

from typing import NamedTuple

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction
from rulekeeper.core.memo import per_state

from .action_types import Declare, offer
from .declarations import OPTION, STORED_BEFORE, triples
from .fighters import Combatant
from .placing import by_players, choices, group_now, next_placer, order
from .skirmish import fray_of
from .state import Fighter, SkirmishState, replace

LIMB, FENCER = "Additional limb", "Fencer"


class Announcement(NamedTuple):
    """One announcement the fight waits for: who, which ability, and the keeper's proposal (1: used, held)."""

    fighter: Fighter
    ability: str
    proposal: int


def announces(state: SkirmishState) -> bool:
    """Whether a fight's INI result leads to announcements (both options the players')."""
    return by_players(state) and state.option(OPTION, STORED_BEFORE) == "players"


def _holds(fighter: Combatant, dice: int) -> bool:
    """A Fencer who may hold a die: "one of them" (two dice or more; :meth:`~.melee.Fray.opening` likewise)."""
    return fighter.has(FENCER) and dice >= 2


def limbs(state: SkirmishState) -> list[Announcement]:
    """Every Additional limb the fight whose dice are about to be placed asks for, in the placing order (the INI
    loser's camp first); a fighter in rout has no active ability (:func:`~.skirmish.combatant`)."""
    group, winner = group_now(state), int(state.placing[2])
    bare = fray_of(group, replace(state, before_ini=state.before_ini[:2]))  # the cards before any announcement
    flat = [*group[0], *group[1]]
    return [Announcement(flat[i], LIMB, int(bare.fighters[i].card.DEF > bare.fighters[i].card.ATT))
            for i in order(bare, winner) if bare.fighters[i].has(LIMB)]


def _said(state: SkirmishState, ability: str) -> list[str]:
    return [key for key, said, _ in triples(state.before_ini[2:]) if said == ability]


@per_state
def pending(state: SkirmishState) -> Announcement | None:
    """The announcement the fight waits for now: an Additional limb before any placement, or the next placer's
    Fencer die (``None``: he places). Asked of a state many times (legal list, checks, status): once per state."""
    if not state.placing or not announces(state) or len(state.before_ini) < 2:
        return None
    if len(state.placing) == 3:
        wanted, made = limbs(state), len(_said(state, LIMB))
        if made < len(wanted):
            return wanted[made]
    i, f, fray = next_placer(state)
    if f.key not in _said(state, FENCER) and _holds(fray.fighters[i], fray.dice(i)):
        return Announcement(f, FENCER, 1)
    return None


def _words(now: Announcement, value: int) -> str:
    card, key = now.fighter.card, now.fighter.key
    if now.ability == FENCER:
        return f"{key} holds one combat die in reserve (the keeper places it in attack or defence during an " \
               "exchange)" if value else f"{key} holds no die in reserve: he places them all"
    if value:
        return f"{key} uses Additional limb: ATT {card.DEF}, DEF {card.ATT} for this combat (his ATT and DEF swapped)"
    return f"{key} does not use Additional limb: ATT {card.ATT}, DEF {card.DEF}"


def offers(state: SkirmishState) -> list[LegalAction]:
    now = pending(state)
    assert now is not None  # the fight waits for it
    rest = len(limbs(state)) - len(_said(state, LIMB)) - 1 if now.ability == LIMB else 0
    note = ("then he places his dice" if now.ability == FENCER else "then the dice are placed") if rest == 0 \
        else f"then {rest} more announcement" + ("s" if rest > 1 else "")
    f, when = now.fighter, "placing his dice" if now.ability == FENCER else "after the INI test"
    return [offer(Declare(f.side, f.key, now.ability, value),
                  _words(now, value) + (" (the keeper's proposal)" if value == now.proposal else ""), f.side, None,
                  note, f"{now.ability}: {'yes' if value else 'no'}", f"{f.key}: {when}")
            for value in (now.proposal, 1 - now.proposal)]


def check(state: SkirmishState, action: Declare) -> None:
    now = pending(state)
    if now is None:
        raise IllegalActionError("no fight waits for an announcement now", kind="declare")
    if action.fighter != now.fighter.key or action.ability != now.ability:
        first = " (the INI loser's camp first)" if now.ability == LIMB else " (before he places his dice)"
        raise IllegalActionError(f"{now.fighter.key} announces his {now.ability} now{first}, not {action.fighter}'s "
                                 f"{action.ability}", field="fighter")
    if action.value not in (0, 1):
        raise IllegalActionError(f"{now.fighter.key}'s {now.ability}: 1 (used) or 0, not {action.value}", field="value")


def with_announcement(state: SkirmishState, action: Declare) -> SkirmishState:
    """The state once ``action`` is announced; the next announcer acts, or the next fighter to place his dice."""
    new = replace(state, before_ini=(*state.before_ini, action.fighter, action.ability, str(action.value)))
    after = pending(new)
    return replace(new, to_act=(after.fighter if after is not None else choices(new).fighter).side)


def opening(state: SkirmishState) -> SkirmishState:
    """A fight whose INI tests are drawn: if someone will announce (an Additional limb, a Fencer with two dice or
    more), the announcements are recorded where the declarations are (``before_ini``, begun with the fight's side and
    lead if nothing was declared before the INI test) and the first announcer acts; else the state as it is."""
    if not announces(state):
        return state
    group = group_now(state)
    bare = fray_of(group, replace(state, before_ini=state.before_ini[:2]))
    if not any(f.has(LIMB) or _holds(f, bare.dice(i)) for i, f in enumerate(bare.fighters)):
        return state
    said = replace(state, before_ini=state.before_ini or state.placing[:2])
    first = pending(said)
    return said if first is None else replace(said, to_act=first.fighter.side)
