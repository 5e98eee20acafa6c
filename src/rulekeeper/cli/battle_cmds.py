"""``rulekeeper battle ...``: create, show, act, undo, replay, export/import and autoplay battles of any game.

These commands know no rule system: they reach the battle's game through the protocol
(``rulekeeper.core.game.Game``) and draw it with the game's CLI presenter (a generic one
when the game ships none). SQLAlchemy and the service are imported when a command runs, so
``rulekeeper odds`` never pays for them.
"""

from __future__ import annotations

from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from rulekeeper.core.game import ArmySource, SetupRequest, check_data_files
from rulekeeper.core.wording import counted

from . import battle_view
from .battle_ids import make_current, resolve
from .battle_view import show_battle
from .completion import complete_battle
from .fate_screen import rows_table
from .output import console, print_json

if TYPE_CHECKING:
    from rulekeeper.service.battles import BattleService

    from .bot_cmds import SearchChooser

# what the other battle commands (act_cmds, play, dice_cmds) and the games' own commands call them
_service = battle_view.service
_doc = battle_view.doc
_show = battle_view.draw
presenter = battle_view.presenter

battle_app = typer.Typer(help="Play a whole battle of any installed game, stored in a database.", no_args_is_help=True)

Db = Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir; env RULEKEEPER_DB).")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
Explain = Annotated[bool, typer.Option("--explain", help="Show the search bot's best candidates and their estimated "
                                                         "values (-1 a sure loss … +1 a sure win) for each of its moves.")]
#: A battle id, any unique prefix of one, or nothing for the store's current battle.
BattleArg = Annotated[str | None, typer.Argument(
    help="Battle id or any unique prefix of it (default: the current battle).", show_default=False,
    autocompletion=complete_battle)]
#: A battle id or any unique prefix of it (commands whose later arguments make the id impossible to leave out).
BattleIdArg = Annotated[str, typer.Argument(help="Battle id or any unique prefix of it.", autocompletion=complete_battle)]


#: What a scenario file's name ends with (a name without one, and no such file, names a shipped scenario).
SCENARIO_SUFFIXES = frozenset({".yaml", ".yml", ".toml", ".json"})
#: The longest scenario name looked up (``game:key``); anything longer is a path.
MAX_NAME = 120


def shipped_file(scenario: Path | None, ruleset: str | None) -> tuple[Path | None, str | None]:
    """The scenario file and game of ``battle new``: a file as given, or a shipped scenario by its name
    (``the_hunters_wood``, ``dragonnoir:the_ford``, or ``the_ford`` with ``--ruleset dragonnoir``) when no
    file has that name. Why: a player who installed rulekeeper has the shipped scenarios but not the
    repository's examples folder, and the web keeper already takes these names; an unknown name is refused
    with the names nearest it (``unknown_name``, exit 2)."""
    name = str(scenario)
    if (scenario is None or scenario.suffix.lower() in SCENARIO_SUFFIXES or "/" in name or "\\" in name
            or len(name) > MAX_NAME):
        return scenario, ruleset  # a path: the data-file reader names what is wrong with it
    try:
        if scenario.exists():
            return scenario, ruleset
    except OSError:  # a name the file system refuses (too long, ...): the reader's typed error says so
        return scenario, ruleset
    from rulekeeper.service.scenarios import find_scenario

    shipped = find_scenario(name if ruleset is None or ":" in name else f"{ruleset}:{name}")
    return shipped.info.path, shipped.game


