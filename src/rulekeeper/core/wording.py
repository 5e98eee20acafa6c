"""Counts in words, for every reader: "1 action", "3 actions", never "3 action(s)".

Why its own module: the CLI, the web pages and the downloads all count actions, and a count printed with
"(s)" reads as a form, not as a sentence.

>>> counted(1, "action")
'1 action'
>>> counted(0, "action")
'0 actions'
>>> counted(2, "match", "matches")
'2 matches'
"""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and the noun, singular for exactly one, else ``plural`` (default: the noun with an "s")."""
    return f"{number} {noun if number == 1 else (plural if plural is not None else noun + 's')}"
