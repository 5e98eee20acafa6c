"""``rulekeeper play [ID] [--side A]``: a battle played in the terminal, for every game, through the protocol only.

The loop draws the board, the turn and the numbered legal actions with their odds; the player types a number
(or the action's words), sees the preview, confirms, and sees the results turned over one by one as on the web
Fate Screen. Between two inputs it polls the store's revision (one primary-key read, every ``--poll`` seconds),
so a move made elsewhere — the web keeper, another terminal — appears within that time. ``u`` takes the last
action back, ``l`` shows the log, ``r`` redraws, ``q`` (or end of input) quits.

Like ``battle act``, the loop shows every result at once it is drawn (the terminal has no face-down card:
its player is looking), so an action with results cannot be undone afterwards; a battle with verifiable dice
waits for every side's contribution (the refusal is shown and the loop keeps polling).
"""

from __future__ import annotations

import select
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from rulekeeper.core.errors import IllegalActionError, RulekeeperError, UnknownNameError
from rulekeeper.core.game import LegalAction

from . import action_words, play_view
from .battle_cmds import BattleArg, Db, _service
from .battle_ids import make_current, resolve
from .bot_cmds import bot_turns
from .completion import complete_side
from .output import console, err_console

if TYPE_CHECKING:
    from rulekeeper.service.battles import BattleService

#: The answers to "Play it? [Y/n]" that play the action (Enter, and end of input, read as ""), and those that go
#: back to the list.
PLAY, GO_BACK = frozenset({"", "y", "yes"}), frozenset({"n", "no", "q", "quit"})


