"""The keeper as an opponent on the command line: a battle's bot seat, its moves, and ``--explain``.

``battle new SCENARIO --bot B [--strength normal]`` keeps the seat in the battle's meta, exactly as the web
keeper's new-battle form does (``service.bot_seat``: side, strength, policy and the bot's seed, sealed with the
set-up), so a battle started here is played by the keeper on the web too, and the other way round. After every
action a player makes here (``battle new`` itself when the keeper's side starts, ``battle act``, the ``play``
loop) :func:`bot_turns` lets the keeper play its side until another side must act. The keeper reads only what
its side may see: it never moves while the last result is face down, and the search (``rulekeeper.bots``)
determinises everything else. Its seed for a move is the seat's seed and the log position.

The player at this terminal plays the other side, so a keeper's move the game still conceals (the War Table
campaign's hidden orders, until the round resolves) is shown as the log shows it to another side: that the
keeper's side acted, without its orders and without the candidates (``--explain``, ``--json``) that would
tell them. The web keeper hides it the same way (``web.keeper_side``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from rich.table import Table
from rich.text import Text

from rulekeeper.core.game import (
    SPECTATOR,
    BattleSetup,
    Game,
    JsonDict,
    Outcome,
    SetupRequest,
    concealed_action,
    conceals,
)
from rulekeeper.core.wording import counted

from .output import console

if TYPE_CHECKING:  # the bots import numpy: only when a command runs (rulekeeper --help stays light)
    from rulekeeper.bots import Decision, SearchPolicy
    from rulekeeper.service.battles import BattleService
    from rulekeeper.service.bot_seat import BotSeat

#: Keeper moves in a row at most (a keeper facing only itself would otherwise play to the end unseen).
MAX_BOT_MOVES = 5000


class Weighed(TypedDict):
    """One candidate the keeper weighed, as ``--explain`` shows it (``value`` None: the shipped policy's move)."""

    text: str
    value: float | None
    visits: int


class KeeperMove(TypedDict):
    """One move of the keeper, as ``service.bot_worker.decide`` answers it and ``--json`` prints it (``keeper``)."""

    action: JsonDict
    candidates: list[Weighed]
    iterations: int
    seconds: float


def bot_setup(svc: BattleService, request: SetupRequest, ruleset: str | None, side: str, strength: str,
              verifiable: bool) -> tuple[BattleSetup, BotSeat]:
    """The set-up of a new battle and the keeper's seat on ``side`` (typed errors for a side the battle does
    not have or an unknown strength, before anything is stored); the battle's meta is ``{"bot": seat.to_meta()}``."""
    from rulekeeper.service.battles import game_of, guess_ruleset
    from rulekeeper.service.bot_seat import new_seat

    g = game_of(ruleset or guess_ruleset(request))
    setup = g.setup(request)
    seat = new_seat(g.roles(setup.document), side, strength, None if verifiable else request.seed)
    assert seat is not None  # a side was asked for
    return setup, seat


def contribute_for_keeper(svc: BattleService, bid: str) -> None:
    """With verifiable dice the keeper adds its share at once, before any player's (so it cannot be chosen
    knowing theirs), as on the web."""
    import secrets

    from rulekeeper.service.bot_seat import seat_of
    from rulekeeper.service.dice import Dice

    seat = seat_of(svc.record(bid).meta)
    if seat is not None and svc.store.dice(bid) is not None:
        Dice(svc).contribute(bid, seat.side, secrets.token_hex(32))


def bot_turns(svc: BattleService, bid: str, *, explain: bool = False, quiet: bool = False) -> list[KeeperMove]:
    """Let the battle's keeper play while its side must act (and no result is face down); its moves as
    ``service.bot_worker.decide`` answered them."""
    from rulekeeper.service.bot_seat import seat_of

    seat = seat_of(svc.record(bid).meta)
    if seat is None:
        return []
    from rulekeeper.service.bot_worker import Job, decide

    g = svc.game(bid)
    answers: list[KeeperMove] = []
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
        answer = decide(g, visible.state, job)  # the worker's message: its keys are read here, once
        chosen = answer.get("action")
        if chosen is None:  # none of its side's actions (listed just above) was found: nothing to play
            break
        move = KeeperMove(action=chosen,  # the answer's own key order: --json prints it as it was
                          candidates=[Weighed(text=c["text"], value=c["value"], visits=c["visits"])
                                      for c in answer["candidates"]],
                          iterations=answer["iterations"], seconds=answer["seconds"])
        out, _ = svc.act(bid, move["action"], expected_position=rec.position, side=seat.side)
        if conceals(g, svc.visible(bid).state, chosen, SPECTATOR):  # the other side may not read it yet
            move = KeeperMove(action=dict(concealed_action(g, chosen)), candidates=[],
                              iterations=move["iterations"], seconds=move["seconds"])
        answers.append(move)
        if not quiet:
            show_bot_move(g, seat.side, move, out, explain)
    return answers


def show_bot_move(g: Game, side: str, move: KeeperMove, out: Outcome, explain: bool) -> None:
    """The keeper's move, its reasons when asked, and the game's Fate Screen of what it caused."""
    from .battle_cmds import presenter

    if move["action"].get("kind") == "concealed":
        # the game's own line says what may be told ("Bloodless have given their orders for round 1 (hidden until
        # the round resolves)"): a second "acted (hidden until it is revealed)" above it said the same twice
        said = "plays:" if out.report else "acted (hidden until it is revealed)"
        console.print(Text(f"The keeper (side {side}) {said}", style="bold cyan"))
        console.print(presenter(g).outcome(list(out.report)))
        if explain:
            console.print(Text("  (its reasons would tell its orders: none are shown)", style="dim"))
        return
    console.print(Text(f"The keeper (side {side}) plays: {g.action_text(move['action'])}", style="bold cyan"))
    if explain:
        console.print(explanation(move))
    console.print(presenter(g).outcome(list(out.report)))


def explanation(move: KeeperMove, top: int = 5) -> Table | Text:
    """The bot's best candidates: their estimated value for its side (-1 a sure loss … +1 a sure win) and the
    simulations behind each; a move that was its only legal action says so (as the spectator's page does)."""
    if len(move["candidates"]) == 1 and not move["iterations"]:
        return Text("  Why: it was the keeper's only legal action, there was nothing to weigh.", style="dim")
    table = Table(title=f"Why: {counted(move['iterations'], 'simulation')} in {float(move['seconds']):.2f}s",
                  title_justify="left")
    for col in ("#", "Candidate", "Value", "Simulations"):
        table.add_column(col, justify="right" if col != "Candidate" else "left")
    for n, c in enumerate(move["candidates"][:top], 1):
        value = c["value"]
        table.add_row(str(n), str(c["text"]), "—" if value is None else f"{float(value):+.2f}", str(c["visits"]))
    return table


def decided(decision: Decision) -> KeeperMove:
    """A search's decision as the explanation shows it (rounded as its JSON, ``Decision.to_json``, rounds it)."""
    return KeeperMove(action=decision.action, candidates=[Weighed(text=c.text, value=round(c.value, 4), visits=c.visits)
                                                          for c in decision.candidates],
                      iterations=decision.iterations, seconds=round(decision.seconds, 4))


@dataclass
class SearchChooser:
    """``autoplay --policy search``: the move the service plays at each position (None: nobody can act), and
    every decision taken (for ``--explain`` and ``--json``)."""

    game: Game
    policy: SearchPolicy
    seed: int
    decisions: list[Decision] = field(default_factory=list)

    def __call__(self, state: object, position: int, side: str) -> JsonDict | None:
        from rulekeeper.bots import move_seed

        decision = self.policy.decide(self.game, state, move_seed(self.seed, position), side)
        if decision is None:
            return None
        self.decisions.append(decision)
        return decision.action


def autoplay_policy(g: Game, name: str, budget: str | None, seed: int) -> SearchChooser | None:
    """``autoplay --policy NAME --budget B``: the chooser the service calls (None: the shipped policy)."""
    from rulekeeper.bots import BotRequestError, SearchPolicy, parse_budget, policy_named

    chosen = policy_named(name, parse_budget(budget) if budget else None)
    if not isinstance(chosen, SearchPolicy):
        if budget:
            raise BotRequestError(f"--budget is the search's: it needs --policy search (got --policy {name})")
        return None
    return SearchChooser(g, chosen, seed)
