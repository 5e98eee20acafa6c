"""``rulekeeper battle ...``: create, show, act, undo, replay, export/import and autoplay battles."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.progress import BarColumn, Progress, TextColumn
from rich.text import Text

from rulekeeper.persistence.store import BattleStore
from rulekeeper.rulesets.exillis.battle.actions import Action
from rulekeeper.rulesets.exillis.battle.odds import preview
from rulekeeper.rulesets.exillis.battle.result import summary
from rulekeeper.rulesets.exillis.battle.setup import state_to_dict
from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.battle.turnbar import predict
from rulekeeper.rulesets.exillis.muster_battle import BattleSetupError, parse_board, scenario_from_musters
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.scenario import Scenario
from rulekeeper.service.battles import BattleService

from .board_view import board_table, odds_line, outcome_view, turn_bar, units_table
from .fate_screen import rows_table
from .output import console, print_json

battle_app = typer.Typer(help="Play a whole Ex illis battle, stored in a database.", no_args_is_help=True)

Db = Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir; env RULEKEEPER_DB).")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def _service(db: str | None) -> BattleService:
    return BattleService(BattleStore(db))


def _result_view(state: BattleState) -> Any:
    r = summary(state)
    rows = []
    for side, army in r["armies"].items():
        for u in army["units"]:
            rows.append([side, army["name"], u["unit"], u["status"], f"{u['left']}/{u['miniatures']}", str(u["casualties"])])
    bp = f"{r['battle_points']} BP each" + (f" (none: {r['battle_points_note']})" if r["battle_points_note"] else "")
    return Group(
        Text(f"Battle over — winner: {r['winner_army']} ({r['reason']}); {bp}", style="bold green"),
        rows_table("Result", ["Side", "Army", "Unit", "Status", "Left", "Casualties"], rows),
    )


def _show(state: BattleState, bid: str) -> None:
    console.print(Text(f"Battle {bid}", style="bold"))
    console.print(board_table(state))
    if state.over:
        console.print(_result_view(state))
    else:
        console.print(turn_bar(state))
        console.print(Text(f"Active: {' + '.join(state.active)}", style="bold yellow"))


@battle_app.command("new")
def new(
    scenario: Annotated[Path | None, typer.Argument(
        help="Scenario file, e.g. examples/exillis/starter.toml (or give two --muster instead).")] = None,
    muster: Annotated[list[Path] | None, typer.Option(
        "--muster", help="A muster file (YAML or TOML); give exactly two: side A, then side B.")] = None,
    board: Annotated[str | None, typer.Option(
        "--board", help="Board of a battle from musters, columns x rows (default 5x4).")] = None,
    db: Db = None,
    seed: Annotated[int, typer.Option(help="Seed of fate.")] = 0,
    autoplay: Annotated[bool, typer.Option("--autoplay", help="Let the policy play both sides to the end.")] = False,
    practice: Annotated[bool, typer.Option(help="A practice game (no Battle Points).")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", help="Ruleset option NAME=VALUE.")] = None,
    json: Json = False,
) -> None:
    """Create a battle from a scenario, or from two musters, and store it."""
    svc = _service(db)
    opts = ExIllisOptions.parse(option)
    if muster or board is not None:
        sc, meta = _from_musters(svc, scenario, muster or [], board, db)
        bid = svc.new(sc, seed, opts, practice, meta=meta)
    elif scenario is None:
        raise BattleSetupError("give a scenario file, or two musters: rulekeeper battle new --muster A.yaml "
                               "--muster B.yaml [--board 5x4]")
    else:
        bid = svc.new(scenario, seed, opts, practice)
    state = svc.state(bid)
    if autoplay:
        state = _autoplay(svc, bid, None, 5000, quiet=json)
    if json:
        print_json({"id": bid, "state": state_to_dict(state), "result": summary(state) if state.over else None})
        return
    console.print(Text(f"Created battle {bid} ({state.scenario}, seed {seed}) in {svc.store.url}", style="bold green"))
    _show(state, bid)


def _from_musters(svc: BattleService, scenario: Path | None, files: list[Path], board: str | None,
                  db: str | None) -> tuple[Scenario, dict[str, Any]]:
    """The scenario and battle meta of a battle between two muster files (side A first)."""
    from rulekeeper.persistence.campaign import CampaignStore
    from rulekeeper.rulesets.exillis.muster import load_muster
    from rulekeeper.rulesets.exillis.musters_data import load_musters_data
    from rulekeeper.service.campaign import check_musters, muster_meta

    if scenario is not None:
        raise BattleSetupError(f"give a scenario file ({scenario}) or musters, not both: a battle from musters "
                               "builds its own scenario" + ("" if files else " (--board only applies to musters)"))
    if len(files) != 2:
        raise BattleSetupError(f"a battle from musters needs exactly two --muster files (side A, then side B); "
                               f"got {len(files)}", musters=[str(f) for f in files])
    width, height = parse_board(board or "5x4")
    data = load_musters_data()
    a, b = load_muster(files[0]), load_muster(files[1])
    sc = scenario_from_musters(a, b, width, height, roster=svc.t.roster, rules=svc.t.rules, data=data)
    with CampaignStore(db) as campaign:
        check_musters(campaign, (a, b), svc.t.roster)
    return sc, muster_meta(a, b, svc.t.roster, data)


def _autoplay(svc: BattleService, bid: str, sides: set[str] | None, max_actions: int, quiet: bool) -> BattleState:
    if quiet:
        return svc.autoplay(bid, sides, max_actions)
    with Progress(TextColumn("[bold]autoplay"), BarColumn(), TextColumn("{task.completed} actions, round {task.fields[round]}"),
                  console=console, transient=True) as bar:
        task = bar.add_task("autoplay", total=None, round="0")
        return svc.autoplay(bid, sides, max_actions, progress=lambda s: bar.update(task, advance=1, round=f"{s.round:.1f}"))


@battle_app.command("list")
def list_(db: Db = None, json: Json = False) -> None:
    """List stored battles."""
    recs = _service(db).list()
    if json:
        print_json([r.to_dict() for r in recs])
        return
    console.print(rows_table("Battles", ["Id", "Scenario", "Seed", "Actions", "State", "Updated"],
                             [[r.id, r.scenario, str(r.seed), str(r.position), r.status, r.updated] for r in recs]))


@battle_app.command("show")
def show(battle: Annotated[str, typer.Argument(help="Battle id.")], db: Db = None, json: Json = False) -> None:
    """Draw the board, the units and the turn bar."""
    svc = _service(db)
    state = svc.state(battle)
    if json:
        print_json({"id": battle, "state": state_to_dict(state), "turn_bar": [list(g) for g in predict(state)],
                    "result": summary(state) if state.over else None})
        return
    _show(state, battle)
    console.print(units_table(state))


@battle_app.command("actions")
def actions(battle: Annotated[str, typer.Argument(help="Battle id.")], db: Db = None, json: Json = False) -> None:
    """The active unit's legal actions, their AcP cost and the odds of those with chance."""
    svc = _service(db)
    state, legal = svc.legal(battle)
    rows = [(lg, preview(state, svc.t, lg)) for lg in legal]
    if json:
        print_json({"active": list(state.active), "actions": [
            {**lg.action.to_dict(), "acp": lg.acp, "note": lg.note, "odds": odds} for lg, odds in rows]})
        return
    if state.over:
        console.print(_result_view(state))
        return
    console.print(rows_table(f"Legal actions of {' + '.join(state.active)}", ["Action", "AcP", "Odds", "Note"],
                             [[lg.action.text(), f"{lg.acp:g}", odds_line(o), lg.note] for lg, o in rows]))


