"""``rulekeeper campaign ...``: award a finished battle's Battle Points, and show the campaign."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from rulekeeper.cli.fate_screen import rows_table
from rulekeeper.cli.output import console, print_json
from rulekeeper.core.wording import counted

if TYPE_CHECKING:
    from rulekeeper.persistence.campaign import CampaignUnit, Player

DEFAULT_PLAYERS = {"A": "Player A", "B": "Player B"}  # as campaign_service.DEFAULT_PLAYERS

campaign_app = typer.Typer(help="The Ex illis campaign: Battle Points, unit levels, players and Renown.",
                           no_args_is_help=True)

Db = Annotated[str | None, typer.Option("--db", help="Database file or URL (default: the user data dir; env RULEKEEPER_DB).")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def _to_next(value: int | None) -> str:
    return "max" if value is None else str(value)


def _unit_to_next(u: CampaignUnit) -> int | None:
    """BP to the unit's next level (the campaign rules, and the battle result they use, imported when shown)."""
    from rulekeeper.rulesets.exillis.campaign import bp_to_next

    return bp_to_next(u.level, u.bp, u.max_level)


def _player_to_next(p: Player) -> int | None:
    from rulekeeper.rulesets.exillis.campaign import PLAYER_MAX_LEVEL, bp_to_next

    return bp_to_next(p.level, p.bp, PLAYER_MAX_LEVEL)


@campaign_app.command("record")
def record(
    battle: Annotated[str, typer.Argument(help="Id (or a unique prefix of it) of a finished battle created with --muster.")],
    player_a: Annotated[str | None, typer.Option("--player-a", help=f"Who played side A (default {DEFAULT_PLAYERS['A']!r}).")] = None,
    player_b: Annotated[str | None, typer.Option("--player-b", help=f"Who played side B (default {DEFAULT_PLAYERS['B']!r}).")] = None,
    db: Db = None,
    json: Json = False,
) -> None:
    """Award the battle's Battle Points to every unit of both musters, once, and level them up."""
    players = {side: name for side, name in (("A", player_a), ("B", player_b)) if name}
    from rulekeeper.cli.battle_ids import resolve
    from rulekeeper.persistence.campaign import CampaignStore
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.service.battles import BattleService

    from ..campaign_service import record_battle

    with BattleStore(db) as bstore, CampaignStore(db) as cstore:
        svc = BattleService(bstore)
        battle = resolve(svc, battle)  # any unique prefix of the id
        rec = record_battle(svc, cstore, battle, players)
    s = rec.summary
    if json:
        print_json(s)
        return
    bp = f"{rec.bp} BP to every unit" + (f" (none: {rec.note})" if rec.note else "")
    console.print(Text(f"Recorded battle {battle}: {bp}", style="bold green"))
    rows: list[list[str]] = []
    for side, army in s["sides"].items():
        for u in army["units"]:
            name = u["unit"] + (f" ({u['label']})" if u["label"] else "") + (" [named]" if u["named"] else "")
            level = (f"{u['level_before']} → {u['level']}" if u["levels_gained"] else str(u["level"]))
            rows.append([side, army["muster"], name, u["status"], level, f"+{u['bp_received']}", str(u["bp"]),
                         _to_next(u["bp_to_next"]), f"+{u['skill_points_gained']}" if u["skill_points_gained"] else ""])
    console.print(rows_table("Units", ["Side", "Muster", "Unit", "Status", "Level", "BP in", "BP", "To next",
                                       "Skill pts"], rows))
    console.print(rows_table("Players", ["Player", "Sides", "Level", "Renown", "To next"], [
        [p["player"], "+".join(p["sides"]),
         f"{p['level_before']} → {p['level']}" if p["level"] != p["level_before"] else str(p["level"]),
         f"+{p['renown_gained']} = {p['renown']}", _to_next(p["bp_to_next"])] for p in s["players"]]))


def _unit_dict(u: CampaignUnit) -> dict[str, Any]:
    return u.to_dict() | {"bp_to_next": _unit_to_next(u)}


def _player_dict(p: Player) -> dict[str, Any]:
    return p.to_dict() | {"bp_to_next": _player_to_next(p)}


@campaign_app.command("show")
def show(
    muster: Annotated[str | None, typer.Option("--muster", help="Only this muster's units.")] = None,
    db: Db = None,
    json: Json = False,
) -> None:
    """Each campaign unit's level, BP and BP to the next level; the players' levels and Renown."""
    from rulekeeper.persistence.campaign import CampaignStore

    with CampaignStore(db) as store:
        units, players, battles = store.units(muster), store.players(), store.battles()
    if json:
        print_json({"units": [_unit_dict(u) for u in units], "players": [_player_dict(p) for p in players],
                    "battles": [{"battle_id": b.battle_id, "recorded": b.recorded, "bp": b.bp, "note": b.note}
                                for b in battles]})
        return
    if not units and not players:
        console.print("No battle recorded yet: rulekeeper battle new --muster A.yaml --muster B.yaml --autoplay, "
                      "then rulekeeper campaign record BATTLE.")
        return
    console.print(rows_table("Campaign units", ["Muster", "Entry", "Unit", "Level", "Max", "BP", "To next",
                                                "Skill pts", "Battles"], [
        [u.muster, f"{u.entry}" + (" (hero)" if u.kind == "hero" else ""),
         u.unit + (f" ({u.label})" if u.label else "") + (" [named]" if u.named else ""), str(u.level),
         str(u.max_level), str(u.bp), _to_next(_unit_to_next(u)), str(u.skill_points),
         str(u.battles)] for u in units]))
    console.print(rows_table("Players", ["Player", "Level", "BP", "To next", "Renown", "Battles"], [
        [p.name, str(p.level), str(p.bp), _to_next(_player_to_next(p)),
         str(p.renown), str(p.battles)] for p in players]))
    console.print(f"{counted(len(battles), 'battle')} recorded.")


def register(app: typer.Typer) -> None:
    app.add_typer(campaign_app, name="campaign")