@battle_app.command("new")
def new(
    scenario: Annotated[Path | None, typer.Argument(
        help="Scenario file (e.g. examples/exillis/starter.yaml) or a shipped scenario's name (starter, "
             "dragonnoir:the_ford; rulekeeper games --scenarios lists them), or give two --muster instead.")] = None,
    muster: Annotated[list[Path] | None, typer.Option(
        "--muster", "--army", help="An army list (an Ex illis muster), YAML or TOML; give two: side A, then side B.")] = None,
    board: Annotated[str | None, typer.Option(
        "--board", help="Board of a battle from army lists, columns x rows (default 5x4).")] = None,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="The game (when the scenario file does not say and several games are installed).")] = None,
    db: Db = None,
    seed: Annotated[int, typer.Option(help="Seed of fate.")] = 0,
    verifiable: Annotated[bool, typer.Option(
        "--verifiable", help="Verifiable dice: the seed is made from a committed secret and each side's "
                             "contribution (battle contribute); no --seed.")] = False,
    autoplay: Annotated[bool, typer.Option("--autoplay", help="Let the policy play both sides to the end.")] = False,
    practice: Annotated[bool, typer.Option(help="A practice game (no Battle Points).")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", help="Ruleset option NAME=VALUE.")] = None,
    data: Annotated[list[Path] | None, typer.Option(
        "--data", metavar="FILE", help="Your own data file for the game to read at set-up (repeatable), e.g. a "
                                       "War Table campaign's tables; kept in the battle, not read again.")] = None,
    bot: Annotated[str | None, typer.Option(
        "--bot", metavar="SIDE", help="The keeper plays this side (e.g. B): it moves by itself after each of "
                                      "yours (battle act, rulekeeper play).")] = None,
    strength: Annotated[str, typer.Option(
        "--strength", help="How hard the keeper thinks with --bot: easy, normal or strong.")] = "normal",
    explain: Explain = False,
    json: Json = False,
) -> None:
    """Create a battle from a scenario, or from two army lists, and store it."""
    if verifiable and (seed or autoplay):
        from rulekeeper.service.dice import DiceRequestError

        raise DiceRequestError("--verifiable takes neither --seed (the sides' contributions make the seed) nor "
                              "--autoplay (nobody plays before every side has contributed: battle contribute)")
    scenario, ruleset = shipped_file(scenario, ruleset)
    armies = tuple(ArmySource(str(p), suffix=p.suffix.lower(), path=p) for p in muster or [])
    with battle_view.starting(db) as svc:  # a refused set-up leaves no empty database behind
        request = SetupRequest(scenario=scenario, armies=armies, board=board, seed=seed, options=tuple(option or ()),
                               practice=practice, db=svc.store.url, data=tuple(data or ()))
        if request.data:  # a game that would ignore the files refuses them before anything is stored
            from rulekeeper.service.battles import game_of, guess_ruleset

            check_data_files(game_of(ruleset or guess_ruleset(request)), request)
        if bot is None:
            bid = svc.new(request, ruleset=ruleset, verifiable=verifiable)
        else:
            from .bot_cmds import bot_setup, contribute_for_keeper

            setup, seat = bot_setup(svc, request, ruleset, bot, strength.strip().lower(), verifiable)
            bid = svc.new(setup, verifiable=verifiable, meta={"bot": seat.to_meta()})
            contribute_for_keeper(svc, bid)
    make_current(svc, bid)
    g = svc.game(bid)
    state = svc.state(bid)
    if autoplay:
        state = _autoplay(svc, bid, None, 5000, quiet=json)
    if json:
        if bot is not None and not autoplay:
            from .bot_cmds import bot_turns

            keeper = bot_turns(svc, bid, quiet=True)
            print_json(_doc(g, svc.state(bid), bid, keeper=keeper))
            return
        print_json(_doc(g, state, bid))
        return
    fate = "verifiable dice: waiting for every side's contribution" if svc.record(bid).meta.get("dice") else f"seed {seed}"
    console.print(Text(f"Created battle {bid} ({svc.record(bid).scenario}, {fate}) in {svc.store.url}",
                       style="bold green"))
    if bot is not None and not autoplay:
        from .bot_cmds import bot_turns

        console.print(Text(f"The keeper plays side {bot} ({strength}).", style="cyan"))
        if bot_turns(svc, bid, explain=explain):
            state = svc.state(bid)
    _show(g, state, bid)


def _autoplay(svc: BattleService, bid: str, sides: set[str] | None, max_actions: int, quiet: bool,
              policy: SearchChooser | None = None) -> object:
    if quiet:
        return svc.autoplay(bid, sides, max_actions, policy=policy)
    from rich.progress import BarColumn, Progress, TextColumn  # the bar only: every other command skips it

    g = svc.game(bid)
    played = count(1)  # the bar counts in words: "1 action", "2 actions"
    with Progress(TextColumn("[bold]autoplay"), BarColumn(),
                  TextColumn("{task.fields[done]}, turn {task.fields[turn]}"), console=console, transient=True) as bar:
        task = bar.add_task("autoplay", total=None, turn="0", done=counted(0, "action"))
        return svc.autoplay(bid, sides, max_actions, policy=policy,
                            progress=lambda s: bar.update(task, advance=1, turn=str(g.status(s).turn),
                                                          done=counted(next(played), "action")))


@battle_app.command("list")
def list_(db: Db = None, json: Json = False) -> None:
    """List stored battles (whole ids; * marks the current one)."""
    from rulekeeper.persistence.errors import MissingStoreError

    from .current import current

    try:
        svc = _service(db)
    except MissingStoreError:  # no file, no battles: said without making the file
        from rulekeeper.persistence.urls import normalise_url

        return _no_battles(normalise_url(db), json)
    recs = svc.list()
    if not recs:
        return _no_battles(svc.store.url, json)
    mine = current(svc.store.url)
    if json:
        print_json([{**r.to_dict(), "current": r.id == mine} for r in recs])
        return
    # one column says what the battle is ("Hunters at the ford · confrontation, seed 2"), the only one that wraps;
    # the time without its year ("12-03 23:21"). On an 80-column terminal eight columns left the scenario 7
    # characters a line ("Bl… as… on the En…"), the game "wartab…" and the time "2026-… 23:21".
    console.print(rows_table("Battles", ["", "Id", "Battle", "Actions", "State", "Updated"],
                             [["*" if r.id == mine else "", r.id, f"{r.scenario} · {r.ruleset}, seed {r.seed}",
                               str(r.position), r.status, r.updated[5:16].replace("T", " ")] for r in recs],
                             whole=("Id", "Actions", "State", "Updated")))