@battle_app.command("act")
def act(
    battle: Annotated[str, typer.Argument(help="Battle id.")],
    kind: Annotated[str, typer.Argument(help="move, charge, fight, shoot, cast, retreat, wait, stance, take_off, land, reload, rally, verse.")],
    unit: Annotated[str, typer.Argument(help="The acting unit (name or key).")],
    target: Annotated[str | None, typer.Argument(help="Zone (B3) or target unit (for cast), or the stance name.")] = None,
    shot: Annotated[str | None, typer.Option(help="Shot type for shoot: shot, aim, swift_shot, volley_fire, firebolt.")] = None,
    spell: Annotated[str | None, typer.Option(help="Spell for cast.")] = None,
    db: Db = None,
    json: Json = False,
) -> None:
    """Perform one action and print the Fate Screen of everything it caused."""
    svc = _service(db)
    option = shot or spell
    if kind == "stance":
        option, target = target, None
    elif kind == "shoot" and option is None:
        option = "shot"
    state = svc.state(battle)
    if kind == "cast" and target is not None:
        target = state.find(target).key
    if target is not None and kind in ("move", "charge", "retreat", "shoot"):
        target = state.board.name(state.board.parse(target))
    out, pos = svc.act(battle, Action(kind, unit, target, option))
    if json:
        print_json({"id": battle, "position": pos, "action": out.action.to_dict(), **out.to_result(),
                    "state": state_to_dict(out.state), "result": summary(out.state) if out.state.over else None})
        return
    console.print(Text(f"{out.action.text()} ({out.legal.acp:g} AcP)", style="bold"))
    console.print(outcome_view(list(out.report)))
    _show(out.state, battle)


