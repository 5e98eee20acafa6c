"""A resolved round as the log's report items: orders revealed, what happened, every Stability change
with the seed's line that caused it, every battle's six steps, every Delve roll with its odds.

Each item is plain JSON with a ``kind`` and a ``text`` line (what the generic log shows); the
presenters draw the richer ones (``battle``, ``stability``, ``delve``) from their fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypedDict

from ..report import CombatReport
from ..report_json import Num, StepJson
from ..rounding import show
from .rounds import RoundResult
from .stability import ChangeJson
from .tables import RollJson


class RoundItem(TypedDict):
    kind: Literal["round"]
    round: int
    text: str


class LineItem(TypedDict):
    """A line of the round: an order given, an event, an effect the rules could not apply."""

    kind: Literal["orders", "event", "unapplied"]
    text: str


class StabilityItem(ChangeJson):
    """A Stability change with the seed's line that caused it."""

    kind: Literal["stability"]
    text: str


class DelveItem(RollJson):
    """A Delve roll with its odds."""

    kind: Literal["delve"]
    text: str


class BattleItem(TypedDict):
    """One region's battle: each side's combatants, the step-4 split, the six steps and the result."""

    kind: Literal["battle"]
    title: str | None
    combatants: dict[str, list[str]]
    split: list[str]
    steps: list[StepJson]
    result: dict[str, Num]
    text: str


#: One item of a resolved round's report as the log keeps it (:func:`round_report`).
RoundReportItem = RoundItem | LineItem | StabilityItem | DelveItem | BattleItem


def round_report(round_: int, orders: Sequence[str], result: RoundResult) -> list[RoundReportItem]:
    items: list[RoundReportItem] = [{"kind": "round", "round": round_, "text": f"Round {round_} resolves"}]
    items += [{"kind": "orders", "text": f"Orders — {t}"} for t in orders]
    items += [{"kind": "event", "text": line} for line in result.log]
    items += [battle_item(b) for b in result.battles]
    for c in result.changes:
        fallen = " (Fallen)" if c.fallen_after and not c.fallen_before else ""
        items.append({"kind": "stability", **c.to_dict(),
                      "text": f"{c.enclave} Stability {show(c.before)} → {show(c.after)}{fallen} — {c.rule}: "
                              f"{c.arithmetic} — “{c.quote}”"})
    items += [{"kind": "unapplied", "text": line} for line in result.unapplied]
    for r in result.rolls:
        odds = ", ".join(f"{res} {p}" for res, p in r.all_odds)
        items.append({"kind": "delve", **r.to_dict(),
                      "text": f"{r.chance.request.label}: {r.entry.span} {r.entry.result} (odds {r.odds}; table "
                              f"{r.table}: {odds})"})
    return items


def battle_item(b: CombatReport) -> BattleItem:
    """One region's battle: its combatants on each side, the step-4 split of each side's hits, Health."""
    d = b.to_dict()
    sides = {side: [c.label for c in b.combatants if c.side == side] for side in ("attackers", "defenders")}
    split = [f"{a.side} {a.arithmetic()}" for a in b.allocations]
    health = ", ".join(f"{h.label} {show(h.before)} → {show(h.after)}" for h in b.health)
    text = (f"{d['title']} — step 4: {'; '.join(split) or 'no hits'} — {health}")
    return {"kind": "battle", "title": d["title"], "combatants": sides, "split": split, "steps": d["steps"],
            "result": d["result"], "text": text}
