"""What the attack produced, as the battle log keeps it: report items, events, who holds the field.

The log stores the combat report as a list of items, each with a ``text`` line the generic
presenters show; :func:`combat_from_items` rebuilds the report's JSON form from them, so a
stored battle's report can be drawn again without resolving it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.core.events import Event
from rulekeeper.core.game import JsonDict

from .codec import SIDES, _opt, enc
from .model import SideName
from .rounding import exact, show
from .state import NAME

if TYPE_CHECKING:
    from .report import CombatReport


def _row_text(step: int, r: Mapping[str, Any]) -> str:
    if step == 1:
        return f"{r['unit']} ({r['side']}): Health {show(exact(r['health']))}"
    if step == 2:
        return (
            f"{r['unit']}: Health {r['health']['arithmetic']}; Attack {r['attack']['arithmetic']}; "
            f"Defense {r['defense']['arithmetic']}"
        )
    if step == 3:
        return f"{r['unit']}: {r['arithmetic']} hits"
    if step == 4:
        return f"{r['side']}: {r['arithmetic']}"
    if step == 5:
        return f"{r['unit']}: {r['arithmetic']}"
    return f"{r['unit']}: Health {r['arithmetic']}" + (" (destroyed)" if r["destroyed"] else "")


def stability_text(st: Mapping[str, Any]) -> str:
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


def report_items(report: CombatReport) -> tuple[JsonDict, ...]:
    """The report of the attack as the log keeps it: a header, the six steps, Stability, notes, result.

    Every item has a ``text`` line (the generic presenters show those); together they hold
    the whole :meth:`~.report.CombatReport.to_dict` (see :func:`combat_from_items`).
    """
    d = report.to_dict()
    traits = ", ".join(d["region_traits"]) or "none"
    items: list[JsonDict] = [
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
        rows = " | ".join(_row_text(s["step"], r) for r in s["rows"]) or "-"
        items.append({"kind": "step", **s, "text": f"Step {s['step']}. {s['title']}: {rows}"})
    if d["stability"] is not None:
        items.append({"kind": "stability", "stability": d["stability"], "text": stability_text(d["stability"])})
    items += [{"kind": "note", "text": f"note: {n}"} for n in d["notes"]]
    winner, reason = holder(report)
    items.append({"kind": "result", "result": d["result"], "winner": winner, "text": f"Result: {reason}"})
    return tuple(items)


def combat_from_items(items: Sequence[Mapping[str, Any]]) -> JsonDict:
    """The combat report's JSON form (as :meth:`CombatReport.to_dict`) from the logged items."""
    d: JsonDict = {"ruleset": NAME, "kind": "combat", "steps": [], "stability": None, "notes": [], "result": {}}
    for it in items:
        kind = it.get("kind")
        if kind == "combat":
            d.update({k: it[k] for k in ("title", "action", "region_traits", "options", "excluded")})
        elif kind == "step":
            d["steps"].append({k: it[k] for k in ("step", "title", "rows")})
        elif kind == "stability":
            d["stability"] = it["stability"]
        elif kind == "note":
            d["notes"].append(str(it["text"]).removeprefix("note: "))
        elif kind == "result":
            d["result"] = it["result"]
    return d


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
