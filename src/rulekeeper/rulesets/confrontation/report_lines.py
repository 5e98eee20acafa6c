"""The shape of one line of a Confrontation report, as the rules modules build it.

Every rule that resolves an action answers with a list of these: a ``text`` the players read, the ``kind`` of
event (``move``, ``charge``, ``fight``, ``shot``...) that the renderers style it by, and for a fight's card the
``lines`` of the exchange (initiative, placement, blows). Typing it here lets mypy check each rule builds the
same shape the log has always stored; the log itself still holds plain JSON (``Outcome`` turns each line into
a dict).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class ReportLine(TypedDict):
    """One line (or a fight's card) of an action's report."""

    text: str
    kind: str
    lines: NotRequired[list[str]]
