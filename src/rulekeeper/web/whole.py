"""The whole-action odds at the head of the preview panel, for every game that offers them.

Rule-system neutral: it asks :func:`rulekeeper.core.whole.whole_odds_of` (the game's optional
``whole_odds`` hook) and draws the :class:`~rulekeeper.core.whole.WholeOdds` it gets as bars of
plain HTML and CSS (no script), readable on a phone; the per-draw Fate Screen follows below it.
"""

from __future__ import annotations

from jinja2 import Environment
from markupsafe import Markup

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.whole import WholeOdds, percent, whole_odds_of


def rows(odds: WholeOdds) -> list[dict[str, str | None | list[dict[str, object]]]]:
    """Each measure with its bars (width in % of the likeliest outcome, so small chances stay visible); a
    measure with a single possible outcome is one line (``certain``) instead of a bar at 100 %: the chart has
    to leave the Commit button on a phone's first screen."""
    out: list[dict[str, str | None | list[dict[str, object]]]] = []
    for m in odds.measures:
        top = max(p for _, p in m.outcomes) or 1.0
        bars: list[dict[str, object]] = [{"outcome": o, "p": percent(p), "width": round(100.0 * p / top, 1)}
                                         for o, p in m.outcomes if p > 0]
        certain = str(bars[0]["outcome"]) if len(bars) == 1 else None
        out.append({"label": m.label, "mean": None if m.mean is None else f"{m.mean:.2f}", "bars": bars,
                    "certain": certain})
    return out


def whole_chart(env: Environment, game: object, state: object, action: dict[str, object]) -> Markup:
    """The chart of ``action``'s whole result, or nothing when the game computes none for it."""
    try:
        odds = whole_odds_of(game, state, action)
    except RulekeeperError:
        return Markup("")
    if odds is None:
        return Markup("")
    events = [{"name": n, "p": percent(p), "width": round(100.0 * p, 1)} for n, p in odds.events if p > 0]
    impossible = [n for n, p in odds.events if p <= 0]  # one line, not a row of empty bars each
    return Markup(env.get_template("whole_odds.html").render(measures=rows(odds), events=events,
                                                             impossible=impossible, caption=odds.caption()))
