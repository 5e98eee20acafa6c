"""``rulekeeper odds|resolve battlesystem …`` and ``rulekeeper units battlesystem``.

The commands only gather units and options, call the rules library (:mod:`.odds`,
:mod:`.combat`, :mod:`.barrage`) and print a Rich table with the guide's own arithmetic
(``5d10+6+0-20 (or simply 5d10-14)``) or JSON. Every mistake is a typed
:class:`RulekeeperError`, which becomes exit code 2 and a one-line message.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table

from rulekeeper.cli.output import console, fail, print_json
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError, RulekeeperError

from .barrage import resolve_barrage
from .combat import Reach, Unit, attack_request, resolve_attack
from .command import command
from .odds import attack_odds, barrage_odds
from .options import BattleSystemOptions
from .units import FIELDS, AttackKind, UnitTypes, load_unit_types

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks

odds_bs = typer.Typer(help="Battle System: exact odds of attacks, missiles and barrages.", no_args_is_help=True)
resolve_bs = typer.Typer(help="Battle System: resolve an attack, a missile or a barrage with seeded fate.",
                         no_args_is_help=True)

OptionList = Annotated[list[str] | None, typer.Option("--option", help="A rules reading, NAME=VALUE.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON.")]
Seed = Annotated[int, typer.Option("--seed", help="Seed of fate (the same seed, the same rolls).")]
Soldiers = Annotated[int | None, typer.Option(help="Soldiers left (default: a full unit).")]


Whole = Annotated[bool, typer.Option("--whole", help="The whole attack: casualties on both sides, morale damage, "
                                                    "who flees (what the web preview shows).")]


def _unit(name: str, soldiers: int | None = None, morale: int | None = None) -> Unit:
    u = Unit.fresh(load_unit_types().get(name))
    return Unit(u.card, u.name, u.soldiers if soldiers is None else soldiers, u.morale if morale is None else morale,
                u.ammunition)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def _dist(d: dict[int, Fraction]) -> dict[str, float]:
    return {str(k): float(v) for k, v in sorted(d.items())}


def _whole(a: Unit, d: Unit, kind: AttackKind, opts: BattleSystemOptions, as_json: bool) -> None:
    """``--whole``: :func:`~.whole.unit_attack_whole`, what the web keeper's preview shows."""
    from rulekeeper.cli.fate_screen import explain_panel, rows_table

    from .whole import unit_attack_whole

    whole = unit_attack_whole(a, d, kind, 0, opts)
    if as_json:
        print_json({"ruleset": "battlesystem", "kind": "whole", "attacker": a.name, "defender": d.name,
                    **whole.to_dict()})
        return
    console.print(rows_table(f"Whole attack: {a.name} {kind} {d.name}", ("What", "Outcome", "Chance", ""),
                             [list(r) for r in whole.rows()]))
    console.print(explain_panel([whole.caption()]))


def _odds(kind: AttackKind, attacker: str, defender: str, soldiers: int | None, morale: int | None,
          options: list[str] | None, as_json: bool, whole: bool = False) -> None:
    try:
        opts = BattleSystemOptions.parse(options)
        a, d = _unit(attacker), _unit(defender, soldiers, morale)
        if whole:
            _whole(a, d, kind, opts, as_json)
            return
        odds = attack_odds(a, d, kind, 0, opts)
        formula = attack_request(a, d, kind).explain[0]
        mean = sum((o * p for o, p in odds.casualties.items()), Fraction(0))
        if as_json:
            print_json({"ruleset": "battlesystem", "kind": kind, "attacker": a.name, "defender": d.name,
                        "formula": formula, "p_fail": float(odds.p_fail), "mean_casualties": float(mean),
                        "p_defender_flees": float(odds.p_breaks(d.morale)), "defender_fleeing": d.fleeing,
                        "casualties": _dist(odds.casualties),
                        "attacker_losses": _dist(odds.attacker_losses),
                        "morale_damage": _dist(odds.morale_to_defender)})
            return
        table = Table(title=f"Fate Screen: {a.name} {kind} {d.name} — {formula}", box=box.SIMPLE_HEAVY)
        for col in ("Casualties", "Chance", "Morale damage", "Chance "):
            table.add_column(col, justify="right")
        cas, mor = sorted(odds.casualties.items()), sorted(odds.morale_to_defender.items())
        for i in range(max(len(cas), len(mor))):
            c = cas[i] if i < len(cas) else None
            m = mor[i] if i < len(mor) else None
            table.add_row(*(["", ""] if c is None else [str(c[0]), _pct(c[1])]),
                          *(["", ""] if m is None else [str(m[0]), _pct(m[1])]))
        console.print(table)
        flee = (f"{d.name} already flee (morale 0): no morale roll" if d.fleeing else
                f"{d.name} flee (morale {d.morale} → 0) {_pct(odds.p_breaks(d.morale))}")
        console.print(f"Mean casualties {float(mean):.2f}; the attack fails (hurts {a.name}) {_pct(odds.p_fail)}; "
                      f"{flee}")
    except RulekeeperError as exc:
        fail(exc, as_json)


@odds_bs.command("attack", help="A normal attack: casualties, the failed-attack chance and the morale damage.")
def odds_attack(attacker: str, defender: str, soldiers: Soldiers = None,
                morale: Annotated[int | None, typer.Option(help="Defender's morale left.")] = None,
                option: OptionList = None, whole: Whole = False, as_json: Json = False) -> None:
    _odds("melee", attacker, defender, soldiers, morale, option, as_json, whole)


