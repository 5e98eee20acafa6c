"""The War Table's drawing of its battles in the terminal (``rulekeeper battle show/act``).

The board is the engagement: both sides' units with their Health, Attack and Defense
(and their Health after, once resolved), the region and the Enclave. The outcome of the
attack is the six steps as ``rulekeeper resolve wartable`` prints them (:mod:`.render`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .actions import ATTACK, DEFEND
from .codec import SIDES
from .game import combat_from_items
from .model import fold
from .readings import readings_text
from .render import report_renderables
from .rounding import show
from .scenario import describe

if TYPE_CHECKING:
    from .game import WarTableBattles, WarTableState


class WarTableCliPresenter:
    """Rich renderables of one War Table engagement."""

    def __init__(self, game: WarTableBattles) -> None:
        self.game = game

    def board(self, state: WarTableState) -> Group:
        b = state.battle
        labels = state.labels()
        after = {} if state.report is None else {h.label: h.after for h in state.report.health}
        table = Table(title=escape(b.title or "War Table battle"), title_justify="left", title_style="bold")
        for col in ("Side", "Unit", "Health", "Attack", "Defense", "Traits", "Marks / Curses"):
            table.add_column(col)
        if state.report is not None:
            table.add_column("Health after")
        for s in SIDES:
            units = b.attackers if s == "attackers" else b.defenders
            for label, c in zip(labels[s], units, strict=True):
                mc = ", ".join([*c.marks, *(f"curse {x}" for x in c.curses)]) or "-"
                unit = label if fold(label) == fold(c.unit.name) else f"{label} ({c.unit.name})"
                row = [
                    f"{s} ({b.side_name(s)})",
                    unit,
                    show(c.base_health),
                    show(c.unit.attack),
                    show(c.unit.defense),
                    ", ".join(c.unit.traits) or "-",
                    mc,
                ]
                if state.report is not None:
                    row.append(show(after[label]) if label in after else "did not fight")
                table.add_row(*(Text(x) for x in row))
        lines = [f"Action: {b.action}   Region traits: {', '.join(b.region_traits) or 'none'}"]
        if b.enclave is not None:
            stab = "unknown" if b.enclave.stability is None else show(b.enclave.stability)
            st = None if state.report is None else state.report.stability
            if st is not None:
                stab += " → " + ("unknown" if st.after is None else show(st.after)) + (" (Fallen)" if st.fallen else "")
            lines.append(f"Enclave {b.enclave.name} (held by the {b.enclave.side}), Stability {stab}")
        lines.append(readings_text(b.options, enclave=b.enclave is not None))
        return Group(table, *(Text(x) for x in lines))

    def units(self, state: WarTableState) -> Group:
        """After the attack its six steps; before it, the exact outcome the attack will have."""
        if state.report is not None:
            return Group(*report_renderables(state.report.to_dict()))
        preview = self.game.preview(state, DEFEND if state.declared else ATTACK)
        table = Table(title="When the defenders answer the attack (no chance: these are the numbers)",
                      title_justify="left")
        table.add_column("")
        table.add_column("Before → after")
        for label, value in preview.headline:
            table.add_row(Text(label), Text(str(value)))
        return Group(table)

    def outcome(self, report: Sequence[Mapping[str, object]]) -> Group:
        if not any(it.get("kind") == "combat" for it in report):  # the attack declared: the defenders answer
            return Group(*(Text(str(it.get("text", ""))) for it in report))
        return Group(*report_renderables(combat_from_items(report)))

    def result(self, state: WarTableState) -> Text:
        result = self.game.result(state)
        if result is None:
            return Text("")
        who = f"{result.winner} ({result.winner_name}) hold the field" if result.winner else "no winner"
        text = Text(f"Battle over — {who}: {result.reason}", style="bold green")
        st: Any = result.summary.get("stability")
        if st is not None:
            before = "unknown" if st["before"] is None else st["before"]
            after = "unknown" if st["after"] is None else st["after"]
            fallen = ' — the Enclave is "Fallen"' if st["fallen"] else ""
            text.append(f"\nEnclave {st['enclave']}: Stability {before} → {after}{fallen}", style="bold")
        return text

    def turn_bar(self, state: WarTableState) -> Text:
        if state.over:
            return Text("The attack has been resolved.")
        if state.declared:
            return Text(f"To act: defenders ({state.battle.side_name('defenders')}) — defend: meet the attack")
        return Text(f"To act: attackers ({state.battle.side_name('attackers')}) — attack: {describe(state.battle)}")
