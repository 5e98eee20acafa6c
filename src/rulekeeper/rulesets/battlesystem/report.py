"""A line of a Battle System action's report: what the keeper says happened, and what kind of line it is.

Why a type: every rules module adds lines to the report the log stores next to the action and the
presenters print (``kind`` picks the style: ``roll``, ``casualties``, ``morale``, ``flees``, ``note``, ``over``...),
and a line has exactly these two fields.
"""

from __future__ import annotations

from typing import TypedDict


class Line(TypedDict):
    """One line of the report: its ``text`` and its ``kind``."""

    text: str
    kind: str


Lines = list[Line]