@odds_bs.command("missile", help="A missile attack: casualties and morale damage (a failure hurts nobody).")
def odds_missile(attacker: str, defender: str, soldiers: Soldiers = None,
                 morale: Annotated[int | None, typer.Option(help="Defender's morale left.")] = None,
                 option: OptionList = None, whole: Whole = False, as_json: Json = False) -> None:
    _odds("missile", attacker, defender, soldiers, morale, option, as_json, whole)


def _resolved(kind: AttackKind, attacker: str, defender: str, seed: int, distance: int, options: list[str] | None,
              as_json: bool) -> None:
    try:
        fate = Fate.from_seed(seed)
        res = resolve_attack(fate, _unit(attacker), _unit(defender), Reach(distance), 0,
                             BattleSystemOptions.parse(options), kind)
        out: dict[str, Any] = {"ruleset": "battlesystem", "kind": kind, "seed": seed, "formula": res.formula,
                               "roll": res.roll, "casualties": res.casualties, "attacker_losses": res.attacker_losses,
                               "ammunition_spent": res.ammunition_spent,
                               "morale_damage": None if res.morale is None else res.morale.damage,
                               "chance": fate.record_dicts()}
        if as_json:
            print_json(out)
            return
        console.print(f"{res.attacker.name} {kind} {res.defender.name}, seed {seed}: {res.formula} rolls {res.roll}")
        console.print(f"  {res.defender.name} lose {res.casualties}; {res.attacker.name} lose {res.attacker_losses}"
                      + (f"; morale damage {res.morale.damage} to {res.morale.victim}" if res.morale else ""))
    except RulekeeperError as exc:
        fail(exc, as_json)


Distance = Annotated[int, typer.Option(help="Hexes between the two units.")]


@resolve_bs.command("attack", help="Resolve a normal attack with seeded fate.")
def resolve_attack_cmd(attacker: str, defender: str, seed: Seed = 1, distance: Distance = 1,
                       option: OptionList = None, as_json: Json = False) -> None:
    _resolved("melee", attacker, defender, seed, distance, option, as_json)


@resolve_bs.command("missile", help="Resolve a missile attack (needs ammunition, range and sight; spends 1).")
def resolve_missile_cmd(attacker: str, defender: str, seed: Seed = 1, distance: Distance = 2,
                        option: OptionList = None, as_json: Json = False) -> None:
    _resolved("missile", attacker, defender, seed, distance, option, as_json)


@resolve_bs.command("barrage", help="Resolve a barrage on a hex: full damage on it, half on the adjacent units.")
def resolve_barrage_cmd(
    artillery: str,
    target: Annotated[str | None, typer.Argument(help="The unit on the targeted hex (none: an empty hex).")] = None,
    adjacent: Annotated[list[str] | None, typer.Option("--adjacent", help="A unit on an adjacent hex.")] = None,
    seed: Seed = 1, option: OptionList = None, as_json: Json = False,
) -> None:
    try:
        fate = Fate.from_seed(seed)
        opts = BattleSystemOptions.parse(option)
        art, tgt = _unit(artillery), None if target is None else _unit(target)
        near = [_unit(n) for n in adjacent or []]
        odds = barrage_odds(art, tgt, near, 0, opts)
        res = resolve_barrage(fate, art, tgt, near, 0, opts)
        hits = [{"unit": h.unit.name, "on_target": h.on_target, "formula": h.formula, "casualties": h.casualties,
                 "morale_damage": None if h.morale is None else h.morale.damage,
                 "mean_casualties": float(sum((o * p for o, p in o_.casualties.items()), Fraction(0)))}
                for h, o_ in zip(res.hits, odds, strict=True)]
        if as_json:
            print_json({"ruleset": "battlesystem", "kind": "barrage", "seed": seed, "formula": res.formula,
                        "roll": res.roll, "hits": hits, "ammunition_spent": res.ammunition_spent,
                        "chance": fate.record_dicts()})
            return
        console.print(f"{art.name} barrage, seed {seed}: {res.formula} rolls {res.roll}")
        for h in hits:
            console.print(f"  {h['unit']}: {h['formula']} → {h['casualties']} lost "
                          f"(mean {h['mean_casualties']:.1f}), morale damage {h['morale_damage']}")
    except RulekeeperError as exc:
        fail(exc, as_json)


SHORT = {"movement": "move", "melee": "mel", "missile": "mis", "barrage": "bar", "damage_reduction": "DR",
         "range": "rng", "ammunition": "ammo", "soldiers": "men", "morale": "mor"}


def units_command(as_json: bool, data: Path | None, level: int | None) -> None:
    """``units battlesystem``: the thirteen cards, then our General (data/command.yaml), each number with its
    source (seed, estimated, user)."""
    if level is not None:
        raise ImpossibleRequestError("Battle System units have no levels (no --level)")
    types = load_unit_types([data] if data is not None else [])
    types = UnitTypes((*types.types, command().general))
    if as_json:
        print_json([t.to_json() for t in types.types])
        return
    table = Table(title="Battle System units (bold: from the guide; * estimated, see the why in --json)",
                  box=box.SIMPLE, pad_edge=False)
    table.add_column("Unit", no_wrap=True)
    for f in FIELDS:
        table.add_column(SHORT.get(f, f), justify="right")
    for t in types.types:
        cells = []
        for f in FIELDS:
            value, (source, _) = getattr(t, f), t.provenance[f]
            text = "-" if value is None else str(value)
            cells.append(f"[bold]{text}[/]" if source == "seed" else text + ("*" if source == "estimated" else ""))
        table.add_row(t.name, *cells)
    console.print(table)


def register(hooks: CliHooks) -> None:
    """Plug the commands into the CLI."""
    hooks.odds.add_typer(odds_bs, name="battlesystem")
    hooks.resolve.add_typer(resolve_bs, name="battlesystem")
    hooks.add_units("battlesystem", units_command)
