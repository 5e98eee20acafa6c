"""Fear on the table: the COU tests a charge asks for, rout and the rallying test (:mod:`.morale` on the skirmish).

A charge on a frightening enemy needs the charger's COU test first; a frightening charger then asks the same of
the fighter he charged. Each is one draw of :func:`~.rolls.request_for_test` through the state's
:class:`~rulekeeper.core.chance.Fate`, built by the same function the preview announces it with, so the odds shown
are the odds drawn. Rules and estimates: docs/rules/confrontation.md, "Morale".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.boards.table import edge_distance
from rulekeeper.core.chance import ChanceRequest, Fate

from .declarations import OPTION, STORED_BEFORE
from .effects import TestShape
from .morale import Lender, courage, courage_shape, discipline_shape, fear_rate, frightens, morale_of
from .report_lines import ReportLine
from .rolls import p_success, request_for_test, roll_test
from .state import Fighter, SkirmishState, replace


@dataclass(frozen=True, slots=True)
class FearTest:
    """One COU test against a FEAR rate (or a rallying test against the rate that routed him)."""

    tester: str
    fear: int
    characteristic: int
    shape: TestShape
    word: str = "COU test"

    @property
    def label(self) -> str:
        return f"{self.word}: {self.tester}"

    def request(self) -> ChanceRequest:
        return request_for_test(self.label, self.shape, self.characteristic, self.fear)

    def chance(self) -> Fraction:
        return p_success(self.shape, self.characteristic, self.fear)

    def roll(self, fate: Fate) -> bool:
        return bool(roll_test(fate, self.label, self.shape, self.characteristic, self.fear).success)


def lenders(state: SkirmishState, f: Fighter) -> list[Lender]:
    """His standing friends and how far they are (Leadership's and Emblem's "within X cm")."""
    return [Lender(g.card, edge_distance(f.base, g.base)) for g in state.standing(f.side) if g.key != f.key]


def _test(state: SkirmishState, tester: Fighter, source: Fighter, source_charges: bool,
          tester_charges: bool) -> FearTest | None:
    war_cry = morale_of(tester.card).war_cry if tester_charges else None
    fear = fear_rate(source.card, source_charges)
    # War cry: "if the charged fighter has a FEAR rate lower or equal to X, then the charger is immunized to FEAR
    # rates up to X as if he successfully passed the related COU test"
    if tester.rout or not frightens(fear, tester.card, max(tester.braved, war_cry or 0)):
        return None
    assert fear is not None
    dreadful = morale_of(source.card).dreadful
    return FearTest(tester.key, fear, courage(tester.card, lenders(state, tester), war_cry) + resolute_bonus(tester),
                    courage_shape(tester.card, dreadful, tester.heartened))


def resolute_bonus(f: Fighter) -> int:
    """Resolute/X on the COU test he is about to take, when his player spends it ("For that test, the Characteristic
    is increased by X")."""
    return int(f.card.value_of("Resolute") or 0) if f.steeled else 0


def may_steel(state: SkirmishState, f: Fighter, t: Fighter) -> bool:
    """Whether his player may spend Resolute on his charge's COU test (Resolute/X: "once per round right before any
    INI, ATT, DEF or COU test"): the players declare (``declarations=players``), he has it unspent this round, not in
    rout, ``t`` frightens him, and it makes his test likelier (:func:`helps`)."""
    return not f.rout and may_spend(state, f, lambda g: _test(state, g, t, False, True))


def may_spend(state: SkirmishState, f: Fighter, test_of: Callable[[Fighter], FearTest | None]) -> bool:
    """Whether ``f``'s player is asked for Resolute before the test ``test_of`` gives him: the players declare
    (``declarations=players``), he has it unspent this round, and it makes the test likelier (:func:`helps`)."""
    return (state.option(OPTION, STORED_BEFORE) == "players" and f.card.has("Resolute") and not f.resolute
            and helps(test_of(f), test_of(replace(f, steeled=True))))


def helps(plain: FearTest | None, steeled: FearTest | None) -> bool:
    """Whether Resolute's +X makes a test likelier: where it does not (a natural 1 fails whatever COU is), spending
    it is a choice no player makes (it only costs him a later test this round), so it is not offered."""
    return plain is not None and steeled is not None and steeled.chance() > plain.chance()


def awaits_resolute(state: SkirmishState, f: Fighter, t: Fighter) -> bool:
    """Whether ``f``'s charge waits, once in contact, for ``t``'s player to say whether he spends Resolute on his
    COU test (:mod:`.steeling`): the players declare, ``t`` has it unspent this round, ``f`` frightens him, and
    Resolute would make his test likelier (:func:`helps`)."""
    return may_spend(state, t, lambda g: _test(state, g, f, True, False))


def steeled_charge(state: SkirmishState, f: Fighter, resolute: bool | None) -> tuple[SkirmishState, Fighter]:
    """The state and charger as his charge is resolved, previewed and weighed: ``resolute``, his Resolute spent on
    its COU test (+X to COU for that test, marked until it is drawn; the round's one use)."""
    if not resolute:
        return state, f
    f = replace(f, steeled=True, resolute=True)
    return state.with_fighters(f), f


def charge_tests(state: SkirmishState, f: Fighter, t: Fighter) -> tuple[FearTest | None, FearTest | None]:
    """The charger's COU test (``t`` frightens him) and the charged fighter's (the charger frightens him, War cry
    included), in the order they are drawn; the second is drawn only when the charge goes ahead."""
    return _test(state, f, t, False, True), _test(state, t, f, True, False)


def crossing_tests(state: SkirmishState, f: Fighter, passed: list[Fighter], charging: bool) -> list[FearTest]:
    """Ethereal: "If a fear-inducing Ethereal fighter moves through an enemy fighter, then the latter must make a COU
    roll if he is not immune to the Ethereal fighter's FEAR" (failed: in rout, as when charged)."""
    return [test for e in passed if (test := _test(state, e, f, charging, False)) is not None]


#: Third-edition rules (3.5): "each routed fighter tests COU 8 or DIS 8".
RALLY_DIFFICULTY = 8


def rally_test(state: SkirmishState, f: Fighter) -> FearTest | None:
    """The rallying test of a fighter in rout in the strategic phase (third-edition rules, 3.5): "each routed
    fighter tests COU 8 or DIS 8, failing automatically in contact with a fear-causing enemy" (``None``: he fails
    without a roll). Of COU and DIS he tests with the one whose chance is higher (COU on a tie): the same test with
    a better characteristic, a choice no player makes the other way (a decision)."""
    if any(frightens(fear_rate(e.card), f.card, f.braved) for e in state.standing() if e.key in f.engaged):
        return None
    cou = FearTest(f.key, RALLY_DIFFICULTY, courage(f.card, lenders(state, f)) + resolute_bonus(f),
                   courage_shape(f.card, False, f.heartened), "rally test")
    dis = FearTest(f.key, RALLY_DIFFICULTY, f.card.DIS, discipline_shape(f.card), "rally test")
    return dis if dis.chance() > cou.chance() else cou


def braved(f: Fighter, test: FearTest) -> Fighter:
    return replace(f, braved=max(f.braved, test.fear))


def face_all(state: SkirmishState, tests: list[FearTest], fate: Fate, report: list[ReportLine]) -> SkirmishState:
    """Each test in order, by the fighter it names (:func:`face`)."""
    for test in tests:
        state = state.with_fighters(face(state.fighter(test.tester), test, fate, report))
    return state


def face(t: Fighter, test: FearTest | None, fate: Fate, report: list[ReportLine]) -> Fighter:
    """A frightened fighter's COU test (charged, or passed through): passed, he braves that FEAR; failed, he is in
    rout."""
    if test is None:
        return t
    steeled = " (Resolute)" if t.steeled else ""
    if test.roll(fate):
        report.append({"text": f"{t.key} passes his COU test{steeled} against FEAR {test.fear}", "kind": "morale"})
        return braved(t, test)
    report.append({"text": f"{t.key} fails his COU test{steeled} against FEAR {test.fear}: he is in rout",
                   "kind": "morale"})
    return replace(t, rout=test.fear)


def rally(state: SkirmishState, fate: Fate, report: list[ReportLine]) -> SkirmishState:
    """The strategic phase's rallying tests: every standing fighter in rout tests (:func:`rally_one`).
    :func:`.steeling.rally` is this with his player's Resolute asked first where it helps."""
    for f in state.standing():
        if f.rout:
            state = state.with_fighters(rally_one(state, f, fate, report))
    return state


def rally_one(state: SkirmishState, f: Fighter, fate: Fate, report: list[ReportLine]) -> Fighter:
    """One fighter's rallying test: passed, he is rallied (and is not immune to the fear that routed him: "a
    rallied fighter is not immune to the fear that routed him")."""
    test = rally_test(state, f)
    steeled = " (Resolute)" if f.steeled else ""  # asked only where it helps: he tests COU (steeling.py)
    if test is None:
        report.append({"text": f"Strategic phase: {f.key} stays in rout (in contact with a fear-causing "
                               "enemy)", "kind": "morale"})
        return f
    if test.roll(fate):
        report.append({"text": f"Strategic phase: {f.key} rallies{steeled}", "kind": "morale"})
        return replace(f, rout=0)
    report.append({"text": f"Strategic phase: {f.key} stays in rout{steeled}", "kind": "morale"})
    return f
