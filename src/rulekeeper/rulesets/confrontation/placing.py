"""A fight in steps, each player placing his fighters' combat dice (option ``placement``, default ``players``).

Why: "the winner of the roll places their combat dice … after the loser" (docs/rules/confrontation.md, "Frays"),
and the seed gives the choice to the player ("When a Fencer's combat dice are being placed before a combat, one of
them can be held in reserve by the player controlling him"); the keeper may propose, never pick silently. So
``fight`` draws the INI tests only; then every fighter of the losing camp places (one ``place`` action each, in the
fray's order), then every fighter of the winning camp, who sees those; the last placement draws the exchanges.
Every die comes from the same RNG in the same order as the one-action fight, so a fight placed as the keeper
proposes (its documented policy, :func:`~.exchanges.place`) ends exactly as under ``placement=keeper``.

``placing`` in the state: (the fight's side, its lead fighter, the camp that won initiative, then each placed
fighter's attack dice, without the dice War fury and Brutish charge add). A battle stored before the option reads
``keeper`` (its log holds no placements).
"""

from __future__ import annotations

from typing import NamedTuple

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError, ImpossibleRequestError
from rulekeeper.core.game import LegalAction
from rulekeeper.core.wording import counted

from .action_types import Place, offer
from .exchanges import Report, place
from .fray import Fray, fight_out, roll_fray_initiative
from .report_lines import ReportLine
from .skirmish import fought, fray_of, group_of, names
from .state import Fighter, SkirmishState, replace

#: The option and what a battle that does not name it reads (one stored before the choice existed).
OPTION = "placement"
STORED_BEFORE = "keeper"

Group = tuple[tuple[Fighter, ...], tuple[Fighter, ...]]


def by_players(state: SkirmishState) -> bool:
    return state.option(OPTION, STORED_BEFORE) == "players"


def group_now(state: SkirmishState) -> Group:
    """The group whose fight is underway (its INI tests drawn, its dice being placed)."""
    found = group_of(state, state.fighter(state.placing[1]))
    assert found is not None  # the group a fight began with: nothing else may act until it is fought
    return found


def fighters_of(state: SkirmishState) -> list[str]:
    """The fighters of the fight whose dice are being placed, in the fray's order (as a one-action fight marks them
    for a pursuit)."""
    group = group_now(state)
    return [g.key for g in (*group[0], *group[1])]


def order(fray: Fray, winner: int) -> list[int]:
    """The fray's fighters in placing order: the losing camp first ("the winner … places after the loser")."""
    return [i for c in (1 - winner, winner) for i in range(len(fray.fighters)) if fray.camp_of[i] == c]


def _placed(state: SkirmishState) -> list[int]:
    return [int(n) for n in state.placing[3:]]


def placed_so_far(state: SkirmishState, group: Group, winner: int) -> Fray:
    """The group's fray with the attack dice placed so far fixed (``None``: not placed yet)."""
    bare = fray_of(group, state)
    fixed: list[int | None] = [None] * len(bare.fighters)
    for i, n in zip(order(bare, winner), _placed(state), strict=False):
        fixed[i] = n
    return Fray(bare.camps, bare.table, bare.engaged, tuple(fixed))


