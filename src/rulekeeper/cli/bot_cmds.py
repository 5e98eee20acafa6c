"""The keeper as an opponent on the command line: a battle's bot seat, its moves, and ``--explain``.

``battle new SCENARIO --bot B [--strength normal]`` keeps the seat in the battle's meta, exactly as the web
keeper's new-battle form does (``service.bot_seat``: side, strength, policy and the bot's seed, sealed with the
set-up), so a battle started here is played by the keeper on the web too, and the other way round. After every
action a player makes here (``battle new`` itself when the keeper's side starts, ``battle act``, the ``play``
loop) :func:`bot_turns` lets the keeper play its side until another side must act. The keeper reads only what
its side may see: it never moves while the last result is face down, and the search (``rulekeeper.bots``)
determinises everything else. Its seed for a move is the seat's seed and the log position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from rulekeeper.core.game import Game, JsonDict

from .output import console

if TYPE_CHECKING:  # the bots import numpy: only when a command runs (rulekeeper --help stays light)
    from rulekeeper.bots import Decision
    from rulekeeper.service.battles import BattleService

#: Keeper moves in a row at most (a keeper facing only itself would otherwise play to the end unseen).
MAX_BOT_MOVES = 5000


def bot_meta(svc: BattleService, request: Any, ruleset: str | None, side: str, strength: str,
             verifiable: bool) -> tuple[Any, JsonDict]:
    """The set-up of a new battle and the meta that makes ``side`` the keeper's (typed errors for a side the
    battle does not have or an unknown strength, before anything is stored)."""
    from rulekeeper.service.battles import game_of, guess_ruleset
    from rulekeeper.service.bot_seat import new_seat

    g = game_of(ruleset or guess_ruleset(request))
    setup = g.setup(request)
    seat = new_seat(g.roles(setup.document), side, strength, None if verifiable else request.seed)
    assert seat is not None  # a side was asked for
    return setup, {"bot": seat.to_meta()}


def contribute_for_keeper(svc: BattleService, bid: str) -> None:
    """With verifiable dice the keeper adds its share at once, before any player's (so it cannot be chosen
    knowing theirs), as on the web."""
    import secrets

    from rulekeeper.service.bot_seat import seat_of
    from rulekeeper.service.dice import Dice

    seat = seat_of(svc.record(bid).meta)
    if seat is not None and svc.store.dice(bid) is not None:
        Dice(svc).contribute(bid, seat.side, secrets.token_hex(32))


def bot_turns(svc: BattleService, bid: str, *, explain: bool = False, quiet: bool = False) -> list[JsonDict]:
    """Let the battle's keeper play while its side must act (and no result is face down); its answers
    (``action``, ``candidates``, ``iterations``, ``seconds``: ``service.bot_worker.decide``)."""
    from rulekeeper.service.bot_seat import seat_of

    seat = seat_of(svc.record(bid).meta)
    if seat is None:
        return []
    from rulekeeper.service.bot_worker import Job, decide

    g = svc.game(bid)
    answers: list[JsonDict] = []
    for _ in range(MAX_BOT_MOVES):
        rec = svc.record(bid)
        dice = rec.meta.get("dice")
        if isinstance(dice, dict) and dice.get("contributions") is None:
            break  # the dice wait for the players' shares
        visible = svc.visible(bid)
        status = g.status(visible.state)
        if (visible.pending is not None or status.over or seat.side not in status.to_act
                or not any(lg.side == seat.side for lg in g.legal_actions(visible.state))):
            break
        job = Job(rec.ruleset, {}, seat.side, seat.policy, seat.strength, seat.seconds, seat.seed_at(rec.position), 0)
        answer = decide(g, visible.state, job)
        out, _ = svc.act(bid, answer["action"], expected_position=rec.position, side=seat.side)
        answers.append(answer)
        if not quiet:
            show_bot_move(g, seat.side, answer, list(out.report), explain)
    return answers


def show_bot_move(g: Game, side: str, answer: JsonDict, report: list[Any], explain: bool) -> None:
    """The keeper's move, its reasons when asked, and the game's Fate Screen of what it caused."""
    from .battle_cmds import presenter

    console.print(Text(f"The keeper (side {side}) plays: {g.action_text(answer['action'])}", style="bold cyan"))
    if explain:
        console.print(explanation(answer))
    console.print(presenter(g).outcome(report))


def explanation(answer: JsonDict, top: int = 5) -> Table:
    """The bot's best candidates (a decision's JSON): their estimated value for its side (-1 a sure loss …
    +1 a sure win) and the simulations behind each."""
    table = Table(title=f"Why: {answer.get('iterations', 0)} simulations in {float(answer.get('seconds', 0)):.2f}s",
                  title_justify="left")
    for col in ("#", "Candidate", "Value", "Simulations"):
        table.add_column(col, justify="right" if col != "Candidate" else "left")
    for n, c in enumerate(answer.get("candidates", [])[:top], 1):
        value = c.get("value")
        table.add_row(str(n), str(c.get("text", "")), "—" if value is None else f"{float(value):+.2f}",
                      str(c.get("visits", 0)))
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
