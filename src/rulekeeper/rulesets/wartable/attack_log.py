"""What the attack produced, as the battle log keeps it: report items, events, who holds the field.

The log stores the combat report as a list of items, each with a ``text`` line the generic
presenters show; :func:`combat_from_items` rebuilds the report's JSON form from them, so a
stored battle's report can be drawn again without resolving it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Literal, TypedDict

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.events import Event
from rulekeeper.core.wording import noun_for

from .codec import SIDES, _opt, enc
from .model import SideName
from .report_json import (
    AllocationRow,
    BlockRow,
    CombatantRow,
    CombatReportJson,
    HealthRow,
    HitsRow,
    Num,
    StabilityJson,
    StepJson,
    TotalsRow,
)
from .rounding import exact, show
from .state import NAME

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from .report import CombatReport


class CombatItem(TypedDict):
    """The report's header item: what the battle was, under which options."""

    kind: Literal["combat"]
    title: str | None
    action: str
    region_traits: list[str]
    options: dict[str, str]
    excluded: list[str]
    text: str


class StepItem(TypedDict):
    """One of the six steps, its rows as :mod:`.report_json` has them."""

    kind: Literal["step"]
    step: int
    title: str
    rows: (list[CombatantRow] | list[TotalsRow] | list[HitsRow] | list[AllocationRow] | list[BlockRow]
           | list[HealthRow])
    text: str


class StabilityItem(TypedDict):
    kind: Literal["stability"]
    stability: StabilityJson
    text: str


class NoteItem(TypedDict):
    kind: Literal["note"]
    text: str


class ResultItem(TypedDict):
    kind: Literal["result"]
    result: dict[str, Num]
    winner: SideName | None
    text: str


#: One item of the attack's report as the log keeps it (:func:`report_items`).
ReportItem = CombatItem | StepItem | StabilityItem | NoteItem | ResultItem


def _step_text(s: StepJson) -> str:
    """One step's rows in one line, as the generic presenters show it."""
    if s["step"] == 1:
        rows = [f"{r['unit']} ({r['side']}): Health {show(exact(r['health']))}" for r in s["rows"]]
    elif s["step"] == 2:
        rows = [f"{r['unit']}: Health {r['health']['arithmetic']}; Attack {r['attack']['arithmetic']}; "
                f"Defense {r['defense']['arithmetic']}" for r in s["rows"]]
    elif s["step"] == 3:
        rows = [f"{r['unit']}: {r['arithmetic']} {noun_for(r['hits'], 'hit')}" for r in s["rows"]]
    elif s["step"] == 4:
        rows = [f"{r['side']}: {r['arithmetic']}" for r in s["rows"]]
    elif s["step"] == 5:
        rows = [f"{r['unit']}: {r['arithmetic']}" for r in s["rows"]]
    else:
        rows = [f"{r['unit']}: Health {r['arithmetic']}" + (" (destroyed)" if r["destroyed"] else "")
                for r in s["rows"]]
    return " | ".join(rows) or "-"


def stability_text(st: StabilityJson) -> str:
    before = "unknown" if st["before"] is None else show(exact(st["before"]))
    after = "unknown" if st["after"] is None else show(exact(st["after"]))
    fallen = ' - the Enclave is "Fallen"' if st["fallen"] else ""
    return f"Enclave {st['enclave']}: Stability {before} -> {after} (change {show(exact(st['total_delta']))}){fallen}"


def holder(report: CombatReport) -> tuple[SideName | None, str]:
    """Who holds the field after the attack, and why (the seed names no winner otherwise)."""
    standing = {s: [h for h in report.health if h.side == s and h.after > 0] for s in SIDES}
    fought = {s: [h for h in report.health if h.side == s] for s in SIDES}
    health = ", ".join(f"{h.label} {show(h.after)}" for h in report.health)
    if standing["attackers"] and not standing["defenders"]:
        why = "the defenders were destroyed" if fought["defenders"] else "no defender stood against them"
        return "attackers", f"{why}: the attackers hold the field ({health})"
    if standing["defenders"] and not standing["attackers"]:
        return "defenders", f"the attackers were destroyed: the defenders hold the field ({health})"
    if not standing["attackers"]:
        return None, f"both sides were destroyed ({health})"
    return None, f"both sides still stand after the attack; the seed names no winner ({health})"


def report_items(report: CombatReport) -> tuple[ReportItem, ...]:
    """The report of the attack as the log keeps it: a header, the six steps, Stability, notes, result.

    Every item has a ``text`` line (the generic presenters show those); together they hold
    the whole :meth:`~.report.CombatReport.to_dict` (see :func:`combat_from_items`).
    """
    d = report.to_dict()
    traits = ", ".join(d["region_traits"]) or "none"
    items: list[ReportItem] = [
        {
            "kind": "combat",
            "title": d["title"],
            "action": d["action"],
            "region_traits": d["region_traits"],
            "options": d["options"],
            "excluded": d["excluded"],
            "text": f"{d['title'] or 'War Table combat'}: {d['action']} (region traits: {traits})",
        }
    ]
    for s in d["steps"]:
        items.append({"kind": "step", **s, "text": f"Step {s['step']}. {s['title']}: {_step_text(s)}"})
    st = d["stability"]
    if st is not None:
        items.append({"kind": "stability", "stability": st, "text": stability_text(st)})
    items += [{"kind": "note", "text": f"note: {n}"} for n in d["notes"]]
    winner, reason = holder(report)
    items.append({"kind": "result", "result": d["result"], "winner": winner, "text": f"Result: {reason}"})
    return tuple(items)


def combat_from_items(items: Sequence[Mapping[str, object]]) -> CombatReportJson:
    """The combat report's JSON form (as :meth:`CombatReport.to_dict`) from the logged items, checked against
    its shape (:mod:`.report_json`): a damaged log is a :class:`RulekeeperError`, never a ``KeyError`` later."""
    from pydantic import ValidationError

    d: dict[str, object] = {"ruleset": NAME, "kind": "combat", "stability": None, "result": {}}
    steps: list[object] = []
    notes: list[str] = []
    for it in items:
        kind = it.get("kind")
        if kind == "combat":
            d.update({k: it.get(k) for k in ("title", "action", "region_traits", "options", "excluded")})
        elif kind == "step":
            steps.append({k: it.get(k) for k in ("step", "title", "rows")})
        elif kind == "stability":
            d["stability"] = it.get("stability")
        elif kind == "note":
            notes.append(str(it.get("text")).removeprefix("note: "))
        elif kind == "result":
            d["result"] = it.get("result")
    try:
        return _report_shape().validate_python({**d, "steps": steps, "notes": notes}, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise RulekeeperError(f"the logged War Table combat report is damaged: {where}: {first['msg']} "
                              f"(got {first.get('input')!r:.80})", field=where) from None


@cache
def _report_shape() -> TypeAdapter[CombatReportJson]:
    from pydantic import TypeAdapter

    return TypeAdapter(CombatReportJson)


def _events(report: CombatReport) -> tuple[Event, ...]:
    out = [Event("combat_resolved", {"health": {h.label: enc(h.after) for h in report.health}})]
    out += [Event("unit_destroyed", {"unit": h.label, "side": h.side}) for h in report.health if h.destroyed]
    st = report.stability
    if st is not None:
        out.append(
            Event(
                "stability_changed",
                {
                    "enclave": st.enclave,
                    "before": _opt(st.before),
                    "after": _opt(st.after),
                    "delta": enc(st.total_delta),
                },
            )
        )
        if st.fallen:
            out.append(Event("enclave_fallen", {"enclave": st.enclave}))
    return tuple(out)
