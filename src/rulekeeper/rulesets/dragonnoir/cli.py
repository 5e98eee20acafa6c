"""``rulekeeper odds|resolve dragonnoir combat|fire`` and ``rulekeeper units dragonnoir``.

The commands gather characters (``NAME[:mounted][:STATE][@TERRAIN[+TERRAIN]]``, :mod:`.specs`),
call the rules (:mod:`.combat`, :mod:`.fire`, :mod:`.fireodds`) and print the Fate Screen: each
letter with its exact chance and meaning, and the arithmetic that made it. Every mistake is a typed
:class:`RulekeeperError`: exit code 2 and one line (or JSON with ``--json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from rulekeeper.cli.fate_screen import explain_panel, odds_table, rows_table
from rulekeeper.cli.output import console, fail, print_json
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError, RulekeeperError
from rulekeeper.core.wording import counted

from . import OPTION_INFO
from .combat import CombatOdds, combat_odds, resolve_combat
from .data import COVER_COLUMNS, CombatResult, FireResult, SheetData, load_sheet, shipped_sheet
from .fire import LineOfFire, band_of, line_of_fire, stray_hexes, weapon_of
from .fireodds import FireOdds, StrayHex, cover_words, errare_odds, fire_odds, resolve_fire
from .render import draw_line
from .roster import CounterNumber, roster
from .scene import Piece, Scene, load_scene
from .specs import parse_fighter, parse_fighters

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks

odds_dn = typer.Typer(help="Dragon Noir: exact odds of a combat or a shot.", no_args_is_help=True)
resolve_dn = typer.Typer(help="Dragon Noir: resolve a combat or a shot with seeded fate.", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print JSON.")]
Sheet = Annotated[Path | None, typer.Option("--sheet", help="A folder of your own game-sheet files "
                                                             "(terrain/combat/fire/moves/characters .yaml).")]
Terrain = Annotated[str, typer.Option("--terrain", help="Terrain of every character given without @TERRAIN.")]
OptionList = Annotated[list[str] | None, typer.Option("--option", help="A rules reading, NAME=VALUE (dwarves=plus).")]
Attackers = Annotated[list[str], typer.Option("--attackers", "--attacker",
                                              help="Attackers, comma-separated: NAME[:mounted][:STATE][@TERRAIN].")]
Defenders = Annotated[list[str], typer.Option("--defender", "--defenders", help="Defender(s), same form.")]
Seed = Annotated[int, typer.Option("--seed", help="Seed of fate (the same seed, the same roll).")]


def _sheet(path: Path | None) -> SheetData:
    return shipped_sheet() if path is None else load_sheet(path)


def _options(options: list[str] | None) -> dict[str, str]:
    """The rules readings given as NAME=VALUE, over their defaults (``DragonNoir.options``)."""
    known = {o.name: o for o in OPTION_INFO}
    chosen = {o.name: o.default for o in OPTION_INFO}
    for o in options or []:
        name, sep, value = (x.strip() for x in o.partition("="))
        if not sep or name not in known or value not in known[name].choices:
            allowed = "; ".join(f"{k}={'|'.join(v.choices)}" for k, v in known.items())
            raise ImpossibleRequestError(f"Unknown option {o!r}: Dragon Noir has {allowed}.")
        chosen[name] = value
    return chosen


def _combat(attackers: list[str], defender: list[str], terrain: str, option: list[str] | None,
            sheet: Path | None) -> CombatOdds:
    data = _sheet(sheet)
    return combat_odds(data, parse_fighters(data, attackers, terrain), parse_fighters(data, defender, terrain),
                       _options(option)["dwarves"])


def _pct_rows(letters: dict[str, Fraction], key: Mapping[str, CombatResult | FireResult]) -> list[tuple[str, float]]:
    return [(f"{k}  {key[k].text}", float(p)) for k, p in letters.items()]


def _show_combat(odds: CombatOdds) -> None:
    title = (f"Fate Screen: {' + '.join(f.label for f in odds.attackers)} attack "
             f"{' + '.join(f.label for f in odds.defenders)} at {odds.column_name} ({odds.table} table)")
    console.print(odds_table(title, _pct_rows(odds.letters, odds.key)))
    dice = "  ".join(f"{d if d < 10 else 0}:{x}" for d, x in odds.rows.items())
    console.print(explain_panel([*odds.arithmetic, f"die → result: {dice}", *odds.notes]))


def _show_whole(odds: CombatOdds, as_json: bool) -> None:
    from .whole import combat_whole

    found = combat_whole(odds)
    if as_json:
        print_json({"ruleset": "dragonnoir", "kind": "whole", **found.to_dict()})
        return
    console.print(rows_table("Whole combat: " + " + ".join(f.label for f in odds.attackers) + " attack "
                             + " + ".join(f.label for f in odds.defenders), ("What", "Outcome", "Chance", ""),
                             [list(r) for r in found.rows()]))
    console.print(explain_panel([found.caption()]))


@odds_dn.command("combat", help="The ratio, every column shift and why, the armour +1 and each result's chance.")
def odds_combat(attackers: Attackers, defender: Defenders, terrain: Terrain = "flat", option: OptionList = None,
                sheet: Sheet = None, whole: Annotated[bool, typer.Option("--whole", help="The whole result: what "
                                                                          "the combat does, its chance.")] = False,
                as_json: Json = False) -> None:
    try:
        odds = _combat(attackers, defender, terrain, option, sheet)
        if whole:
            _show_whole(odds, as_json)
            return
        if as_json:
            print_json({"ruleset": "dragonnoir", "kind": "combat", **odds.to_dict()})
        else:
            _show_combat(odds)
    except RulekeeperError as exc:
        fail(exc, as_json)


@resolve_dn.command("combat", help="Resolve a combat: one d10 through seeded fate on the odds shown by odds.")
def resolve_combat_cmd(attackers: Attackers, defender: Defenders, terrain: Terrain = "flat",
                       option: OptionList = None, sheet: Sheet = None, seed: Seed = 1, as_json: Json = False) -> None:
    try:
        odds = _combat(attackers, defender, terrain, option, sheet)
        fate = Fate.from_seed(seed)
        roll = resolve_combat(fate, odds)
        if as_json:
            print_json({"ruleset": "dragonnoir", "kind": "combat", "seed": seed, "die": roll.die,
                        "result": roll.letter, "meaning": roll.meaning, "odds": odds.to_dict(),
                        "chance": fate.record_dicts()})
            return
        console.print(f"Seed {seed}: the die shows {roll.die % 10} at {odds.column_name} on the {odds.table} table: "
                      f"{roll.letter} — {roll.meaning}")
    except RulekeeperError as exc:
        fail(exc, as_json)


# -- fire ------------------------------------------------------------------------------------------


def _fire(shooter: str, target: str, map_file: Path | None, distance: int, cover: str, terrain: str,
          sheet: Path | None) -> tuple[LineOfFire | None, FireOdds | None, Scene | None]:
    data = _sheet(sheet)
    if map_file is not None:
        scene = load_scene(map_file, data)
        line = line_of_fire(data, scene, shooter, target)
        if not line.possible or line.band is None or line.cover not in COVER_COLUMNS:
            return line, None, scene
        odds = fire_odds(data, scene.piece(shooter).fighter, scene.piece(target).fighter, line.band, line.cover)
        return line, odds, scene
    s, t = parse_fighter(data, shooter, terrain), parse_fighter(data, target, terrain)
    if distance < 1:
        raise ImpossibleRequestError(f"--range must be at least 1 hex, got {distance}.")
    if cover not in COVER_COLUMNS:
        raise ImpossibleRequestError(f"--cover must be one of {', '.join(COVER_COLUMNS)}, got {cover!r}.")
    weapon = weapon_of(Piece(s, (), "shooter"))
    band = band_of(data, weapon, distance)
    if band is None:
        raise ImpossibleRequestError(f"{counted(distance, 'hex', 'hexes')} is beyond the {weapon}'s long range.")
    if t.character.untargetable:
        raise ImpossibleRequestError("'It is impossible to shoot at an adult Black Dragon'.")
    return None, fire_odds(data, s, t, band, cover), None


def _errare(odds: FireOdds | None, line: LineOfFire | None, scene: Scene | None, sheet: Path | None) -> list[StrayHex]:
    if odds is None:
        return []
    stray = errare_odds(_sheet(sheet), odds)
    return stray if scene is None or line is None else stray_hexes(_sheet(sheet), scene, line, stray)


def _stray_dict(s: StrayHex) -> dict[str, object]:
    return {"number": s.number, "direction": s.direction, "probability": float(s.chance),
            "exact": f"{s.chance.numerator}/{s.chance.denominator}", "victims": list(s.victims), "effect": s.effect}


def _show_errare(stray: list[StrayHex]) -> None:
    table = Table(title="Errare humanum est (option): where a missed shot may end", box=box.SIMPLE)
    for col in ("Hex", "Direction", "Chance", "What happens"):
        table.add_column(col)
    for s in stray:
        table.add_row(str(s.number), s.direction, f"{float(s.chance) * 100:.1f} %", s.effect or "-")
    console.print(table)


def _show_fire(line: LineOfFire | None, odds: FireOdds | None, scene: Scene | None) -> None:
    if line is not None:
        state = "[green]clear[/]" if line.possible else "[red]blocked[/]"
        console.print(f"Line of fire {line.shooter} → {line.target}: {state}, "
                      f"{counted(line.distance, 'hex', 'hexes')} ({line.band or 'out of'} range), cover {line.cover}")
        if scene is not None:
            console.print(draw_line(scene, line), highlight=False, markup=False)
        for why in (*line.reasons, *line.notes, *line.cover_why):
            console.print(f"  • {why}", markup=False)
    if odds is not None:
        title = (f"Fate Screen: {odds.shooter} shoots {odds.target} "
                 f"({odds.weapon}, {odds.band}, {cover_words(odds.cover)})")
        console.print(odds_table(title, _pct_rows(odds.letters, odds.key)))
        dice = "  ".join(f"{d if d < 10 else 0}:{x}" for d, x in odds.rows.items())
        console.print(explain_panel([*odds.arithmetic, f"die → result: {dice}", *odds.notes]))


MapFile = Annotated[Path | None, typer.Option("--map", help="A map file (YAML) with terrain, edges and characters.")]
Range = Annotated[int, typer.Option("--range", help="Hexes to the target (without --map).")]
CoverOpt = Annotated[str, typer.Option("--cover", help="Target's cover without --map: none, light, medium, strong.")]


@odds_dn.command("fire", help="Line of fire (with --map), range band, cover and each result's chance.")
def odds_fire(shooter: Annotated[str, typer.Option("--shooter")], target: Annotated[str, typer.Option("--target")],
              map_file: MapFile = None, distance: Range = 4, cover: CoverOpt = "none", terrain: Terrain = "flat",
              option: OptionList = None, sheet: Sheet = None, as_json: Json = False) -> None:
    try:
        errare = _options(option)["errare"] == "on"
        line, odds, scene = _fire(shooter, target, map_file, distance, cover, terrain, sheet)
        stray = _errare(odds, line, scene, sheet) if errare else []
        if as_json:
            print_json({"ruleset": "dragonnoir", "kind": "fire", "line": None if line is None else line.to_dict(),
                        "odds": None if odds is None else odds.to_dict(),
                        **({"errare": [_stray_dict(s) for s in stray]} if errare else {})})
        else:
            _show_fire(line, odds, scene)
            if stray:
                _show_errare(stray)
    except RulekeeperError as exc:
        fail(exc, as_json)


@resolve_dn.command("fire", help="Resolve a shot: one d10 through seeded fate on the odds shown by odds.")
def resolve_fire_cmd(shooter: Annotated[str, typer.Option("--shooter")],
                     target: Annotated[str, typer.Option("--target")], map_file: MapFile = None,
                     distance: Range = 4, cover: CoverOpt = "none", terrain: Terrain = "flat", sheet: Sheet = None,
                     seed: Seed = 1, as_json: Json = False) -> None:
    try:
        line, odds, _ = _fire(shooter, target, map_file, distance, cover, terrain, sheet)
        if odds is None:
            assert line is not None
            raise ImpossibleRequestError(f"{line.shooter} cannot shoot {line.target}: {'; '.join(line.reasons)}")
        fate = Fate.from_seed(seed)
        roll = resolve_fire(fate, odds)
        meaning = odds.key[roll.letter].text
        if as_json:
            print_json({"ruleset": "dragonnoir", "kind": "fire", "seed": seed, "die": roll.die, "result": roll.letter,
                        "meaning": meaning, "odds": odds.to_dict(), "chance": fate.record_dicts()})
            return
        console.print(f"Seed {seed}: the die shows {roll.die % 10} ({odds.modifier:+d}): {roll.letter} — {meaning}")
    except RulekeeperError as exc:
        fail(exc, as_json)


# -- units -----------------------------------------------------------------------------------------


def _cell(side: Mapping[str, CounterNumber] | None) -> str:
    """A counter side's numbers, attack/movement/defence, the seed's in bold."""
    if not side:
        return "-"
    return "/".join(f"[bold]{v['value']}[/]" if v["source"] == "seed" else f"{v['value']}"
                    for v in side.values())


def units_command(as_json: bool, data: Path | None, level: int | None) -> None:
    """``units dragonnoir``: every counter side (attack/movement/defence); bold numbers are the seed's."""
    if level is not None:
        raise ImpossibleRequestError("Dragon Noir characters have no levels (no --level)")
    rows = roster(None if data is None else load_sheet(data))
    if as_json:
        print_json(rows)
        return
    table = Table(title="Dragon Noir counters: attack/movement/defence (bold: from the seed; the rest estimated "
                        "or yours, see --json)", box=box.SIMPLE, pad_edge=False)
    table.add_column("Character", no_wrap=True)
    for col in ("kind", "weapon", "horse", "arm.", "foot", "foot wounded", "mounted", "mtd wounded",
                "horse def."):
        table.add_column(col)
    for r in rows:
        foot_hurt = r.get("foot.wounded") or r.get("foot.berserk")
        horse = r.get("horse")
        table.add_row(r["name"], r["kind"], r["weapon"], r["horseman"] or "-", "yes" if r["armour"] else "-",
                      _cell(r.get("foot.healthy")), _cell(foot_hurt), _cell(r.get("mounted.healthy")),
                      _cell(r.get("mounted.wounded")),
                      "-" if horse is None else f"{horse['defence']}{' barded' if horse['barded'] else ''}")
    console.print(table)


def register(hooks: CliHooks) -> None:
    """Plug the commands into the CLI."""
    hooks.odds.add_typer(odds_dn, name="dragonnoir")
    hooks.resolve.add_typer(resolve_dn, name="dragonnoir")
    hooks.add_units("dragonnoir", units_command)