class PlayLoop:
    """One player's terminal on one battle (``side`` None: whoever is to act, a hot seat)."""

    def __init__(self, svc: BattleService, bid: str, side: str | None, poll: float) -> None:
        self.svc, self.bid, self.side, self.poll = svc, bid, side, poll
        self.g = svc.game(bid)
        rec = svc.record(bid)
        self.position, self.revision = rec.position, rec.revision

    # -- input ---------------------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """A line typed after ``prompt`` (end of input reads as an empty line)."""
        console.print(Text(prompt, style="bold"), end="")
        sys.stdout.flush()
        return sys.stdin.readline().rstrip("\n")

    def next_line(self) -> str | None:
        """The next line the player types, following the battle meanwhile; None at end of input."""
        console.print(Text(self.prompt(), style="bold"), end="")
        sys.stdout.flush()
        while True:
            if self._ready():
                line = sys.stdin.readline()
                return None if line == "" else line.rstrip("\n")
            if self.svc.store.revision(self.bid) != self.revision:
                console.print()
                self.follow()
                console.print(Text(self.prompt(), style="bold"), end="")
                sys.stdout.flush()

    def _ready(self) -> bool:
        try:
            return bool(select.select([sys.stdin], [], [], self.poll)[0])
        except (OSError, ValueError):  # a stdin select cannot watch (Windows): wait for the line itself
            return True

    def prompt(self) -> str:
        return f"{self.side or 'you'}> "

    # -- drawing -------------------------------------------------------------------------------------

    def mine(self, state: object) -> list[LegalAction]:
        legal = self.g.legal_actions(state)
        return legal if self.side is None else [lg for lg in legal if lg.side == self.side]

    def draw(self) -> None:
        visible = self.svc.visible(self.bid)
        play_view.board(self.g, visible.state, self.bid, self.side)
        state = self.svc.state(self.bid)
        status = self.g.status(state)
        if status.over:
            return
        legal = self.mine(state)
        if legal:
            play_view.action_list(self.g, state, legal)
        else:
            console.print(Text(f"Waiting for side {' + '.join(status.to_act) or '?'} "
                               f"({' + '.join(status.acting)} to act)… l: log · q: quit", style="yellow"))

    def follow(self) -> None:
        """Show what happened elsewhere since the last drawing, then draw again."""
        rec = self.svc.record(self.bid)
        visible = self.svc.visible(self.bid)
        if rec.position < self.position:
            console.print(Text(f"◆ taken back elsewhere: the battle is at action {rec.position} again",
                               style="bold magenta"))
        elif rec.position > self.position:
            play_view.moves(self.g, self.svc.store.entries(self.bid, self.position, rec.position), visible.state,
                            self.side, visible.pending)
        self.position, self.revision = rec.position, rec.revision
        self.draw()

    # -- commands ------------------------------------------------------------------------------------

    def run(self) -> None:
        self.keeper_moves()
        self.draw()
        while not self.over():
            line = self.next_line()
            if line is None or line.strip().lower() in ("q", "quit", "exit"):
                return
            try:
                self.command(line.strip())
            except RulekeeperError as exc:
                err_console.print(Text(f"refused ({exc.code}): {exc.message}", style="bold red"), soft_wrap=True)
                if self.svc.store.revision(self.bid) != self.revision:
                    self.follow()
        console.print(Text("The battle is over.", style="bold green"))

    def over(self) -> bool:
        return self.g.status(self.svc.state(self.bid)).over

    def command(self, line: str) -> None:
        key = line.lower()
        if key in ("", "r"):
            self.follow()
        elif key == "l":
            state = self.svc.visible(self.bid).state
            play_view.log(self.g, self.svc.store.entries(self.bid), state, self.side)
        elif key == "u":
            self.svc.undo(self.bid, expected_position=self.position)
            console.print(Text("Last action taken back.", style="bold green"))
            self.follow()
        else:
            self.play(line)

    def choose(self, state: object, legal: list[LegalAction], line: str) -> LegalAction:
        import shlex

        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        n = action_words.number_of(words)
        if n is not None:
            return action_words.by_number(legal, n)
        action = action_words.parse(self.g, state, legal, words)
        canonical = self.g.parse_action(state, action)
        for lg in legal:
            if lg.action in (action, canonical):
                return lg
        raise IllegalActionError(f"{self.g.action_text(canonical)}: not one of your actions now (type its number)")

    def play(self, line: str) -> None:
        state = self.svc.state(self.bid)
        legal = self.mine(state)
        if not legal:
            raise IllegalActionError("not your turn: wait for the other side (or q to quit)")
        chosen = self.choose(state, legal, line)
        play_view.preview(self.g, state, chosen)
        if not self.confirmed():
            self.draw()
            return
        out, position = self.svc.act(self.bid, chosen.action, expected_position=self.position, side=self.side)
        play_view.reveal(self.g, out, self.ask)
        rec = self.svc.record(self.bid)
        self.position, self.revision = position, rec.revision if rec.position == position else self.revision
        self.keeper_moves()
        self.draw()

    def confirmed(self) -> bool:
        """Whether the player plays the action shown: Enter or y. Why not anything but n: a player who typed q at
        "Play it? [Y/n]" to leave saw the action played (played as a user). n or q goes back to the list; any other
        answer is asked again."""
        while True:
            answer = self.ask("Play it? [Y/n] ").strip().lower()
            if answer in PLAY:
                return True
            if answer in GO_BACK:
                return False
            console.print(Text("Enter or y plays it; n goes back to your actions.", style="yellow"))

    def keeper_moves(self) -> None:
        """In a battle whose side the keeper plays (``battle new --bot``): its moves, until another side acts."""
        if bot_turns(self.svc, self.bid):
            rec = self.svc.record(self.bid)
            self.position, self.revision = rec.position, rec.revision


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        battle: BattleArg = None,
        side: Annotated[str | None, typer.Option(
            "--side", help="The side you play (e.g. A); the others' moves appear as they are made. "
                           "Default: every side, in turn (a hot seat).", autocompletion=complete_side)] = None,
        poll: Annotated[float, typer.Option(
            "--poll", min=0.1, max=10.0, help="Seconds between two looks at the battle for moves made elsewhere.")] = 0.5,
        db: Db = None,
    ) -> None:
        """Play a battle in the terminal: the board, numbered actions with their odds, the Fate Screen."""
        svc = _service(db)
        bid = resolve(svc, battle)
        if side is not None:
            roles = svc.roles(bid)[:-1]
            if side not in roles:
                raise UnknownNameError("side of this battle", side, list(roles))
        make_current(svc, bid)
        PlayLoop(svc, bid, side, poll).run()
