"""Shared by the Confrontation tests: a fight played through its placements (``placing.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from rulekeeper.core.game import Game, Outcome


def fight_through(g: Game, state: object, action: Mapping[str, object]) -> Outcome:
    """``action`` applied, then, while a fight waits for its War fury and Sequence or its combat dice, each
    fighter's declaration and placement as the keeper
    proposes it (the first offer): the outcome of the last step, with what a one-action fight would have drawn and
    said (every step's chance results and report lines, in order)."""
    out = g.apply(state, action)
    chance, report, events = list(out.chance), list(out.report), list(out.events)
    while getattr(out.state, "placing", ()) or getattr(out.state, "before_ini", ()):  # declarations too
        out = g.apply(out.state, g.legal_actions(out.state)[0].action)
        chance, report, events = chance + list(out.chance), report + list(out.report), events + list(out.events)
    record = {"chance": [c.to_dict() for c in chance], "report": report}
    return Outcome(out.state, out.action, out.side, tuple(chance), tuple(events), tuple(report), record)
