"""The whole-action odds in the terminal: one table for any game that offers them (rule-system neutral).

Shows a :class:`~rulekeeper.core.whole.WholeOdds` as the web keeper's bars do: each measure's
outcomes with their chance and a bar, the expected values, the events, how the numbers were found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, LegalAction
from rulekeeper.core.whole import WholeOdds, whole_odds_of

from .output import console

if TYPE_CHECKING:
    from rich.console import JustifyMethod

#: The table's columns and how each is aligned.
COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (("What", "left"), ("Outcome", "left"), ("Chance", "right"), ("", "left"))


def whole_table(odds: WholeOdds, title: str = "The whole action") -> Table:
    t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for name, justify in COLUMNS:
        t.add_column(name, justify=justify)
    for what, outcome, chance, bar in odds.rows():
        t.add_row(what, outcome, chance, Text(bar, style="cyan"))
    t.caption = odds.caption()
    return t


def show_whole(g: Game, state: object, chosen: LegalAction) -> bool:
    """Print the game's whole-action odds of a listed action (the battle play loop's preview); False when none."""
    try:
        odds = whole_odds_of(g, state, chosen.action)
    except RulekeeperError:
        return False
    if odds is None:
        return False
    console.print(whole_table(odds))
    return True
