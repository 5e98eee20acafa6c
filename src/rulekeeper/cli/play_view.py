"""What the terminal play loop draws: the board, the turn, the numbered actions with their odds, the preview,
the results revealed one card at a time (as the web Fate Screen turns them over), the log.

Every drawing comes from the battle's game through the protocol: its CLI presenter (or the generic one) for the
board and the Fate Screen, ``legal_actions``/``preview`` for the list and the odds, ``action_text`` and the
optional ``conceals`` hook for the log. Nothing here knows a rule system.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from rulekeeper.core.game import SPECTATOR, Game, LegalAction, Outcome, concealed_text, conceals
from rulekeeper.core.wording import counted

from .actions_view import odds_line
from .battle_cmds import _show, presenter
from .fate_screen import explain_panel, odds_table, rows_table
from .output import console
from .whole_view import show_whole

if TYPE_CHECKING:
    from rulekeeper.persistence.store import LogEntry

#: Chance draws shown in a preview (a volley may draw dozens; the first ones say what the odds are).
PREVIEW_DRAWS = 4
KEYS = "number or words: act · u: undo · l: log · r: redraw · q: quit"


def board(g: Game, state: object, bid: str, side: str | None) -> None:
    _show(g, state, bid, f"Battle {bid} · {g.title}" + (f" · you play side {side}" if side else ""))


def action_list(g: Game, state: object, legal: Sequence[LegalAction]) -> None:
    rows = [[str(n), lg.text, "" if lg.cost is None else f"{lg.cost:g}",
             odds_line(g.preview(state, lg.action).headline_dict()), lg.note] for n, lg in enumerate(legal, 1)]
    console.print(rows_table("Your actions", ["#", "Action", "Cost", "Odds", "Note"], rows))
    console.print(Text(KEYS, style="dim"))


def preview(g: Game, state: object, chosen: LegalAction) -> None:
    odds = g.preview(state, chosen.action)
    cost = "" if chosen.cost is None else f" (cost {chosen.cost:g})"
    console.print(Text(f"▶ {chosen.text}{cost}", style="bold cyan"))
    show_whole(g, state, chosen)  # the whole action first (games with ``whole_odds``), then each draw
    if odds.headline:
        console.print(Text("Odds: " + odds_line(odds.headline_dict())))
    for draw in odds.draws[:PREVIEW_DRAWS]:
        if draw.kind == "discrete" and draw.outcomes:
            console.print(odds_table(draw.label, draw.odds()))
            if draw.explain:
                console.print(explain_panel(draw.explain))
    if len(odds.draws) > PREVIEW_DRAWS:
        console.print(Text(f"… and {counted(len(odds.draws) - PREVIEW_DRAWS, 'more draw')}", style="dim"))
    if not odds.draws:
        console.print(Text("No chance: the action happens as shown.", style="dim"))


def reveal(g: Game, out: Outcome, ask: Callable[[str], str]) -> None:
    """The action's results: card by card (Enter turns the next over, ``a`` all the rest) when fate decided them."""
    cards = list(out.report)
    step = bool(out.chance) and len(cards) > 1
    for i, card in enumerate(cards):
        console.print(presenter(g).outcome([card]))
        if step and i < len(cards) - 1:
            answer = ask(f"[{i + 1}/{len(cards)}] Enter: next result · a: all ")
            if answer.strip().lower().startswith("a") or answer == "\x04":
                step = False


def moves(g: Game, entries: Sequence[LogEntry], state: object, side: str | None, pending: LogEntry | None) -> None:
    """Actions played elsewhere (another terminal, the web keeper) since the screen was last drawn."""
    role = side or SPECTATOR
    for e in entries:
        hidden = side is not None and conceals(g, state, e.action, role)
        text = concealed_text(g, e.action) if hidden else g.action_text(e.action)
        console.print(Text(f"◆ {e.index + 1}. side {g.side_of(e.action)}: {text}", style="bold magenta"))
        if pending is not None and e.index == pending.index:
            console.print(Text("  its results are face down until its side reveals them", style="dim"))
        elif not hidden:
            console.print(presenter(g).outcome(list(e.result.get("report") or [])))


def log(g: Game, entries: Sequence[LogEntry], state: object, side: str | None) -> None:
    role = side or SPECTATOR
    rows = []
    for e in entries:
        hidden = side is not None and conceals(g, state, e.action, role)
        rows.append([str(e.index + 1), g.side_of(e.action), concealed_text(g, e.action) if hidden
                     else g.action_text(e.action)])
    console.print(rows_table("Log", ["#", "Side", "Action"], rows or [["", "", "no action played yet"]]))
