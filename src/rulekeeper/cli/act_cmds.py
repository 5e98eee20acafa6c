"""``rulekeeper battle actions|act|use``: the numbered legal actions, acting by number or by words, the current battle.

``battle actions`` numbers its lines and remembers where the battle stood (its log position and fingerprint,
and a digest of the listed actions, in the CLI's state file: :mod:`.current`); ``battle act N`` then plays
line N of that list, and is refused when the battle moved since, never mapped onto a new list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, LegalAction, Outcome
from rulekeeper.core.wording import counted

from . import action_words, current
from .actions_view import list_actions, listing
from .battle_cmds import BattleArg, BattleIdArg, Db, Explain, Json, _doc, _service, _show, battle_app, presenter
from .battle_ids import is_battle, make_current, resolve
from .bot_cmds import bot_turns
from .completion import complete_act_words
from .output import console, print_json

if TYPE_CHECKING:
    from rulekeeper.service.battles import BattleService


class StaleListError(RulekeeperError):
    """``battle act N`` after the battle moved on from the list that numbered N."""

    code = "stale_list"


@battle_app.command("actions")
def actions(battle: BattleArg = None, db: Db = None, json: Json = False) -> None:
    """The numbered legal actions of the side to act, their cost and the odds of those with chance."""
    list_actions(battle, db, json)


def numbered(svc: BattleService, battle: str, n: int) -> tuple[LegalAction, int]:
    """Line ``n`` of the list ``battle actions`` showed, and the log position it was shown at."""
    rec = svc.record(battle)
    shown = current.listed(svc.store.url, battle)
    if shown is None:
        raise StaleListError(f"no numbered list of battle {battle} was shown here: run rulekeeper battle actions "
                             f"{battle[:10]} first, then play a line by its number", battle_id=battle)
    if (shown.position, shown.head) != (rec.position, rec.head or ""):
        raise StaleListError(
            f"battle {battle} moved since its actions were listed (then {counted(shown.position, 'action')} played, now "
            f"{rec.position}): number {n} is not played; list the actions again (rulekeeper battle actions)",
            battle_id=battle, listed_at=shown.position, now=rec.position)
    _, legal = svc.legal(battle)
    if listing(legal) != shown.digest:
        raise StaleListError(f"battle {battle}'s legal actions changed since they were listed: number {n} is not "
                             "played; list the actions again (rulekeeper battle actions)", battle_id=battle)
    return action_words.by_number(legal, n), shown.position


def split_battle(svc: BattleService, args: list[str]) -> tuple[str, list[str]]:
    """``[ID] WORDS...``: the battle (the first word when it names one, else the current battle) and the words."""
    if args and is_battle(svc, args[0]):
        return resolve(svc, args[0]), args[1:]
    return resolve(svc, None), args


@battle_app.command("act")
def act(
    words: Annotated[list[str], typer.Argument(
        metavar="[ID] ACTION...", autocompletion=complete_act_words,
        help="The battle (id or unique prefix; default: the current battle), then the action: its number in "
             "the list battle actions showed, its listed text, or the game's words, e.g. Ex illis: KIND UNIT "
             "[TARGET] — charge \"Franc Chevalers\" B3.")],
    option: Annotated[str | None, typer.Option(
        "--option", "--shot", "--spell", help="The action's option: shot type (aim, swift_shot…), spell…")] = None,
    explain: Explain = False,
    db: Db = None,
    json: Json = False,
) -> None:
    """Perform one action (by number or by words) and print the Fate Screen of everything it caused.

    In a battle whose side the keeper plays (battle new --bot), the keeper then moves until you must act."""
    svc = _service(db)
    battle, words = split_battle(svc, list(words))
    g = svc.game(battle)
    make_current(svc, battle)
    before = svc.state(battle)
    n = action_words.number_of(words) if option is None else None
    expected: int | None = None
    action: Mapping[str, object]
    if n is not None:
        listed, expected = numbered(svc, battle, n)
        action = listed.action
    else:
        action = action_words.parse(g, before, g.legal_actions(before), words, option)
    out, pos = svc.act(battle, action, expected_position=expected)
    if json:
        keeper = bot_turns(svc, battle, quiet=True)
        extra = {"keeper": keeper} if keeper else {}
        print_json({**_doc(g, out.state, battle, position=pos, action=out.action),
                    **{k: v for k, v in out.record.items() if k != "rng_after"}, **extra})
        return
    print_outcome(g, out, before)
    state = svc.state(battle) if bot_turns(svc, battle, explain=explain) else out.state
    _show(g, state, battle)


def print_outcome(g: Game, out: Outcome, before: object) -> None:
    """The action as it was listed (with its cost), then the game's Fate Screen of what it caused."""
    chosen = next((lg for lg in g.legal_actions(before) if lg.action == out.action), None)
    text = chosen.text if chosen is not None else g.action_text(out.action)
    cost = "" if chosen is None or chosen.cost is None else f" ({chosen.cost:g})"
    console.print(Text(text + cost, style="bold"))
    console.print(presenter(g).outcome(list(out.report)))


@battle_app.command("use")
def use(battle: BattleIdArg, db: Db = None, json: Json = False) -> None:
    """Make a battle the current one of its store: commands that take an id may then leave it out."""
    svc = _service(db)
    bid = resolve(svc, battle)
    if not current.set_current(svc.store.url, bid):
        raise RulekeeperError(f"cannot write the CLI's state file {current.state_file()} (set "
                              f"{current.ENV_VAR} to a writable folder)", path=str(current.state_file()))
    if json:
        print_json({"id": bid, "current": True})
        return
    rec = svc.record(bid)
    console.print(Text(f"Current battle: {bid} ({rec.ruleset}, {rec.scenario}, {counted(rec.position, 'action')}, "
                       f"{rec.status})", style="bold green"))
