"""The Tactical roll (issue 24, point 10): who acts first in a round, and who orders its fights.

The seed names the roll without printing it: Pariah "all Tactical Rolls are made with two dice and the lowest is
kept. This effect replaces the normal roll the General could otherwise make"; Authority "If the Tactical Roll was a
Draw, a player can use a token to win the Tactical Roll"; Infiltration "the loser of the Tactical Roll must use it
first". So each round begins with one roll a side, made by its General. **Estimated** (``data/core_rules.yaml``):
d6 + the General's DIS, the General being the side's standing fighter of highest DIS, a draw rolled again.

The winner then chooses which side acts first (a legal action of his: ``lead``; the keeper proposes himself) and he
orders the round's fights (the combat phase's ``fight`` actions are his). Each die is one draw, announced exactly by
the preview of the ``tactical`` action (``Tactical roll: <side name>``).
"""

from __future__ import annotations

from fractions import Fraction

from rulekeeper.core.chance import ChanceRequest, Fate, discrete

from .authority import generate, holder
from .core_rules import number, word
from .report_lines import ReportLine
from .state import SIDES, Fighter, SkirmishState, other, replace

#: A draw is rolled again at most this often in one action (a bound, not a rule: 50 draws in a row is ~10^-35).
MAX_DRAWS = 50


def general(state: SkirmishState, side: str) -> Fighter:
    """The side's General: its standing fighter of highest DIS (**estimated**; the first listed on a tie)."""
    mine = state.standing(side)
    return max(mine, key=lambda f: (f.card.DIS, -state.fighters.index(f)))


def pariah(state: SkirmishState, side: str) -> bool:
    """Pariah: "If the Army General (or his replacement) has this ability but not all fighters in the army do"."""
    return general(state, side).card.has("Pariah") and not all(f.card.has("Pariah") for f in state.standing(side))


def die_odds(state: SkirmishState, side: str) -> dict[int, Fraction]:
    """The natural result's odds: one d6 (``dice`` in the data), or Pariah's "two dice and the lowest is kept"."""
    dice = 2 if pariah(state, side) else number("tactical_roll", "dice")
    return {face: Fraction((7 - face) ** dice - (6 - face) ** dice, 6 ** dice) for face in range(1, 7)}


def bonus(state: SkirmishState, side: str) -> int:
    """What the General adds to his die: his ``adds`` characteristic (DIS, **estimated**)."""
    value = getattr(general(state, side).card, word("tactical_roll", "adds"))
    return int(value or 0)


def request(state: SkirmishState, side: str) -> ChanceRequest:
    g = general(state, side)
    how = "2d6, the lowest kept (Pariah)" if pariah(state, side) else "1d6"
    return discrete(f"Tactical roll: {state.name(side)}", [(f"natural {n}", float(p))
                                                           for n, p in die_odds(state, side).items()],
                    (f"{how} + {g.key}'s DIS {bonus(state, side)}",))


def roll_odds(state: SkirmishState) -> tuple[Fraction, Fraction, Fraction]:
    """One roll's exact chances: A higher, B higher, a draw."""
    mine, theirs = die_odds(state, "A"), die_odds(state, "B")
    a, b = bonus(state, "A"), bonus(state, "B")
    pairs = [(n + a - (m + b), p * q) for n, p in mine.items() for m, q in theirs.items()]
    return (sum((p for d, p in pairs if d > 0), Fraction(0)), sum((p for d, p in pairs if d < 0), Fraction(0)),
            sum((p for d, p in pairs if d == 0), Fraction(0)))


def win_odds(state: SkirmishState, side: str = "A") -> Fraction:
    """The exact chance that ``side`` wins (a draw rolled again: the odds normalised)."""
    mine, theirs = die_odds(state, side), die_odds(state, other(side))
    a, b = bonus(state, side), bonus(state, other(side))
    win = sum((p * q for n, p in mine.items() for m, q in theirs.items() if n + a > m + b), Fraction(0))
    draw = sum((p * q for n, p in mine.items() for m, q in theirs.items() if n + a == m + b), Fraction(0))
    return win / (1 - draw)


def do_tactical(state: SkirmishState, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """Both sides roll (A's die first) until one is higher; the winner then chooses who acts first."""
    report: list[ReportLine] = []
    if not state.drawn:  # the round's tokens, before its first roll
        state = generate(state)
    for _ in range(MAX_DRAWS):
        finals = {}
        for side in SIDES:
            natural = int(fate.draw(request(state, side)).outcome.removeprefix("natural "))
            finals[side] = natural + bonus(state, side)
        text = ", ".join(f"{state.name(s)} {finals[s]}" for s in SIDES)
        if finals["A"] != finals["B"]:
            break
        holding = holder(state)
        if holding is not None:  # Authority: "If the Tactical Roll was a Draw, a player can use a token to win"
            report.append({"text": f"Tactical roll: {text}, a draw: {state.name(holding)} may spend an Authority "
                                   "token to win it, or roll again", "kind": "phase"})
            return replace(state, phase="tactical", to_act=holding, drawn=True), report
        report.append({"text": f"Tactical roll: {text}, a draw: rolled again", "kind": "phase"})
    winner = "A" if finals["A"] > finals["B"] else "B"
    report.append({"text": f"Tactical roll: {text}; {state.name(winner)} win it and choose who acts first",
                   "kind": "phase"})
    return replace(state, phase="lead", leader=winner, to_act=winner, drawn=False), report


def lead_choices(state: SkirmishState) -> list[str]:
    """The winner's choices, the keeper's proposal first: himself, then the other side."""
    return [state.leader, other(state.leader)]