@battle_app.command("undo")
def undo(battle: Annotated[str, typer.Argument(help="Battle id.")], db: Db = None, json: Json = False) -> None:
    """Take back the last action, if none of its random results has been shown."""
    state = _service(db).undo(battle)
    if json:
        print_json({"id": battle, "state": state_to_dict(state)})
        return
    console.print(Text("Last action taken back.", style="bold green"))
    _show(state, battle)


@battle_app.command("replay")
def replay(battle: Annotated[str, typer.Argument(help="Battle id.")], db: Db = None, json: Json = False) -> None:
    """Replay the stored log from the start and prove the final state identical."""
    rep = _service(db).replay(battle)
    if json:
        print_json({"id": battle, "identical": rep.identical, "actions": rep.actions, "differences": rep.differences})
    elif rep.identical:
        console.print(Text(f"Replayed {rep.actions} actions: the final state is identical, bit for bit.", style="bold green"))
    else:
        console.print(Text(f"Replay differs in {len(rep.differences)} place(s):", style="bold red"))
        for d in rep.differences[:20]:
            console.print("  " + d)
    if not rep.identical:
        raise typer.Exit(1)


@battle_app.command("export")
def export(battle: Annotated[str, typer.Argument(help="Battle id.")], file: Annotated[Path, typer.Argument(help="JSON file to write.")],
           db: Db = None) -> None:
    """Write the battle (initial set-up and whole log) to a JSON file."""
    _service(db).export(battle, file)
    console.print(f"Exported {battle} to {file}")


@battle_app.command("import")
def import_(file: Annotated[Path, typer.Argument(help="A file written by battle export.")], db: Db = None,
            new_id: Annotated[bool, typer.Option(help="Give the battle a new id.")] = False, json: Json = False) -> None:
    """Read a battle from a JSON file; it must replay to the state it claims."""
    bid = _service(db).import_(file, new_id)
    if json:
        print_json({"id": bid})
    else:
        console.print(f"Imported battle {bid}")


@battle_app.command("autoplay")
def autoplay(
    battle: Annotated[str, typer.Argument(help="Battle id.")],
    side: Annotated[list[str] | None, typer.Option(help="Side(s) the policy plays (A or B); default both.")] = None,
    max_actions: Annotated[int, typer.Option(help="Stop after this many actions.")] = 5000,
    db: Db = None,
    json: Json = False,
) -> None:
    """Let the simple policy play one or both sides (until the other side must act or the battle ends)."""
    svc = _service(db)
    state = _autoplay(svc, battle, set(side) if side else None, max_actions, quiet=json)
    if json:
        print_json({"id": battle, "state": state_to_dict(state), "result": summary(state) if state.over else None})
        return
    _show(state, battle)


def register(app: typer.Typer) -> None:
    app.add_typer(battle_app, name="battle")
