"""Before a fight's INI test, each player declares his fighters' War fury, Sequence and Resolute (option
``declarations``, default ``players``).

Why: both are active abilities, the player's to use or not: War fury "can be used in every combat before the INI
test"; Sequence/X "can acquire up to X additional combat dice … This ability activates before the INI test";
Resolute/X "can be used once per round right before any INI, ATT, DEF or COU test made by the fighter". The
keeper may propose, never pick silently (the developers' guide). So when a fight's fighters have either, ``fight``
draws nothing: each fighter declares (``declare FIGHTER N``: War fury and Resolute 1 or 0, Sequence the dice he
takes), the camp
that did not order the fight first, then the fight's own camp, who sees them (the seed is silent on the order;
this mirrors "the winner … places after the loser"); the last declaration makes the fight as ``fight`` would have
(the INI tests, then the placements or the whole fight). The keeper's proposal, listed first, is its policy: War
fury used, every Sequence die he may take, Resolute used on this INI test; declared so, a fight ends exactly as
without the declarations (the same cards, the same RNG, the same order), but for Resolute's "once per round": used,
it is spent until the round ends (a second fight that round has none; the keeper's own declaring, below, gave it
to every fight). Resolute is declared for the INI test only: the exchanges' ATT and DEF tests are drawn in one go
and COU tests never use it (:data:`~.morale.NOT_ON_MORALE`), so kept it serves a later fight's INI this round.

A battle stored before the option reads ``keeper`` (its log holds no declarations): the policy declares.
"""

from __future__ import annotations

from typing import NamedTuple

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction
from rulekeeper.core.wording import counted

from .action_types import Declare, offer
from .declarations import OPTION, STORED_BEFORE, triples
from .report_lines import ReportLine
from .skirmish import fray_of, group_of
from .state import Fighter, SkirmishState, replace

Group = tuple[tuple[Fighter, ...], tuple[Fighter, ...]]


class Pending(NamedTuple):
    """One declaration a fight waits for: who, which ability, and the most he may declare."""

    fighter: Fighter
    ability: str  # "War fury", "Sequence" or "Resolute"
    most: int  # War fury, Resolute: 1 (used); Sequence: the dice his ATT and DEF allow ("cannot be applied" below 0)


def by_players(state: SkirmishState) -> bool:
    return state.option(OPTION, STORED_BEFORE) == "players"


def queue(state: SkirmishState, group: Group) -> list[Pending]:
    """Every declaration a group's fight asks for, in order: the other camp's fighters, then the fight's camp's,
    each War fury, Sequence, then Resolute (a fighter in rout has no active ability: :func:`~.skirmish.combatant`;
    one who used Resolute this round has it no more)."""
    used = {key for key, ability, value in triples(state.before_ini[2:]) if ability == "Resolute" and value}

    def unspent(camp: tuple[Fighter, ...]) -> tuple[Fighter, ...]:  # Resolute spent by this fight's own declaration
        return tuple(replace(f, resolute=False) if f.key in used else f for f in camp)

    bare = fray_of((unspent(group[0]), unspent(group[1])), replace(state, before_ini=()))  # what each may declare
    flat = [*group[0], *group[1]]
    out: list[Pending] = []
    for i in sorted(range(len(flat)), key=lambda i: -bare.camp_of[i]):
        if bare.fighters[i].has("War fury"):
            out.append(Pending(flat[i], "War fury", 1))
        if bare.sequence[i] > 0:
            out.append(Pending(flat[i], "Sequence", bare.sequence[i]))
        if bare.fighters[i].has("Resolute"):
            out.append(Pending(flat[i], "Resolute", 1))
    return out


def asks(state: SkirmishState, lead: Fighter) -> bool:
    """Whether ``fight`` by ``lead`` opens the declarations (the option, and someone with something to declare)."""
    if not by_players(state) or state.before_ini:
        return False
    group = group_of(state, lead)
    return group is not None and bool(queue(state, group))


def declaring(state: SkirmishState) -> bool:
    """A fight waits for a declaration (once they are all made, ``before_ini`` stays while the dice are placed)."""
    return bool(state.before_ini) and not state.placing