def begin(state: SkirmishState, lead: Fighter, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """``fight``: the INI tests; the first fighter of the losing camp places next."""
    group = group_of(state, lead)
    assert group is not None  # checked by actions.check
    fray = fray_of(group, state)
    winner = roll_fray_initiative(fate, fray)
    camp = group[winner]
    first = fray.fighters[order(fray, winner)[0]]
    text = (f"{names(group[0])} fight{'s' if len(group[0]) == 1 else ''} {names(group[1])}: {names(camp)} "
            f"win{'s' if len(camp) == 1 else ''} initiative; {first.name} places his combat dice first")
    new = replace(state, placing=(state.to_act, lead.key, str(winner)))
    return replace(new, to_act=next_placer(new)[1].side), [{"text": text, "kind": "fight"}]


def next_placer(state: SkirmishState) -> tuple[int, Fighter, Fray]:
    """The index (in the fray) and fighter who places next, and the fray with what is placed so far."""
    group, winner = group_now(state), int(state.placing[2])
    fray = placed_so_far(state, group, winner)
    i = order(fray, winner)[len(_placed(state))]
    return i, [*group[0], *group[1]][i], fray


class Choice(NamedTuple):
    """Who places now and what he may place."""

    fighter: Fighter
    allowed: list[int]  # attack dice he may place, the keeper's proposal first
    dice: int  # the dice he places (Fencer's reserve die apart)
    forced: int  # the dice War fury and Brutish charge add in attack
    proposal: int  # the documented policy's attack dice, seeing what the losing camp placed
    reserve: bool  # Fencer holds a die in reserve


def choices(state: SkirmishState) -> Choice:
    i, f, fray = next_placer(state)
    fighter = fray.fighters[i]
    reserve = fighter.has("Fencer") and fray.dice(i) >= 2
    dice, forced = fray.dice(i) - reserve, fighter.attack_only_dice()
    proposal = fray.opening(int(state.placing[2])).attack[i] - forced
    allowed = []
    for n in range(dice + 1):
        try:
            place(fighter, None, n, dice)
        except ImpossibleRequestError:  # War fury: more dice in attack than in defence
            continue
        allowed.append(n)
    return Choice(f, sorted(allowed, key=lambda n: (n != proposal, n)), dice, forced, proposal, reserve)


def offers(state: SkirmishState) -> list[LegalAction]:
    c = choices(state)
    f, held_back = c.fighter, " (Fencer's die held in reserve)" if c.reserve else ""
    rest = len(placed_so_far(state, group_now(state), int(state.placing[2])).fighters) - len(_placed(state)) - 1
    note = "then the exchanges" if rest == 0 else f"then {counted(rest, 'more fighter')} place" + ("s" if rest == 1 else "")
    return [offer(Place(f.side, f.key, n), f"{f.key}: {n + c.forced} in attack, {c.dice - n} in defence{held_back}"
                  + (" (the keeper's proposal)" if n == c.proposal else ""), f.side, None, note,
                  f"{n + c.forced} in attack", f"{f.key}: combat dice") for n in c.allowed]


def with_choice(state: SkirmishState, attack: int) -> tuple[Fray, int, Group, bool]:
    """The fray if the fighter placing now places ``attack`` (those after him: the keeper's proposals, seeing it),
    the camp that won initiative, the group, and whether his is the last placement (the exchanges follow)."""
    chosen = replace(state, placing=(*state.placing, str(attack)))
    group, winner = group_now(state), int(state.placing[2])
    fray = placed_so_far(chosen, group, winner)
    return fray, winner, group, len(_placed(chosen)) == len(fray.fighters)


def check(state: SkirmishState, action: Place) -> None:
    c = choices(state)
    if action.fighter != c.fighter.key:
        raise IllegalActionError(f"{c.fighter.key} places his combat dice now, not {action.fighter}", field="fighter")
    if action.attack not in c.allowed:
        fury = " (War fury: more in attack than in defence)" if len(c.allowed) <= c.dice else ""
        raise IllegalActionError(f"{c.fighter.key} places {min(c.allowed)} to {max(c.allowed)} of his "
                                 f"{counted(c.dice, 'die', 'dice')} in attack{fury}, not {action.attack}",
                                 field="attack")


def do_place(state: SkirmishState, action: Place, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """One fighter's dice placed; after the last, the exchanges (the fight's side acts on, as after a fight)."""
    c = choices(state)
    said: ReportLine = {"text": f"{c.fighter.key} places {action.attack + c.forced} in attack, "
                                f"{c.dice - action.attack} in defence", "kind": "fight"}
    new = replace(state, placing=(*state.placing, str(action.attack)))
    group, winner = group_now(new), int(new.placing[2])
    fray = placed_so_far(new, group, winner)
    if len(_placed(new)) < len(fray.fighters):
        return replace(new, to_act=next_placer(new)[1].side), [said]
    report = Report()
    healths = fight_out(fate, fray, winner, report)
    done, card = fought(replace(new, placing=(), before_ini=(), to_act=new.placing[0]), group, healths, report)
    return done, [said, *card]