def _no_battles(where: str, json: bool) -> None:
    """``battle list`` of a store with none (an empty table's borders said nothing about what to do next)."""
    if json:
        print_json([])
        return
    from rulekeeper.persistence.urls import sqlite_file_of

    console.print(f"No battles in {sqlite_file_of(where) or where} yet: rulekeeper battle new SCENARIO starts one "
                  "(rulekeeper games --scenarios lists the shipped scenarios).")


@battle_app.command("show")
def show(battle: BattleArg = None, db: Db = None, json: Json = False) -> None:
    """Draw the board, the units and the turn bar."""
    show_battle(battle, db, json)


@battle_app.command("undo")
def undo(battle: BattleArg = None, db: Db = None, json: Json = False) -> None:
    """Take back the last action, if none of its random results has been shown."""
    svc = _service(db)
    battle = resolve(svc, battle)
    make_current(svc, battle)
    state = svc.undo(battle)
    g = svc.game(battle)
    if json:
        print_json(_doc(g, state, battle))
        return
    console.print(Text("Last action taken back.", style="bold green"))
    _show(g, state, battle)


@battle_app.command("replay")
def replay(battle: BattleArg = None, db: Db = None, json: Json = False) -> None:
    """Replay the stored log from the start and prove every stored state identical."""
    from rulekeeper.persistence.chain import fingerprint

    svc = _service(db)
    battle = resolve(svc, battle)
    rep = svc.replay(battle)
    head = svc.record(battle).head
    if json:
        print_json({"id": battle, "identical": rep.identical, "actions": rep.actions, "differences": rep.differences,
                    "fingerprint": head and fingerprint(head)})
    elif rep.identical:
        console.print(Text(f"Replayed {counted(rep.actions, 'action')}: the final state is identical, bit for bit, "
                           f"and the hash chain is intact (fingerprint {fingerprint(head or '')}).", style="bold green"))
    else:
        console.print(Text(f"Replay differs in {counted(len(rep.differences), 'place')}:", style="bold red"))
        for d in rep.differences[:20]:
            console.print("  " + d)
    if not rep.identical:
        raise typer.Exit(1)


@battle_app.command("export")
def export(battle: BattleIdArg, file: Annotated[Path, typer.Argument(help="JSON file to write.")],
           db: Db = None) -> None:
    """Write the battle (initial set-up and whole log) to a JSON file."""
    svc = _service(db)
    battle = resolve(svc, battle)
    svc.export(battle, file)
    console.print(f"Exported {battle} to {file}")


@battle_app.command("import")
def import_(file: Annotated[Path, typer.Argument(help="A file written by battle export.")], db: Db = None,
            new_id: Annotated[bool, typer.Option(help="Give the battle a new id.")] = False, json: Json = False) -> None:
    """Read a battle from a JSON file; it must replay to the state it claims."""
    with battle_view.starting(db) as svc:  # a refused file leaves no empty database behind
        bid = svc.import_(file, new_id)
    make_current(svc, bid)
    if json:
        print_json({"id": bid})
    else:
        console.print(f"Imported battle {bid}")


@battle_app.command("autoplay")
def autoplay(
    battle: BattleArg = None,
    side: Annotated[list[str] | None, typer.Option(help="Side(s) the policy plays (e.g. A or B); default all.")] = None,
    max_actions: Annotated[int, typer.Option(help="Stop after this many actions.")] = 5000,
    policy: Annotated[str, typer.Option(
        "--policy", help="Who plays: simple (the game's shipped policy) or search (the keeper's search bot).")] = "simple",
    budget: Annotated[str | None, typer.Option(
        "--budget", help="The search's budget per move: 1s, 250ms, 200 (simulations) or easy/normal/strong "
                         "(default normal).")] = None,
    explain: Explain = False,
    db: Db = None,
    json: Json = False,
) -> None:
    """Let a policy play one or all sides (until another side must act or the battle ends)."""
    from .bot_cmds import autoplay_policy

    svc = _service(db)
    battle = resolve(svc, battle)
    make_current(svc, battle)
    g = svc.game(battle)
    chooser = autoplay_policy(g, policy, budget, svc.record(battle).seed)
    decisions = [] if chooser is None else chooser.decisions
    state = _autoplay(svc, battle, set(side) if side else None, max_actions, quiet=json or explain, policy=chooser)
    if json:
        print_json(_doc(g, state, battle, policy=policy, decisions=[d.to_json() for d in decisions]))
        return
    if explain:
        from .bot_cmds import decided, explanation

        for decision in decisions:
            console.print(explanation(decided(decision), top=3))
    _show(g, state, battle)


def register(app: typer.Typer) -> None:
    from . import act_cmds, dice_cmds  # noqa: F401  (actions, act, use; dice, contribute, verify: they add to battle_app)

    app.add_typer(battle_app, name="battle")
