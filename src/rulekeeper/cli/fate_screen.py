"""Rich renderings of the Fate Screen: odds before a roll, duels after it.

Each outcome is shown with its exact probability, a bar proportional to it (the
"shuffle" of the original Fate Screen) and its damage range; below, the lines of
arithmetic that produced the odds (the original's help view).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulekeeper.core.wording import percent

OUTCOME_STYLE = {
    "Attack": "bold green", "Luck": "bold magenta", "Blocked": "cyan", "Evaded": "yellow",
    "Deflected": "yellow", "Bad Luck": "bold red", "Miss": "dim", "Accurate Shot": "bold green",
    "Accurate hit": "bold green", "Enemy space": "green", "Bulk hit": "green", "Allied space": "red",
    "Friendly fire": "bold red", "Free space": "dim", "Missed": "dim", "Cover": "dim",
    "Spell hit": "bold green", "Resisted": "yellow",
}


#: the one formatting of a chance (``core.wording.percent``)
pct = percent


def bar(p: float, width: int = 24) -> str:
    n = round(p * width)
    return "█" * n + "·" * (width - n)


def odds_table(
    title: str,
    odds: Sequence[tuple[str, float]],
    weights: dict[str, float] | None = None,
    damage: dict[str, tuple[int, int]] | None = None,
) -> Table:
    t = Table(title=title, title_style="bold", expand=False)
    t.add_column("Outcome")
    total = sum(weights.values()) if weights else 0.0
    if weights is not None:
        t.add_column("Marbles", justify="right")
        t.add_column("Share", justify="right")
    t.add_column("Chance", justify="right")
    t.add_column("")
    if damage is not None:
        t.add_column("Damage", justify="right")
    for name, p in odds:
        row: list[str | Text] = [Text(name, style=OUTCOME_STYLE.get(name, ""))]
        if weights is not None:
            w = weights.get(name)
            row.append("fixed" if w is None else f"{w:.2f}")
            row.append("" if w is None or total <= 0 else pct(w / total))
        row += [pct(p), Text(bar(p), style=OUTCOME_STYLE.get(name, ""))]
        if damage is not None:
            lo_hi = damage.get(name)
            row.append("" if lo_hi is None else (f"{lo_hi[0]}" if lo_hi[0] == lo_hi[1] else f"{lo_hi[0]}–{lo_hi[1]}"))
        t.add_row(*row)
    return t


def explain_panel(lines: Iterable[str], title: str = "How the odds were made") -> Panel:
    return Panel(Group(*(Text("• " + ln) for ln in lines)), title=title, title_align="left", border_style="dim")


def rows_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[str | Text]],
               whole: Sequence[str] = ()) -> Table:
    """A titled table; the ``whole`` columns are never cut or wrapped (ids a player copies back)."""
    rows = [list(r) for r in rows]
    t = Table(title=title, title_style="bold")
    for i, c in enumerate(columns):
        if c in whole:
            width = max([len(c), *(len(str(r[i])) for r in rows)])
            t.add_column(c, no_wrap=True, min_width=width)
        else:
            t.add_column(c)
    for r in rows:
        t.add_row(*[Text(c) if isinstance(c, str) else c for c in r])  # no Rich markup in data
    return t


def styled(outcome: str) -> Text:
    return Text(outcome, style=OUTCOME_STYLE.get(outcome, ""))
