"""Counts in words, for every reader: "1 action", "3 actions", never "3 action(s)".

Why its own module: the CLI, the web pages and the downloads all count actions, and a count printed with
"(s)" reads as a form, not as a sentence.

>>> counted(1, "action")
'1 action'
>>> counted(0, "action")
'0 actions'
>>> counted(2, "match", "matches")
'2 matches'
>>> f"7/10 = {0.7:g} {noun_for(0.7, 'hit')}, rounded: 1 {noun_for(1, 'hit')}"
'7/10 = 0.7 hits, rounded: 1 hit'
"""

from __future__ import annotations

from fractions import Fraction


def noun_for(number: float | Fraction, noun: str, plural: str | None = None) -> str:
    """The noun as it follows ``number`` in a text that writes the number itself (a sum, a fraction): singular
    for exactly one, else ``plural`` (default: the noun with an "s")."""
    return noun if number == 1 else (plural if plural is not None else noun + "s")


def possessive(name: str) -> str:
    """A name as its owner's: "Raiders'" and "The Exiles'", "Riverguard's" (the logs read "Raiders's next turn"
    and "The Exiles's player turn").

    >>> possessive("The Exiles"), possessive("Riverguard"), possessive("Bloodless")
    ("The Exiles'", "Riverguard's", "Bloodless'")
    """
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def percent(p: float) -> str:
    """A probability as the pages and the terminal print it: one decimal, and "<0.1 %" for a chance that rounds to
    nothing but is not none.

    >>> percent(0.7), percent(0.0004), percent(0.0)
    ('70.0 %', '<0.1 %', '0.0 %')
    """
    if 0 < p < 0.001:
        return "<0.1 %"
    return f"{p * 100:.1f} %"


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and the noun, singular for exactly one, else ``plural`` (default: the noun with an "s")."""
    return f"{number} {noun_for(number, noun, plural)}"
