"""The strategic phase at the start of a round: Rallying cry announced by its player, then the rallying tests.

Rallying cry (active): "This ability can be used as a simple action once per game by a fighter who has it. Its usage
must be announced at the beginning of any strategic phase. All friendly fighters: are immediately rallied if they
were in rout; get a +1 bonus to the natural result of their COU tests until the end of the round."

Why a question: "must be announced" makes it the player's, and when is a real choice (once a game: now, to rally
friends in rout or steady them against a frightening charge this round, or later). Under ``declarations=players``
(default) each side with a fighter able to cry (standing, not in rout, not used yet) is asked at the start of every
round, the side that acted first last round first: ``declare CRIER yes|no``. The keeper's proposal, listed first,
is its old policy (**estimated**): yes as soon as a friend is in rout, else no; a battle stored before the option
(``declarations=keeper``) keeps that policy without asking. Then the rallying tests (:mod:`.steeling`).
"""

from __future__ import annotations

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction

from . import steeling
from .action_types import Declare, offer
from .declarations import OPTION, STORED_BEFORE
from .fear import FearTest
from .report_lines import ReportLine
from .state import Fighter, SkirmishState, other, replace

ABILITY = "Rallying cry"


def _order(state: SkirmishState) -> tuple[str, str]:
    return state.first, other(state.first)


def crier_of(state: SkirmishState, side: str) -> Fighter | None:
    """The side's first standing fighter who may still cry (not in rout, "once per game")."""
    return next((f for f in state.standing(side) if f.card.has(ABILITY) and not f.cried and not f.rout), None)


def proposal(state: SkirmishState, side: str) -> bool:
    """The keeper's policy (**estimated**): cry as soon as a friend is in rout."""
    return any(f.rout for f in state.standing(side))


def cry(state: SkirmishState, crier: Fighter, report: list[ReportLine]) -> SkirmishState:
    """Every friend rallied and heartened (+1 to the natural result of his COU tests) to the end of the round."""
    mine = state.standing(crier.side)
    state = state.with_fighters(*(replace(f, rout=0, heartened=True, cried=f.cried or f.key == crier.key)
                                  for f in mine))
    report.append({"text": f"{crier.key} uses his Rallying cry: {state.name(crier.side)} rally", "kind": "morale"})
    return state


def strategic(state: SkirmishState, fate: Fate, report: list[ReportLine], after: str = "") -> SkirmishState:
    """The round's strategic phase from side ``after``'s answer on (``""``: its beginning): each side's Rallying cry
    (asked, or the keeper's policy), then the rallying tests."""
    sides = _order(state)
    for side in sides[sides.index(after) + 1:] if after else sides:
        crier = crier_of(state, side)
        if crier is None:
            continue
        if state.option(OPTION, STORED_BEFORE) == "players":
            report.append({"text": f"Strategic phase: {crier.key}'s player says whether he announces his Rallying "
                                   "cry", "kind": "morale"})
            return replace(state, crying=crier.key, to_act=side)
        if proposal(state, side):
            state = cry(state, crier, report)
    return steeling.rally(state, fate, report)


def planned(state: SkirmishState, announced: bool) -> tuple[str, list[FearTest]]:
    """What the answer leads to (words) and the rallying tests it draws, in order (none when the other side is asked
    next)."""
    crier = state.fighter(state.crying)
    after = replace(cry(state, crier, []) if announced else state, crying="")
    sides = _order(state)
    rest = sides[sides.index(crier.side) + 1:]
    if any(crier_of(after, side) is not None for side in rest):  # under players, always: the other side is asked
        return "then the other side's Rallying cry", []
    tests = steeling.planned_rally(after)
    return ("then the rallying tests" if tests else "no rallying test follows"), tests


def offers(state: SkirmishState) -> list[LegalAction]:
    crier = state.fighter(state.crying)
    routed = [f.key for f in state.standing(crier.side) if f.rout]
    yes = f"{crier.key} announces his Rallying cry (once a game): " + \
        (f"{', '.join(routed)} rallied, " if routed else "") + "+1 to his friends' natural COU results this round"
    no = f"{crier.key} keeps his Rallying cry for a later round"
    first = 1 if proposal(state, crier.side) else 0
    return [offer(Declare(crier.side, crier.key, ABILITY, value), (yes if value else no)
                  + (" (the keeper's proposal)" if value == first else ""), crier.side, None, "",
                  f"{ABILITY}: {'yes' if value else 'no'}", f"{crier.key}: strategic phase") for value in (first, 1 - first)]


def check(state: SkirmishState, action: object) -> None:
    key = state.crying
    if not isinstance(action, Declare) or action.fighter != key or action.ability != ABILITY:
        raise IllegalActionError(f"the strategic phase waits for {key}'s Rallying cry (declare {key} yes|no)",
                                 kind=getattr(action, "kind", None))
    if action.value not in (0, 1):
        raise IllegalActionError(f"{key}'s Rallying cry: 1 (announced) or 0, not {action.value}", field="value")


def answer(state: SkirmishState, action: Declare, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """Cried or not; then the other side's question, or the rallying tests, the round's leader to act after."""
    crier = state.fighter(state.crying)
    state = replace(state, crying="", to_act=state.leader)
    report: list[ReportLine] = []
    if action.value:
        state = cry(state, crier, report)
    else:
        report.append({"text": f"{crier.key} keeps his Rallying cry", "kind": "morale"})
    return strategic(state, fate, report, after=crier.side), report
