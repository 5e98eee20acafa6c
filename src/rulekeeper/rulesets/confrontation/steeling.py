"""Resolute on a COU test a fighter takes outside his own action: charged by a frightening enemy, or the strategic
phase's rallying test (option ``declarations``, default ``players``).

Why: Resolute/X "can be used once per round right before any INI, ATT, DEF or COU test made by the fighter", and
the keeper may propose, never pick silently (the developers' guide). A fight's INI test (:mod:`.before_ini`) and the
COU test of a charge he makes (:func:`.fear.may_steel`) were his player's already; these two tests come inside
someone else's action or the round's own flow, so the keeper stops there and asks:

* **charged**: a charge on a fighter with his Resolute unspent this round, whom the charger frightens (and whose
  test Resolute's +X makes likelier: :func:`.fear.helps`), goes in as
  declared (the charger's COU test, his assault fire, the contact, the COU tests of the enemies an Ethereal charger
  passes through), then waits for the charged fighter's player: ``declare FIGHTER yes|no``. His COU test is drawn on
  the answer, at COU + X with it ("the Characteristic is increased by X"), and Resolute is spent until the round
  ends; the charger's side acts next, as after any charge;
* **rally**: in the strategic phase, a fighter in rout whose rallying test Resolute would help (with COU + X his
  chance is higher: he tests COU rather than DIS) is asked right before his test; the tests are drawn in the
  fighters' order as before, each asker's on his answer.

The keeper's proposal, listed first, is to keep it: its own play never spent Resolute on these tests, so a battle
declared as proposed ends as under ``declarations=keeper`` (stored battles replay as they were played). Kept, it
serves a later test this round.
"""

from __future__ import annotations

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction

from .action_types import Declare, offer
from .fear import FearTest, charge_tests, face, may_spend, rally_one, rally_test
from .report_lines import ReportLine
from .state import Fighter, SkirmishState, replace

RALLY = "rally"
CHARGED = "charged"


def asks_on_rally(state: SkirmishState, f: Fighter) -> bool:
    """Whether ``f``'s player is asked for Resolute before his rallying test (it would change his chance)."""
    return may_spend(state, f, lambda g: rally_test(state, g))


def rally(state: SkirmishState, fate: Fate, report: list[ReportLine], after: str = "") -> SkirmishState:
    """The rallying tests of the fighters in rout, in order (after ``after``, when resuming): each drawn, until one
    whose player is asked for Resolute (:func:`asks_on_rally`): the phase waits for him there."""
    keys = [f.key for f in state.standing()]
    for key in keys[keys.index(after) + 1:] if after else keys:
        f = state.fighter(key)
        if not f.rout:
            continue
        if asks_on_rally(state, f):
            report.append({"text": f"Strategic phase: {key}'s player says whether he spends Resolute on his rallying "
                                   "test", "kind": "morale"})
            return replace(state, steeling=(key, RALLY), to_act=f.side)
        state = state.with_fighters(rally_one(state, f, fate, report))
    return state


def charged(state: SkirmishState, charger: Fighter, t: Fighter) -> tuple[SkirmishState, ReportLine]:
    """The charge is in contact: it waits for the charged fighter's answer (his side to act)."""
    said = f"{t.key}'s player says whether he spends Resolute on his COU test against {charger.key}'s FEAR"
    return replace(state, steeling=(t.key, CHARGED, charger.key), to_act=t.side), {"text": said, "kind": "morale"}


def tester(state: SkirmishState) -> Fighter:
    return state.fighter(state.steeling[0])


def test_of(state: SkirmishState, steeled: bool) -> FearTest | None:
    """The COU test awaited, as it is drawn with Resolute (``steeled``) or without."""
    f = replace(tester(state), steeled=steeled)
    if state.steeling[1] == RALLY:
        return rally_test(state.with_fighters(f), f)
    return charge_tests(state.with_fighters(f), state.fighter(state.steeling[2]), f)[1]


def answer_tests(state: SkirmishState, steeled: bool) -> list[FearTest]:
    """The tests the answer draws, in order: his, then (the rally) those of the fighters in rout after him up to the
    next one whose player is asked (a fighter in contact with a fear-causing enemy fails without a roll)."""
    mine = test_of(state, steeled)
    tests = [] if mine is None else [mine]
    return tests if state.steeling[1] != RALLY else [*tests, *planned_rally(state, state.steeling[0])]


def planned_rally(state: SkirmishState, after: str = "") -> list[FearTest]:
    """The rallying tests :func:`rally` draws from ``after`` on, in order, up to the first fighter whose player is
    asked (the tests do not depend on each other's results: each his own characteristic against 8)."""
    keys = [f.key for f in state.standing()]
    tests: list[FearTest] = []
    for key in keys[keys.index(after) + 1:] if after else keys:
        f = state.fighter(key)
        if not f.rout:
            continue
        if asks_on_rally(state, f):
            break
        test = rally_test(state, f)
        tests += [] if test is None else [test]
    return tests


def _words(state: SkirmishState, value: int) -> str:
    f, test = tester(state), test_of(state, bool(value))
    what = "his rallying test" if state.steeling[1] == RALLY else "his COU test"
    odds = "" if test is None else f" (COU {test.characteristic} vs {test.fear}: {float(test.chance()):.1%})"
    if value:
        return f"{f.key} uses Resolute on {what}: +{f.card.value_of('Resolute')} COU, once per round{odds}"
    return f"{f.key} keeps Resolute for a later test this round{odds} (the keeper's proposal)"


def offers(state: SkirmishState) -> list[LegalAction]:
    f = tester(state)
    return [offer(Declare(f.side, f.key, "Resolute", value), _words(state, value), f.side, None, "",
                  f"Resolute: {'yes' if value else 'no'}", f"{f.key}: COU test") for value in (0, 1)]


def check(state: SkirmishState, action: object) -> None:
    key = state.steeling[0]
    if not isinstance(action, Declare) or action.fighter != key or action.ability != "Resolute":
        raise IllegalActionError(f"{key}'s COU test waits for his player's Resolute (declare {key} yes|no)",
                                 kind=getattr(action, "kind", None))
    if action.value not in (0, 1):
        raise IllegalActionError(f"{key}'s Resolute: 1 (used) or 0, not {action.value}", field="value")


def answer(state: SkirmishState, action: Declare, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """His test, drawn as declared (Resolute used: spent until the round's end); then the charger's side acts, or
    the other rallying tests are drawn."""
    why = state.steeling
    f = tester(state)
    if action.value:
        f = replace(f, steeled=True, resolute=True)
    state = replace(state, steeling=()).with_fighters(f)
    report: list[ReportLine] = []
    if why[1] == RALLY:
        state = state.with_fighters(replace(rally_one(state, f, fate, report), steeled=False))
        state = rally(replace(state, to_act=state.leader), fate, report, after=f.key)
        return state, report
    charger = state.fighter(why[2])
    faced = face(f, charge_tests(state, charger, f)[1], fate, report)
    return replace(state.with_fighters(replace(faced, steeled=False)), to_act=charger.side), report
