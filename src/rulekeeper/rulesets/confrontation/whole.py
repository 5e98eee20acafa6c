"""The whole result of a skirmish action before it is made (issue 27): a fight's every fighter's end, a shot's
wound, a charge's COU tests, as a :class:`~rulekeeper.core.whole.WholeOdds` the CLI and the web keeper show.

Every number comes from the functions the resolution draws with: a fight from the fray's own steps
(:mod:`.fray_whole`), a shot from :meth:`~.shooting.Shot.outcomes` and the wound :func:`~.exchanges.apply_wound`
makes of each line (what :func:`~.shooting.do_shoot` does), a charge from the very :class:`~.fear.FearTest`
objects :func:`~.skirmish.do_charge` rolls.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from rulekeeper.core.whole import WholeMeasure, WholeOdds

from . import after_ini, before_ini, rallying_cry, steeling
from .action_types import ByFighter, Charge, Declare, Place, Shoot, SkirmishAction, ToPoint
from .exchanges import apply_wound
from .fear import FearTest, awaits_resolute, steeled_charge
from .fray_whole import fray_whole_odds
from .placing import by_players, with_choice
from .shooting import _combatant, _health, shot_of
from .skirmish import charge_draws, fray_of, group_of, walk_tests
from .state import Fighter, SkirmishState
from .strikes import WOUNDS
from .wounds import load_wound_table


def whole_odds(state: SkirmishState, action: SkirmishAction) -> WholeOdds | None:
    """The whole-action odds of a fight, a shot, a charge or a move that crosses frightening enemies; ``None``
    for an action without chance."""
    try:
        f = state.fighter(action.fighter)
    except LookupError:
        return None
    if isinstance(action, Place) and state.placing:  # the last placement draws the exchanges (placing.py)
        fray, winner, placed, last = with_choice(state, action.attack)
        if not last:
            return None
        return fray_whole_odds(fray, [g.key for g in (*placed[0], *placed[1])], 0 if f.side == placed[0][0].side else 1,
                               winner=winner)
    if isinstance(action, Declare) and state.crying:  # the rallying tests the answer leads to (rallying_cry.py)
        tests = rallying_cry.planned(state, bool(action.value))[1]
        return None if not tests else tests_whole(tests, "fighters staying in rout")
    if isinstance(action, Declare) and state.steeling:  # his COU test as declared (steeling.py)
        tests = steeling.answer_tests(state, bool(action.value))
        return None if not tests else tests_whole(tests, "our fighters in rout" if state.steeling[1] == steeling.CHARGED
                                                  else "fighters staying in rout")
    if isinstance(action, Declare) and after_ini.pending(state) is not None:  # an announcement draws nothing
        return None
    if isinstance(action, Declare) and before_ini.declaring(state):  # the last declaration makes the fight
        declared = before_ini.with_declaration(state, action)
        if before_ini.pending(declared) is not None:
            return None
        lead = declared.fighter(declared.before_ini[1])
        return whole_odds(declared, ByFighter("fight", lead.side, lead.key))
    if action.kind == "fight" and (by_players(state) or before_ini.asks(state, f)):
        return None  # it draws the INI tests alone, or nothing yet: its preview gives the fight's outlook
    if action.kind == "fight":
        group = group_of(state, f)
        if group is None:
            return None
        flat = [*group[0], *group[1]]
        ours = 0 if f.side == group[0][0].side else 1
        return fray_whole_odds(fray_of(group, state), [g.key for g in flat], ours)
    if isinstance(action, Shoot):
        return shot_whole(state, f, state.fighter(action.target))
    if isinstance(action, Charge):
        state, f = steeled_charge(state, f, action.resolute)  # Resolute on his COU test (fear.py)
        t = state.fighter(action.target)
        mine, passing, theirs = charge_draws(state, f, t)
        return charge_whole(action.target, mine, passing, theirs, awaits_resolute(state, f, t))
    if isinstance(action, ToPoint) and action.kind == "move":
        x, y = action.to
        tests = walk_tests(state, f, x, y)
        return None if not tests else tests_whole(tests, "our fighters in rout")
    return None


def shot_whole(state: SkirmishState, f: Fighter, t: Fighter) -> WholeOdds:
    """A shot: the target's HP left and his wound (the AIM test, the damage roll, the wound applied)."""
    table = load_wound_table()
    lines = shot_of(state, f, t, table).outcomes(table)
    hp: defaultdict[int, Fraction] = defaultdict(Fraction)
    for line, p in lines.items():
        if line == "miss":
            hp[t.hp] += p
            continue
        health = apply_wound(_combatant(t), table, _health(t), line)  # what do_shoot applies
        hp[0 if health.killed else health.hp] += p
    order = ["miss", "No effect", "Stunned", *WOUNDS]
    shown = [(line, float(lines[line])) for line in order if line in lines]
    shown += [(line, float(p)) for line, p in lines.items() if line not in order]
    killed = float(hp.get(0, Fraction(0)))
    return WholeOdds(
        (WholeMeasure.from_weights("hp_target", f"{t.key}: HP left", [(k, float(hp[k])) for k in sorted(hp)]),
         WholeMeasure.from_weights("shot", "the shot", shown)),
        (("hits", 1.0 - float(lines.get("miss", Fraction(0)))),
         ("wounds", float(sum((p for line, p in lines.items() if line in WOUNDS), Fraction(0)))),
         (f"{t.key} killed", killed)),
        "exact", 0.0, "the AIM test, the damage roll and the wound, every branch")


def charge_whole(target: str, mine: FearTest | None, passing: list[FearTest], theirs: FearTest | None,
                 answered: bool = False) -> WholeOdds:
    """A charge: whether it goes in (the charger's COU test) and whether the charged fighter routs; ``answered``:
    his COU test is drawn on his player's answer (:mod:`.steeling`), not by the charge, so nothing is said of it here
    (not "cannot happen")."""
    goes = float(mine.chance()) if mine is not None else 1.0
    routs = goes * (1.0 - float(theirs.chance())) if theirs is not None else 0.0
    outcomes = [("does not charge", 1.0 - goes), ("in contact", goes - routs)]
    events = [("charge goes in", goes)]
    if not answered:
        outcomes.append((f"in contact, {target} routs", routs))
        events.append((f"{target} routs", routs))
    events += [(f"{test.label} fails", goes * (1.0 - float(test.chance()))) for test in passing]
    note = "the COU tests the charge rolls, every branch" + \
        (f"; {target}'s own COU test comes on his player's answer (Resolute or not)" if answered else "")
    return WholeOdds((WholeMeasure.from_weights("charge", "the charge", outcomes),), tuple(events), "exact", 0.0, note)


def tests_whole(tests: list[FearTest], label: str) -> WholeOdds:
    """Independent COU tests: how many fail (the distribution of a sum of unequal coins, exactly)."""
    dist = [1.0]
    for test in tests:
        q = 1.0 - float(test.chance())
        dist = [a * (1 - q) + b * q for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    events = tuple((f"{test.label} fails", 1.0 - float(test.chance())) for test in tests)
    return WholeOdds((WholeMeasure.from_weights("routs", label, list(enumerate(dist))),), events, "exact", 0.0,
                     "the COU tests the move rolls")
