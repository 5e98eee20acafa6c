"""``battle actions`` itself, without Typer: the numbered legal actions of the side to act, with their odds.

Why apart from :mod:`.act_cmds`: it is the command a player runs before each move, and it paid for Typer, the
tree of every command and SQLAlchemy before it listed anything (0.80 s of CPU, where ``battle show`` took 0.29;
now 0.27: ``bench/bench_start_up.py --only show,actions``). :mod:`.fast` runs its plain forms here, reading a SQLite store with the standard library as ``battle show``
does (:func:`.battle_view.shown`); the Typer command calls the same :func:`list_actions`. Either way the list is
remembered under the store's URL (:mod:`.current`), so ``battle act N`` plays line N of the list shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text

from rulekeeper.core.game import Game, LegalAction, headline_line

from . import current
from .battle_ids import resolve
from .battle_view import presenter, service
from .fate_screen import rows_table
from .output import console, print_json

if TYPE_CHECKING:
    from rulekeeper.service.reading import BattleReading


def odds_line(odds: dict[str, float | str]) -> str:
    """One line of an action's odds: a chance after its outcome ("hit 70.0 %"), any other figure after a colon
    ("movement points left after this move: 3", not "... move 3").

    >>> odds_line({"hit": 0.7, "expected casualties": "1.2"})
    'hit 70.0 %, expected casualties: 1.2'
    """
    return headline_line(odds.items())


def listing(legal: list[LegalAction]) -> str:
    return current.digest(legal)


@dataclass(frozen=True)
class Listing:
    """What ``battle actions`` shows, read at one moment: the battle, its store's URL, game, log position and
    chain head, state and legal actions."""

    battle: str
    url: str
    game: Game
    position: int
    head: str
    state: object
    legal: list[LegalAction]


def read_listing(svc: BattleReading, given: str | None) -> Listing:
    battle = resolve(svc, given)
    state, legal = svc.legal(battle)
    rec = svc.record(battle)
    return Listing(battle, svc.store.url, svc.game(battle), rec.position, rec.head or "", state, legal)


def list_actions(battle: str | None, db: str | None, json: bool) -> None:
    """``rulekeeper battle actions``: the side to act's numbered legal actions, their cost and odds (``json``: as
    data). A SQLite store at the current schema is read without SQLAlchemy; anything else, and any failure of
    those reads, goes through the store, which names what is wrong."""
    from rulekeeper.persistence.sqlite_reads import open_reads
    from rulekeeper.service.reading import BattleReading

    found: Listing | None = None
    reads = open_reads(db)
    if reads is not None:
        try:
            with reads:
                found = read_listing(BattleReading(reads), battle)
        except Exception:  # noqa: BLE001 (read again by the store, which names what is wrong)
            found = None
    show_listing(found or read_listing(service(db), battle), json)


def show_listing(found: Listing, json: bool) -> None:
    """The list drawn (or printed as JSON), and remembered for ``battle act N``; the battle becomes the current one."""
    g, state, legal = found.game, found.state, found.legal
    current.set_current(found.url, found.battle)
    current.remember_list(found.url, found.battle, current.Listed(found.position, found.head, len(legal),
                                                                  listing(legal)))
    rows = [(lg, g.preview(state, lg.action).headline_dict()) for lg in legal]
    status = g.status(state)
    if json:
        print_json({"id": found.battle, "position": found.position, "active": list(status.acting),
                    "to_act": list(status.to_act), "actions": [
                        {**lg.action, "n": n, "text": lg.text, "acp": lg.cost, "note": lg.note, "odds": odds}
                        for n, (lg, odds) in enumerate(rows, 1)]})
        return
    if status.over:
        console.print(presenter(g).result(state))
        return
    console.print(rows_table(f"Legal actions of {' + '.join(status.acting)}", ["#", "Action", "Cost", "Odds", "Note"],
                             [[str(n), lg.text, "" if lg.cost is None else f"{lg.cost:g}", odds_line(o), lg.note]
                              for n, (lg, o) in enumerate(rows, 1)]))
    console.print(Text("Play one: rulekeeper battle act N (its number), or its words", style="dim"))
