"""A terminal drawing of any game from its per-side view, for games without a CLI presenter."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rulekeeper.core.game import SPECTATOR, Game


class GenericCliPresenter:
    """The view as a two-column table, report lines as text, the result in one line."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def board(self, state: object) -> Table:
        table = Table(title=f"{self.game.title} battle", show_header=False)
        for key, value in self.game.view(state, SPECTATOR).items():
            table.add_row(str(key), json.dumps(value, ensure_ascii=False, sort_keys=True)[:300])
        return table

    def units(self, state: object) -> Text:
        return Text("")

    def outcome(self, report: Sequence[Mapping[str, object]]) -> Group:
        return Group(*(Text(str(r.get("text") or json.dumps(r, ensure_ascii=False, sort_keys=True)[:300]))
                       for r in report))

    def result(self, state: object) -> Text:
        result = self.game.result(state)
        if result is None:
            return Text("")
        return Text(f"Battle over — winner: {result.winner_name or result.winner} ({result.reason})", style="bold green")

    def turn_bar(self, state: object) -> Text:
        return Text(f"To act: {' + '.join(self.game.status(state).to_act) or 'nobody'}")
