"""Rich renderings of a War Table combat report: one table per rules step, then Stability.

Works from the report's JSON form (:meth:`~.report.CombatReport.to_dict`), so the same
tables serve ``rulekeeper resolve wartable`` (a fresh report) and the ``battle`` commands
(a report read back from a stored battle's log).
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .readings import readings_text
from .report import STEP_TITLES
from .report_json import (
    AllocationRow,
    BlockRow,
    CombatantRow,
    CombatReportJson,
    HealthRow,
    HitsRow,
    StabilityJson,
    TotalsRow,
)
from .rounding import Number, exact, show


def _e(text: object) -> str:
    return escape(str(text))


def n(value: Number | None) -> str:
    """A number from a report's JSON as the report writes numbers (``86``, ``16.5``)."""
    return show(exact(value if value is not None else 0))


def _table(step: int, *columns: str) -> Table:
    table = Table(title=f"Step {step}. {STEP_TITLES[step]}", title_justify="left", show_lines=False)
    for col in columns:
        table.add_column(col)
    return table


def _combatants(report: CombatReportJson) -> list[CombatantRow]:
    return next((s["rows"] for s in report["steps"] if s["step"] == 1), [])


def _totals(report: CombatReportJson) -> list[TotalsRow]:
    return next((s["rows"] for s in report["steps"] if s["step"] == 2), [])


def _hits(report: CombatReportJson) -> list[HitsRow]:
    return next((s["rows"] for s in report["steps"] if s["step"] == 3), [])


def _allocations(report: CombatReportJson) -> list[AllocationRow]:
    return next((s["rows"] for s in report["steps"] if s["step"] == 4), [])


def _blocks(report: CombatReportJson) -> list[BlockRow]:
    return next((s["rows"] for s in report["steps"] if s["step"] == 5), [])


def _health(report: CombatReportJson) -> list[HealthRow]:
    return next((s["rows"] for s in report["steps"] if s["step"] == 6), [])


def _header(report: CombatReportJson) -> list[RenderableType]:
    """The title (if any) and one line with the action, the region's traits and the rule options."""
    out: list[RenderableType] = []
    if report.get("title"):
        out.append(Text.from_markup(f"[bold]{_e(report['title'])}[/]"))
    traits = ", ".join(report.get("region_traits", [])) or "none"
    out.append(Text.from_markup(f"Action: {_e(report.get('action', ''))}   Region traits: {_e(traits)}"))
    out.append(Text(readings_text(dict(report.get("options", {})), enclave=report.get("stability") is not None)))
    return out


def _combatants_table(report: CombatReportJson) -> Table:
    """Step 1: the units that fight, with their traits, Marks, Curses and Health."""
    t1 = _table(1, "Unit", "Side", "Traits", "Marks / Curses", "Health")
    for c in _combatants(report):
        mc = ", ".join([*c["marks"], *(f"curse {x}" for x in c["curses"])]) or "-"
        t1.add_row(_e(c["unit"]), c["side"], _e(", ".join(c["traits"]) or "-"), _e(mc), n(c["health"]))
    return t1


def _totals_table(report: CombatReportJson) -> Table:
    """Step 2: each unit's stat totals, shown as the arithmetic that made them."""
    t2 = _table(2, "Unit", "Health", "Attack", "Defense")
    for t in _totals(report):
        t2.add_row(
            _e(t["unit"]), _e(t["health"]["arithmetic"]), _e(t["attack"]["arithmetic"]), _e(t["defense"]["arithmetic"])
        )
    return t2


def _hits_table(report: CombatReportJson) -> Table:
    """Step 3: the hits each unit deals."""
    t3 = _table(3, "Unit", "Health × Attack/100", "Hits")
    for h in _hits(report):
        t3.add_row(_e(h["unit"]), _e(h["arithmetic"]), n(h["hits"]))
    return t3


def _allocation_table(report: CombatReportJson) -> Table:
    """Step 4: each side's pooled hits and their share per enemy unit."""
    t4 = _table(4, "Side", "Hits dealt", "Targets", "Allocation", "Per unit")
    for a in _allocations(report):
        dealt = ", ".join(f"{d['unit']} {n(d['hits'])}" for d in a["dealt_by"])
        t4.add_row(a["side"], _e(dealt), _e(", ".join(a["targets"]) or "-"), _e(a["arithmetic"]), n(a["per_unit"]))
    return t4


def _blocks_table(report: CombatReportJson) -> Table:
    """Step 5: blocked and unblocked hits, captioned with the ``step5`` reading used."""
    t5 = _table(5, "Unit", "Allocated", "Defense", "Blocked", "Unblocked", "Arithmetic")
    for b in _blocks(report):
        t5.add_row(
            _e(b["unit"]),
            n(b["allocated"]),
            n(b["defense"]),
            n(b["blocked"]),
            n(b["unblocked"]),
            _e(b["arithmetic"]),
        )
    t5.caption = (
        "step5=example: blocked hits kept exact, unblocked hits rounded up (the seed's worked example)"
        if dict(report.get("options", {})).get("step5", "example") == "example"
        else "step5=literal: blocked hits rounded up (the seed's step list)"
    )
    return t5


def _health_table(report: CombatReportJson) -> Table:
    """Step 6: Health before and after, the destroyed marked as such."""
    t6 = _table(6, "Unit", "Health before", "Unblocked", "Health after")
    for line in _health(report):
        after = n(line["after"]) + (" (destroyed)" if line["destroyed"] else "")
        t6.add_row(_e(line["unit"]), n(line["before"]), n(line["unblocked"]), _e(after))
    return t6


#: One table per rules step, in the rulebook's order.
_STEP_TABLES = (_combatants_table, _totals_table, _hits_table, _allocation_table, _blocks_table, _health_table)


def report_renderables(report: CombatReportJson) -> list[RenderableType]:
    """The report (its JSON form) as Rich renderables: a header, the six steps, Stability, notes."""
    out = _header(report)
    out += [table(report) for table in _STEP_TABLES]
    out += stability_renderables(report.get("stability"))
    for note in report.get("notes", []):
        out.append(Text.from_markup(f"[yellow]note[/]: {_e(note)}"))
    return out


def stability_renderables(st: StabilityJson | None) -> list[RenderableType]:
    """The Enclave Stability section of a report (its JSON form)."""
    if st is None:
        return [Text("Enclave Stability: no Enclave in this region, no Stability effects.")]
    out: list[RenderableType] = []
    ts = Table(title=f"Enclave Stability: {_e(st['enclave'])} (held by the {st['side']})", title_justify="left")
    for col in ("Effect", "Unit", "Change", "Arithmetic"):
        ts.add_column(col)
    for eff in st["effects"]:
        change = f"set to {n(eff['sets_to'])}" if eff["sets_to"] is not None else n(eff["delta"])
        ts.add_row(eff["rule"], _e(eff["unit"] or "-"), change, _e(eff["arithmetic"]))
    if not st["effects"]:
        ts.add_row("none", "-", "0", "no Stability rule triggered")
    out.append(ts)
    before = "unknown" if st["before"] is None else n(st["before"])
    after = "unknown" if st["after"] is None else n(st["after"])
    fallen = ' - the Enclave is "Fallen"' if st["fallen"] else ""
    out.append(Text.from_markup(f"Stability {before} -> {after} (change {n(st['total_delta'])}){fallen}"))
    for note in st["notes"]:
        out.append(Text.from_markup(f"  [dim]{_e(note)}[/]"))
    return out
