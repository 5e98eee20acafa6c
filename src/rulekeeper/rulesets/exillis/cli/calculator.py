"""``rulekeeper odds exillis ...`` and ``rulekeeper resolve exillis ...``: melee, shoot, cast."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Group
from rich.text import Text

from rulekeeper.cli.fate_screen import explain_panel, odds_table, pct, rows_table, styled
from rulekeeper.cli.output import console, print_json
from rulekeeper.cli.whole_view import whole_table
from rulekeeper.core.chance import Fate
from rulekeeper.core.whole import WholeOdds
from rulekeeper.rulesets.exillis.combatants import Combatant
from rulekeeper.rulesets.exillis.melee import MeleeContext, MeleeReport, resolve_round
from rulekeeper.rulesets.exillis.morale import state_of
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.setup import Tables, UnitSpec, build, load_tables

from .melee_odds import melee_common, melee_odds

if TYPE_CHECKING:  # shooting and casting are imported by their own commands (``odds exillis melee`` stays light)
    from rich.table import Table

    from rulekeeper.rulesets.exillis.aftermath import MoraleChange
    from rulekeeper.rulesets.exillis.ranged import ShotSetup

#: ``--whole``: the distribution of the whole round or volley, computed (see :mod:`..whole`).
Whole = Annotated[bool, typer.Option("--whole", help="Also the whole round or volley: the distribution of enemy "
                                     "killed, own losses and morale after, computed (not sampled).")]

odds_ex = typer.Typer(help="Ex illis: the Fate Screen before a roll.", no_args_is_help=True)
resolve_ex = typer.Typer(help="Ex illis: resolve with seeded fate.", no_args_is_help=True)

Data = Annotated[Path | None, typer.Option("--data", help="YAML/TOML file overriding unit stats or action data.")]
Opt = Annotated[list[str] | None, typer.Option("--option", help="Ruleset option NAME=VALUE (see docs/rules/exillis.md).")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
Level = Annotated[int, typer.Option("--level", help="Level of every unit (unless set per side).")]
Seed = Annotated[int, typer.Option("--seed", help="Seed of fate: same seed, same result.")]


def _units_table(zone: tuple[Combatant, ...]) -> Table:
    return rows_table(
        "Units in the zone", ["Unit", "Side", "Miniatures", "HP each", "Morale", "State", "Fatigue"],
        [
            [c.key, c.side, f"{c.count}/{len(c.hp)}", " ".join(f"{h:.0f}" for h in c.hp if h > 0) or "—",
             f"{c.morale:.0f}", state_of(c), f"{c.fatigue:g}"]
            for c in zone
        ],
    )


def _mode(ctx: typer.Context) -> str:
    """``odds`` or ``resolve``: the group a shared command was called through."""
    group = ctx.parent.parent if ctx.parent is not None else None
    return str(group.info_name) if group is not None else "odds"


def melee(
    tctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="Attacking unit, e.g. Billmen.")],
    defender: Annotated[str, typer.Argument(help="Defending unit, e.g. 'Franc Chevalers'.")],
    seed: Seed = 0,
    action: Annotated[str, typer.Option(help="fight or charge.")] = "fight",
    direction: Annotated[str, typer.Option(help="front, flank or rear (of the defender).")] = "front",
    attacker_size: Annotated[int | None, typer.Option(help="Miniatures in the attacking unit.")] = None,
    defender_size: Annotated[int | None, typer.Option(help="Miniatures in the defending unit.")] = None,
    level: Level = 1,
    attacker_fatigue: Annotated[float, typer.Option(help="Attacker's Fatigue Points.")] = 0.0,
    defender_fatigue: Annotated[float, typer.Option(help="Defender's Fatigue Points.")] = 0.0,
    attacker_stance: Annotated[str, typer.Option(help="none, defensive or offensive.")] = "none",
    defender_stance: Annotated[str, typer.Option(help="none, defensive or offensive.")] = "none",
    defender_moved: Annotated[bool, typer.Option(help="The defender moved last turn (Bulk halved).")] = False,
    with_: Annotated[list[str] | None, typer.Option("--with", help="Another enemy unit in the zone, NAME[:COUNT].")] = None,
    ally: Annotated[list[str] | None, typer.Option("--ally", help="Another unit of the attacker's side, NAME[:COUNT].")] = None,
    attacker_morale: Annotated[float | None, typer.Option(help="Attacker's morale points.")] = None,
    defender_morale: Annotated[float | None, typer.Option(help="Defender's morale points.")] = None,
    general: Annotated[list[str] | None, typer.Option(help="A hero in the zone who is the army's General (HP bonus).")] = None,
    data: Data = None,
    option: Opt = None,
    json: Json = False,
    whole: Whole = False,
) -> None:
    """Odds of one attack (``odds``), or a seeded round by every miniature (``resolve``)."""
    zone, ctx = melee_common(
        attacker, defender, action, direction, attacker_size, defender_size, level, attacker_fatigue,
        defender_fatigue, attacker_stance, defender_stance, defender_moved, with_, ally, attacker_morale,
        defender_morale, data, option, general,
    )
    if _mode(tctx) == "odds":
        odds = _whole_round(zone, ctx) if whole else None
        melee_odds(zone, ctx, action, direction, json, odds)
    else:
        _melee_round(zone, ctx, seed, json)


def _whole_round(zone: tuple[Combatant, ...], ctx: MeleeContext) -> WholeOdds | None:
    """``--whole`` for a melee round; its computation (half the battle engine) is imported only when asked."""
    from rulekeeper.rulesets.exillis.whole.compute import round_odds

    return round_odds(zone, ctx)


def _whole_volley(setup: ShotSetup) -> WholeOdds | None:
    """``--whole`` for a volley, imported only when asked (as :func:`_whole_round`)."""
    from rulekeeper.rulesets.exillis.whole.compute import volley_odds

    return volley_odds(setup)


def _duel_rows(report: MeleeReport) -> list[list[str | Text]]:
    """One table row per attack of the round: target, outcome, damage (``†`` a kill) and any retaliation."""
    rows: list[list[str | Text]] = []
    for i, d in enumerate(report.duels, 1):
        s, r = d.strike, d.retaliation
        dmg = str(s.damage) + (" †" if s.killed else "") if s.target else ""
        if s.self_damage:
            dmg = f"self −{s.self_damage}"
        ret = "—"
        if r is not None:
            ret = f"{r.outcome} {r.damage}" + (" †" if r.killed else "")
        rows.append([str(i), s.attacker, s.target or "—", styled(s.outcome), dmg,
                     f"{s.target_hp:.0f}" if s.target else "", ret])
    return rows


def _melee_round(zone: tuple[Combatant, ...], ctx: MeleeContext, seed: int, json: bool) -> None:
    """``resolve``: a seeded round by every miniature of the attacker, then casualties, morale and Fatigue."""
    fate = Fate.from_seed(seed)
    report = resolve_round(zone, zone[0].key, ctx, fate)
    if json:
        print_json({"ruleset": "exillis", "kind": "melee", "seed": seed, "options": ctx.options.to_dict(),
                    **report.to_dict(), "chance": fate.record_dicts()})
        return
    parts: list[Any] = [rows_table(
        f"Fate Screen: {report.attacker} {report.action} ({report.direction}), seed {seed}",
        ["#", "Attacker", "Target", "Outcome", "Damage", "Target HP", "Retaliation"], _duel_rows(report),
    )]
    parts.append("Casualties: " + (", ".join(report.casualties) or "none"))
    parts.append(_morale_table(report.morale))
    f = report.fatigue
    parts.append(f"Fatigue: {f.unit} +{f.gained:g} FtP ({f.before:g} → {f.after:g}; thresholds {f.thresholds_before} → {f.thresholds_after})")
    parts.append(_units_table(report.zone))
    console.print(Group(*parts))


def _morale_table(changes: list[MoraleChange]) -> Table:
    return rows_table(
        "Morale", ["Unit", "Before", "After", "State", "Why"],
        [[m.unit, f"{m.before:.0f}", f"{m.after:.0f}",
          m.state_after if m.state_before == m.state_after else f"{m.state_before} → {m.state_after}",
          "\n".join(m.reasons) or "—"] for m in changes],
    )


def _shot_setup(
    shooter: str, targets: list[str], allies_in_zone: list[str], over: list[str], over_terrain: str, terrain: str,
    distance: int, action: str, fatigue: float, veil: float, size: int | None, level: int, moved_shooter: bool,
    data: Path | None, option: list[str] | None,
) -> ShotSetup:
    from rulekeeper.rulesets.exillis.ranged import Crossed, ShotSetup

    opts = ExIllisOptions.parse(option)
    tables = load_tables(data)
    taken: set[str] = set()
    s = build(tables, UnitSpec(shooter, size, level, fatigue, veil, moved=moved_shooter), "shooter", taken, options=opts)
    zone = [build(tables, UnitSpec.parse(t, level), "enemy", taken, options=opts) for t in targets]
    zone += [build(tables, UnitSpec.parse(a, level), "shooter", taken, options=opts) for a in allies_in_zone]
    if distance == 0:
        zone.append(s)
    crossed: tuple[Crossed, ...] = ()
    if over or over_terrain != "fields":
        bulk = 0.0
        key = opts.visibility_bulk_key()
        for o in over:
            spec = UnitSpec.parse(o, level)
            p = tables.roster.get(spec.name)
            n = spec.miniatures if spec.miniatures is not None else int(p.stat("miniatures"))
            bulk += n * p.stat(key)
        crossed = (Crossed(1.0, bulk, over_terrain, "zone between"),)
    return ShotSetup(s, tuple(zone), terrain, crossed, distance, action, tables.rules, opts)


_TARGET = typer.Option("--target", help="Enemy unit in the target zone, NAME[:COUNT][:moved]; repeatable.")


def shoot(
    tctx: typer.Context,
    shooter: Annotated[str, typer.Argument(help="Shooting unit, e.g. Longbowmen.")],
    target: Annotated[list[str], _TARGET],
    seed: Seed = 0,
    ally_in_zone: Annotated[list[str] | None, typer.Option(help="Allied unit in the target zone (friendly fire), NAME[:COUNT].")] = None,
    over: Annotated[list[str] | None, typer.Option(help="Unit in the zone the shot crosses, NAME[:COUNT]; repeatable.")] = None,
    over_terrain: Annotated[str, typer.Option(help="Terrain of the crossed zone.")] = "fields",
    terrain: Annotated[str, typer.Option(help="Terrain of the target zone (cover).")] = "fields",
    range_: Annotated[int, typer.Option("--range", help="Zones to the target; 0 = own zone.")] = 1,
    action: Annotated[str, typer.Option(help="shot, aim, swift_shot, volley_fire, firebolt, lightning.")] = "shot",
    fatigue: Annotated[float, typer.Option(help="Shooter's Fatigue Points.")] = 0.0,
    veil: Annotated[float, typer.Option(help="Shooter's Veil Points.")] = 0.0,
    size: Annotated[int | None, typer.Option(help="Miniatures shooting.")] = None,
    level: Level = 1,
    data: Data = None,
    option: Opt = None,
    json: Json = False,
    whole: Whole = False,
) -> None:
    """Where each projectile may fall (``odds``), or every miniature shooting (``resolve``)."""
    setup = _shot_setup(shooter, target, ally_in_zone or [], over or [], over_terrain, terrain, range_, action,
                        fatigue, veil, size, level, False, data, option)
    from rulekeeper.rulesets.exillis.ranged import shot_odds
    from rulekeeper.rulesets.exillis.shots import resolve_shot

    if _mode(tctx) == "odds":
        volley = _whole_volley(setup) if whole else None
        if setup.data is not None and setup.data.action(action).resolution == "lightning":
            _bolts(setup, action, range_, json, volley)
            return
        o = shot_odds(setup)
        if json:
            print_json({"ruleset": "exillis", "kind": "shoot", "action": action, "range": range_,
                        "options": setup.options.to_dict(), **o.to_dict(),
                        **({"whole": volley.to_dict()} if volley is not None else {})})
            return
        if volley is not None:
            console.print(whole_table(volley, "The whole volley"))
        console.print(Group(
            odds_table(f"Fate Screen: {setup.shooter.key} {action} at range {range_}", o.odds, o.weights),
            rows_table("On a hit", ["Unit", "Missile Block", "Damage", "Damage on Luck"],
                       [[k, pct(v), "{}–{}".format(*o.damage[k]), "{}–{}".format(*o.damage[f"{k} (Luck)"])]
                        for k, v in o.block.items()]),
            explain_panel(o.explain),
        ))
        return
    fate = Fate.from_seed(seed)
    report = resolve_shot(setup, fate)  # by the action's own resolution (arrows, lightning, artillery)
    if json:
        print_json({"ruleset": "exillis", "kind": "shoot", "seed": seed, "options": setup.options.to_dict(),
                    **report.to_dict(), "chance": fate.record_dicts()})
        return
    rows: list[list[str | Text]] = [
        [str(i), s.shooter, styled(s.outcome), s.target or "—", "Blocked" if s.blocked else "",
         (f"self −{s.self_damage}" if s.self_damage else str(s.damage) + (" †" if s.killed else ""))
         if (s.target or s.self_damage) else ""]
        for i, s in enumerate(report.shots, 1)
    ]
    f = report.fatigue
    console.print(Group(
        rows_table(f"Fate Screen: {report.shooter} {report.action}, seed {seed}",
                   ["#", "Shooter", "Outcome", "Hit", "Shield", "Damage"], rows),
        "Casualties: " + (", ".join(report.casualties) or "none"),
        _morale_table(report.morale),
        f"{'Veil' if setup.data and setup.data.action(action).spell else 'Fatigue'}: {f.unit} +{f.gained:g} ({f.before:g} → {f.after:g})",
        _units_table(report.zone),
    ))


def _bolts(setup: ShotSetup, action: str, range_: int, json: bool, volley: WholeOdds | None) -> None:
    """``odds exillis shoot --action lightning``: where each bolt falls (``bolt_odds``), the whole volley above."""
    from rulekeeper.rulesets.exillis.lightning import bolt_odds

    law, lines = bolt_odds(setup)
    if json:
        print_json({"ruleset": "exillis", "kind": "shoot", "action": action, "range": range_,
                    "options": setup.options.to_dict(), "odds": dict(law), "explain": lines,
                    **({"whole": volley.to_dict()} if volley is not None else {})})
        return
    if volley is not None:
        console.print(whole_table(volley, "The whole volley"))
    console.print(Group(odds_table(f"Fate Screen: where each bolt of {setup.shooter.key} falls, range {range_}", law),
                        explain_panel(lines)))


def _cast_setup(caster: str, target: str, others: list[str], size: int | None, level: int, veil: float,
                target_veil: float, chain_from: str, chain_count: int, data: Path | None,
                option: list[str] | None) -> tuple[Combatant, tuple[Combatant, ...], Tables, ExIllisOptions]:
    opts = ExIllisOptions.parse(option)
    tables = load_tables(data)
    taken: set[str] = set()
    c = build(tables, UnitSpec(caster, size, level, 0.0, veil), "caster", taken, options=opts)
    t = build(tables, UnitSpec(target, None, level, 0.0, target_veil), "target", taken, options=opts)
    if chain_from:
        t = replace(t, chain=(chain_from.lower(), chain_count))
    zone = (t, *(build(tables, UnitSpec.parse(o, level), "target", taken, options=opts) for o in others))
    return c, zone, tables, opts


def cast(
    tctx: typer.Context,
    caster: Annotated[str, typer.Argument(help="Casting unit, e.g. Ympes.")],
    target: Annotated[str, typer.Argument(help="Target unit.")],
    seed: Seed = 0,
    spell: Annotated[str, typer.Option(help="firebolt, lightning, gust.")] = "firebolt",
    range_: Annotated[int, typer.Option("--range", help="Zones to the target.")] = 1,
    size: Annotated[int | None, typer.Option(help="Miniatures casting.")] = None,
    level: Level = 1,
    veil: Annotated[float, typer.Option(help="Caster's Veil Points.")] = 0.0,
    target_veil: Annotated[float, typer.Option(help="Target's Veil Points (lower its resistances).")] = 0.0,
    with_: Annotated[list[str] | None, typer.Option("--with", help="Another unit beside the target, NAME[:COUNT].")] = None,
    chain_from: Annotated[str, typer.Option(help="Element that last hit the target (elemental chain).")] = "",
    chain_count: Annotated[int, typer.Option(help="Chain steps already made on the target.")] = 0,
    data: Data = None,
    option: Opt = None,
    json: Json = False,
) -> None:
    """A damage spell: resist chance, damage and chain (``odds``), or every caster casting (``resolve``)."""
    c, zone, tables, opts = _cast_setup(caster, target, with_ or [], size, level, veil, target_veil, chain_from,
                                        chain_count, data, option)
    from rulekeeper.rulesets.exillis.spells import cast_odds, resolve_cast

    if _mode(tctx) == "odds":
        o = cast_odds(c, zone[0], spell, range_, tables.rules, opts)
        if json:
            print_json({"ruleset": "exillis", "kind": "cast", "spell": spell, "options": opts.to_dict(), **o.to_dict()})
            return
        console.print(Group(
            odds_table(f"Fate Screen: {c.key} cast {spell} on {zone[0].key}", o.odds, o.weights,
                       {"Spell hit": o.damage, "Resisted": (0, 0)}),
            explain_panel(o.explain),
        ))
        return
    fate = Fate.from_seed(seed)
    report = resolve_cast(c, zone, zone[0].key, spell, range_, tables.rules, opts, fate)
    if json:
        print_json({"ruleset": "exillis", "kind": "cast", "seed": seed, "options": opts.to_dict(),
                    **report.to_dict(), "chance": fate.record_dicts()})
        return
    rows: list[list[str | Text]] = [
        [str(i), r.caster, r.target, styled(r.outcome), str(r.damage) + (" †" if r.killed else ""), f"{r.target_hp:.0f}"]
        for i, r in enumerate(report.casts, 1)
    ]
    v = report.veil
    console.print(Group(
        rows_table(f"Fate Screen: {report.caster} cast {spell}, seed {seed}",
                   ["#", "Caster", "Target", "Outcome", "Damage", "Target HP"], rows),
        "Casualties: " + (", ".join(report.casualties) or "none"),
        _morale_table(report.morale),
        f"Veil: {v.unit} +{v.gained:g} VP ({v.before:g} → {v.after:g})",
        _units_table(report.zone),
    ))


odds_ex.command("melee", help="The Fate Screen of one attack: every outcome with its exact chance and damage.")(melee)
resolve_ex.command("melee", help="Resolve a whole round of attacks by every miniature of the attacking unit.")(melee)
odds_ex.command("shoot", help="Where each projectile may fall: Accurate Shot against the zone's space and cover.")(shoot)
resolve_ex.command("shoot", help="Every miniature shoots; one row per projectile, then casualties and morale.")(shoot)
odds_ex.command("cast", help="The Fate Screen of a damage spell: resist chance, damage and elemental chain.")(cast)
resolve_ex.command("cast", help="Every caster miniature casts once at the target unit.")(cast)


def register(odds_app: typer.Typer, resolve_app: typer.Typer) -> None:
    """Add ``exillis`` (and its alias) under the ``odds`` and ``resolve`` groups."""
    odds_app.add_typer(odds_ex, name="exillis")
    resolve_app.add_typer(resolve_ex, name="exillis")
    for alias in ("ex-illis",):
        odds_app.add_typer(odds_ex, name=alias, hidden=True)
        resolve_app.add_typer(resolve_ex, name=alias, hidden=True)
