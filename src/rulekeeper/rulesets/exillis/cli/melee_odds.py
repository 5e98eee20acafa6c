"""The melee calculator's work without Typer: the zone, its context and the Fate Screen of ``odds exillis melee``.

Why apart from :mod:`.calculator`: ``rulekeeper odds exillis melee Billmen "Franc Chevalers"`` is run
by :mod:`.quick` without the CLI's Typer tree (Typer's parameter adapters alone cost it 200 ms, issue 22,
point 6), and the Typer command runs the same functions, so both print the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group

from rulekeeper.cli.fate_screen import explain_panel, odds_table, pct
from rulekeeper.cli.output import console, print_json
from rulekeeper.cli.whole_view import whole_table
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.whole import WholeOdds
from rulekeeper.rulesets.exillis.combatants import Combatant
from rulekeeper.rulesets.exillis.melee import MeleeContext, duel_odds, target_odds
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.setup import Tables, UnitSpec, build, load_tables


def melee_zone(
    tables: Tables, opts: ExIllisOptions, attacker: str, defender: str, *, a_size: int | None, d_size: int | None, level: int,
    a_fatigue: float, d_fatigue: float, a_stance: str, d_stance: str, d_moved: bool,
    others: list[str], allies: list[str], a_morale: float | None, d_morale: float | None,
    generals: list[str] | None = None,
) -> tuple[Combatant, ...]:
    taken: set[str] = set()
    wanted = {tables.roster.get(g).name for g in (generals or [])}
    if len(wanted) > 2:
        raise ImpossibleRequestError("each army has at most one General")

    def gen(name: str) -> bool:
        return tables.roster.get(UnitSpec.parse(name).name).name in wanted

    a = build(tables, UnitSpec(attacker, a_size, level, a_fatigue, 0.0, a_morale, a_stance), "attacker", taken, options=opts, general=gen(attacker))
    d = build(tables, UnitSpec(defender, d_size, level, d_fatigue, 0.0, d_morale, d_stance, d_moved), "defender", taken, options=opts, general=gen(defender))
    zone = [a, d]
    zone += [build(tables, UnitSpec.parse(s, level), "defender", taken, options=opts, general=gen(s)) for s in others]
    zone += [build(tables, UnitSpec.parse(s, level), "attacker", taken, options=opts, general=gen(s)) for s in allies]
    return tuple(zone)


def melee_common(
    attacker: str, defender: str, action: str, direction: str, attacker_size: int | None, defender_size: int | None,
    level: int, attacker_fatigue: float, defender_fatigue: float, attacker_stance: str, defender_stance: str,
    defender_moved: bool, with_: list[str] | None, ally: list[str] | None, attacker_morale: float | None,
    defender_morale: float | None, data: Path | None, option: list[str] | None, general: list[str] | None = None,
) -> tuple[tuple[Combatant, ...], MeleeContext]:
    opts = ExIllisOptions.parse(option)
    tables = load_tables(data)
    zone = melee_zone(
        tables, opts, attacker, defender, a_size=attacker_size, d_size=defender_size, level=level,
        a_fatigue=attacker_fatigue, d_fatigue=defender_fatigue, a_stance=attacker_stance, d_stance=defender_stance,
        d_moved=defender_moved, others=with_ or [], allies=ally or [], a_morale=attacker_morale, d_morale=defender_morale,
        generals=general,
    )
    return zone, MeleeContext(tables.rules, opts, action, direction)


def melee_odds(zone: tuple[Combatant, ...], ctx: MeleeContext, action: str, direction: str, json: bool,
               whole: WholeOdds | None = None) -> None:
    """``odds``: the target assignment of the first attack and one Fate Screen per enemy unit, nothing rolled."""
    att = zone[0]
    targets = target_odds(att, zone)
    duels = {c.key: duel_odds(att, c, ctx) for c in zone if c.side != att.side}
    if json:
        print_json({
            "ruleset": "exillis", "kind": "melee", "action": action, "direction": direction,
            "options": ctx.options.to_dict(),
            "targets": {k: p for k, p in targets},
            "duels": {k: o.to_dict() for k, o in duels.items()},
            **({"whole": whole.to_dict()} if whole is not None else {}),
        })
        return
    screen: list[Any] = [whole_table(whole, "The whole round")] if whole is not None else []
    if len(targets) > 1:
        screen.append(odds_table("Target assignment (Aggressiveness WRD, first attack)", targets))
    for key, o in duels.items():
        screen.append(odds_table(f"Fate Screen: {att.key} {action} → {key} ({direction})", o.odds, o.weights, o.damage))
        screen.append(f"Chance that {key} retaliates after this attack: {pct(o.retaliation_chance)}")
        screen.append(explain_panel(o.explain))
    console.print(Group(*screen))


#: The melee command's defaults (``calculator.melee``), for everything but the two units and ``--json``.
DEFAULTS: dict[str, Any] = {
    "action": "fight", "direction": "front", "attacker_size": None, "defender_size": None, "level": 1,
    "attacker_fatigue": 0.0, "defender_fatigue": 0.0, "attacker_stance": "none", "defender_stance": "none",
    "defender_moved": False, "with_": None, "ally": None, "attacker_morale": None, "defender_morale": None,
    "data": None, "option": None, "general": None,
}


def plain_melee_odds(attacker: str, defender: str, json: bool) -> None:
    """``odds exillis melee ATTACKER DEFENDER [--json]``: what the Typer command does with its defaults."""
    d = DEFAULTS
    zone, ctx = melee_common(
        attacker, defender, d["action"], d["direction"], d["attacker_size"], d["defender_size"], d["level"],
        d["attacker_fatigue"], d["defender_fatigue"], d["attacker_stance"], d["defender_stance"], d["defender_moved"],
        d["with_"], d["ally"], d["attacker_morale"], d["defender_morale"], d["data"], d["option"], d["general"],
    )
    melee_odds(zone, ctx, d["action"], d["direction"], json)
