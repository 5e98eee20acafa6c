"""The keeper as an opponent on the command line: a battle's bot seat, its moves, and ``--explain``.

``battle new SCENARIO --bot B [--strength normal]`` keeps ``{"bot": {"side": "B", "strength": "normal"}}`` in the
battle's meta; after every action a player makes here (``battle act``, the ``play`` loop, ``battle new`` itself
when the bot moves first) :func:`bot_turns` lets the bot play its side until another side must act. The bot
reads only what its side may see: it never moves while the last result is face down, and the search
(``rulekeeper.bots``) determinises everything else. Its seed for a move is the battle's seed and the log
position (``bots.move_seed``), so a battle replays the same bot moves from the same log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from rulekeeper.core.game import Game, JsonDict

from .output import console

if TYPE_CHECKING:  # the bots import numpy: only when a command runs (rulekeeper --help stays light)
    from rulekeeper.bots import Budget, Decision
    from rulekeeper.service.battles import BattleService

#: ``rulekeeper.bots.DEFAULT_STRENGTH`` (not imported here: see above).
DEFAULT_STRENGTH = "normal"

#: Bot moves in a row at most (a bot facing only itself would otherwise play to the end unseen).
MAX_BOT_MOVES = 5000


@dataclass(frozen=True)
class BotSeat:
    """The side the keeper plays in a battle, and how hard it thinks."""

    side: str
    strength: str = DEFAULT_STRENGTH

    @property
    def budget(self) -> Budget:
        from rulekeeper.bots import strength_named

        return strength_named(self.strength)

    def to_meta(self) -> dict[str, Any]:
        return {"bot": {"side": self.side, "strength": self.strength}}


def seat_of(svc: BattleService, bid: str) -> BotSeat | None:
    """The battle's bot seat (``battle new --bot``), or None."""
    bot = svc.record(bid).meta.get("bot")
    if not isinstance(bot, dict) or not isinstance(bot.get("side"), str):
        return None
    return BotSeat(bot["side"], str(bot.get("strength") or DEFAULT_STRENGTH))


def bot_turns(svc: BattleService, bid: str, *, explain: bool = False, quiet: bool = False) -> list[Decision]:
    """Let the battle's bot play while its side must act (and no result is face down); its decisions."""
    seat = seat_of(svc, bid)
    if seat is None:
        return []
    from rulekeeper.bots import choose, move_seed

    g = svc.game(bid)
    decisions: list[Decision] = []
    for _ in range(MAX_BOT_MOVES):
        visible = svc.visible(bid)
        status = g.status(visible.state)
        if visible.pending is not None or status.over or seat.side not in status.to_act:
            break
        rec = svc.record(bid)
        decision = choose(g, visible.state, seat.side, budget=seat.budget, seed=move_seed(rec.seed, rec.position))
        out, _ = svc.act(bid, decision.action, expected_position=rec.position, side=seat.side)
        decisions.append(decision)
        if not quiet:
            show_bot_move(g, seat.side, decision, list(out.report), explain)
    return decisions


def show_bot_move(g: Game, side: str, decision: Decision, report: list[Any], explain: bool) -> None:
    """The keeper's move, its reasons when asked, and the game's Fate Screen of what it caused."""
    from .battle_cmds import presenter

    text = decision.candidates[0].text if decision.candidates else g.action_text(decision.action)
    console.print(Text(f"The keeper (side {side}) plays: {text}", style="bold cyan"))
    if explain:
        console.print(explanation(decision))
    console.print(presenter(g).outcome(report))


def explanation(decision: Decision, top: int = 5) -> Table:
    """The bot's best candidates: their estimated value for its side (-1 a sure loss … +1 a sure win) and the
    simulations behind each."""
    table = Table(title=f"Why: {decision.iterations} simulations in {decision.seconds:.2f}s", title_justify="left")
    for col in ("#", "Candidate", "Value", "Simulations"):
        table.add_column(col, justify="right" if col != "Candidate" else "left")
    for n, c in enumerate(decision.candidates[:top], 1):
        table.add_row(str(n), c.text, f"{c.value:+.2f}", str(c.visits))
    return table


def autoplay_policy(g: Game, name: str, budget: str | None, seed: int
                    ) -> tuple[Callable[[Any, int], JsonDict | None] | None, list[Decision]]:
    """``autoplay --policy NAME --budget B``: the chooser the service calls (None: the shipped policy) and the
    list the search's decisions are collected in (for ``--explain`` and ``--json``)."""
    from rulekeeper.bots import BotRequestError, SearchPolicy, move_seed, parse_budget, policy_named

    chosen = policy_named(name, parse_budget(budget) if budget else None)
    decisions: list[Decision] = []
    if not isinstance(chosen, SearchPolicy):
        if budget:
            raise BotRequestError(f"--budget is the search's: it needs --policy search (got --policy {name})")
        return None, decisions

    def chooser(state: Any, position: int) -> JsonDict | None:
        decision = chosen.decide(g, state, move_seed(seed, position))
        if decision is None:
            return None
        decisions.append(decision)
        return decision.action

    return chooser, decisions