def _group(state: SkirmishState) -> Group:
    found = group_of(state, state.fighter(state.before_ini[1]))
    assert found is not None  # the group the fight began with: nothing else may act until it is fought
    return found


def _made(state: SkirmishState) -> int:
    return (len(state.before_ini) - 2) // 3


def pending(state: SkirmishState) -> Pending | None:
    """The declaration the fight waits for now (``None``: all made)."""
    wanted = queue(state, _group(state))
    made = _made(state)
    return wanted[made] if made < len(wanted) else None


def begin(state: SkirmishState, lead: Fighter) -> tuple[SkirmishState, list[ReportLine]]:
    """``fight`` with something to declare: nothing drawn yet; the first fighter to declare acts."""
    new = replace(state, before_ini=(state.to_act, lead.key))
    first = pending(new)
    assert first is not None  # asks() said there is one
    asked = [f"{p.fighter.key}'s {p.ability}" for p in queue(new, _group(new))]
    text = f"{lead.key}'s fight: before the INI test, {first.fighter.key}'s player declares first ({', '.join(asked)})"
    return replace(new, to_act=first.fighter.side), [{"text": text, "kind": "fight"}]


def _values(now: Pending) -> list[int]:
    """What he may declare, the keeper's proposal first (War fury and Resolute used, every Sequence die he may
    take)."""
    return list(range(now.most, -1, -1))


def _words(now: Pending, value: int) -> str:
    key = now.fighter.key
    if now.ability == "War fury" and value:
        return f"{key} uses War fury: one more die in attack; until the round's end more dice in attack than in " \
               "defence and −1 to the natural DEF"
    if now.ability == "War fury":
        bound = " (his earlier use this round still binds him)" if now.fighter.furious else ""
        return f"{key} does not use War fury{bound}"
    if now.ability == "Resolute":
        bonus = now.fighter.card.value_of("Resolute") or "X"
        return f"{key} uses Resolute on this INI test: +{bonus} INI (once per round)" if value else \
            f"{key} keeps Resolute for a later fight's INI test this round"
    return f"{key} takes {counted(value, 'Sequence die', 'Sequence dice')}" + (f": −{value} ATT and DEF" if value else "")


def offers(state: SkirmishState) -> list[LegalAction]:
    now = pending(state)
    assert now is not None  # declaring(state)
    rest = len(queue(state, _group(state))) - _made(state) - 1
    note = "then the INI tests" if rest == 0 else f"then {counted(rest, 'more declaration')}"
    f = now.fighter
    return [offer(Declare(f.side, f.key, now.ability, value),
                  _words(now, value) + (" (the keeper's proposal)" if value == now.most else ""), f.side, None, note,
                  f"{now.ability}: {value}", f"{f.key}: before the INI test") for value in _values(now)]


def check(state: SkirmishState, action: Declare) -> None:
    now = pending(state)
    if now is None:
        raise IllegalActionError("no fight waits for a declaration now", kind="declare")
    if action.fighter != now.fighter.key or action.ability != now.ability:
        raise IllegalActionError(f"{now.fighter.key} declares his {now.ability} now, not {action.fighter}'s "
                                 f"{action.ability}", field="fighter")
    if not 0 <= action.value <= now.most:
        what = "1 (used) or 0" if now.ability != "Sequence" else f"0 to {counted(now.most, 'die', 'dice')} (his ATT and DEF allow no more)"
        raise IllegalActionError(f"{now.fighter.key}'s {now.ability}: {what}, not {action.value}", field="value")


def with_declaration(state: SkirmishState, action: Declare) -> SkirmishState:
    """The state once ``action`` is declared (War fury used: he is bound by it until the round's end; Resolute
    used: spent until then); the last
    declaration gives the turn back to the fight's side, whose ``fight`` goes on."""
    new = replace(state, before_ini=(*state.before_ini, action.fighter, action.ability, str(action.value)))
    if action.ability == "War fury" and action.value:
        new = new.with_fighters(replace(new.fighter(action.fighter), furious=True))
    if action.ability == "Resolute" and action.value:  # "once per round": spent until the round's end
        new = new.with_fighters(replace(new.fighter(action.fighter), resolute=True))
    after = pending(new)
    return replace(new, to_act=state.before_ini[0] if after is None else after.fighter.side)
