"""``rulekeeper odds|resolve confrontation …`` and ``rulekeeper units confrontation``.

The commands gather fighters and options, call the rules library (:mod:`.calculator`,
:mod:`.duel`) and print a Rich Fate Screen or JSON. Every mistake is a typed
:class:`RulekeeperError`, which becomes exit code 2 and a one-line message.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rulekeeper.cli.fate_screen import explain_panel, odds_table, rows_table
from rulekeeper.cli.output import console, fail, print_json
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError, RulekeeperError

from .calculator import Confrontation, named_test_odds
from .cards import load_warband
from .duel import Duel, Final, Report, exact_odds, initiative_odds, method_for, monte_carlo, resolve
from .fighters import Combatant, ability_notes
from .fray import Fray, exact_fray_odds, fray_method, fray_monte_carlo, initiative_odds_of, resolve_fray
from .fray_whole import fray_ends, fray_whole_odds
from .wounds import WOUND_TABLE, load_wound_table

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks

odds_cf = typer.Typer(help="Confrontation Evo: exact odds of a test or a combat.", no_args_is_help=True)
resolve_cf = typer.Typer(help="Confrontation Evo: resolve a combat with seeded fate.", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print JSON.")]
FightersArg = Annotated[list[str], typer.Argument(help="Two fighters (a duel) or more (a fray): each a card file "
                                                      "(.yaml/.yml/.toml) or a shipped fighter's name.")]
CampA = Annotated[int | None, typer.Option("--camp-a", min=1, help="A fray: how many of the fighters listed first "
                                                                   "are camp A (default 1: one against the rest).")]
PickA = Annotated[str | None, typer.Option("--fighter-a", help="The fighter of file A (a file of several).")]
PickB = Annotated[str | None, typer.Option("--fighter-b", help="The fighter of file B (a file of several).")]
Charge = Annotated[str | None, typer.Option("--charge", help="Who charged into this combat: a or b.")]
PlaceA = Annotated[int | None, typer.Option("--place-a", help="Attack dice A places (default: the policy).")]
PlaceB = Annotated[int | None, typer.Option("--place-b", help="Attack dice B places (default: the policy).")]
Table = Annotated[Path | None, typer.Option("--wound-table", help="Your book's Wound Table (YAML), instead of "
                                                                   "the shipped estimate.")]


def _pct(p: Fraction | float) -> str:
    return f"{float(p) * 100:.2f}%"


@odds_cf.command("test")
def test_command(
    test: Annotated[str, typer.Argument(help="INI, ATT, DEF, AIM, COU, DIS, POW or FAI.")],
    characteristic: Annotated[int, typer.Argument(help="The characteristic's value.")],
    difficulty: Annotated[int | None, typer.Option("--difficulty", help="The difficulty to reach.")] = None,
    abilities: Annotated[str, typer.Option("--abilities", help="Comma-separated, as on a card: "
                                                               "Brutal,Resolute/2.")] = "",
    as_json: Json = False,
) -> None:
    """The exact distribution of a test's final result, with opening rules and every ability's effect."""
    try:
        names = [a.strip() for a in abilities.split(",") if a.strip()]
        odds = named_test_odds(test, characteristic, difficulty, names)
        if as_json:
            print_json(odds.to_dict())
            return
        title = f"Fate Screen: {odds.test} test, D6 + {odds.characteristic}" + (
            f" vs {odds.difficulty}" if odds.difficulty is not None else "")
        rows = [(f"final {f}" + (" (natural fail)" if nf else ""), float(p)) for f, nf, p in odds.finals]
        console.print(odds_table(title, rows))
        if odds.success is not None:
            console.print(f"Success {_pct(odds.success)} (exactly {odds.success}); exact odds")
        lines = [f"{a}: {e}" for a, e in odds.abilities] + list(odds.how)
        console.print(explain_panel(lines + ["opening and the negative opening are estimates "
                                             "(docs/rules/confrontation.md)"]))
    except RulekeeperError as exc:
        fail(exc, as_json=as_json)


def _duel(a: str, b: str, pick_a: str | None, pick_b: str | None, charge: str | None,
          place_a: int | None, place_b: int | None, table: Path | None) -> Duel:
    from .cards import fighter_from

    who = None if charge is None else charge.strip().lower()
    if who not in (None, "a", "b"):
        raise ImpossibleRequestError(f"--charge must be a or b, got {charge!r}", field="charge")
    fa, fb = fighter_from(a, pick_a), fighter_from(b, pick_b)
    return Duel(Combatant(fa, who == "a"), Combatant(fb, who == "b"),
                load_wound_table(table if table is not None else WOUND_TABLE), (place_a, place_b))


def _ends(odds: dict[Final, float], duel: Duel) -> dict[str, float]:
    return {
        f"{duel.a.name} killed": sum(p for (sa, _), p in odds.items() if sa == "killed"),
        f"{duel.b.name} killed": sum(p for (_, sb), p in odds.items() if sb == "killed"),
        "both standing": sum(p for (sa, sb), p in odds.items() if "killed" not in (sa, sb)),
    }


@odds_cf.command("combat")
def combat_command(
    fighters: FightersArg, fighter_a: PickA = None, fighter_b: PickB = None, charge: Charge = None,
    place_a: PlaceA = None, place_b: PlaceB = None, wound_table: Table = None, camp_a: CampA = None,
    method: Annotated[str, typer.Option("--method", help="auto, exact or monte-carlo.")] = "auto",
    runs: Annotated[int, typer.Option("--runs", min=100, max=1_000_000, help="Monte Carlo runs.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the Monte Carlo runs.")] = 2026,
    whole: Annotated[bool, typer.Option("--whole", help="The whole combat's result: kills on each side, every "
                                                        "fighter's HP left (what the web preview shows).")] = False,
    as_json: Json = False,
) -> None:
    """A full combat: initiative, combat dice, exchanges, counterattacks, damage rolls on the Wound Table; with
    three fighters or more, a fray (camp A: the first --camp-a fighters). ``auto`` is exact when small, else the
    numpy kernel's estimate with its error (under a second for 4 against 4)."""
    try:
        if whole:
            if len(fighters) == 2:
                duel = _duel(fighters[0], fighters[1], fighter_a, fighter_b, charge, place_a, place_b, wound_table)
                fray = duel.fray
            else:
                fray = _fray(fighters, camp_a, charge, place_a, place_b, wound_table)
            _whole(fray, method, as_json)
            return
        if len(fighters) != 2:
            _fray_odds(_fray(fighters, camp_a, charge, place_a, place_b, wound_table), method, runs, seed, as_json)
            return
        duel = _duel(fighters[0], fighters[1], fighter_a, fighter_b, charge, place_a, place_b, wound_table)
        how = method_for(duel, method)
        if how == "exact":
            exact = exact_odds(duel)
            odds = {k: float(v) for k, v in exact.items()}
            note = "exact odds (every branch enumerated with fractions)"
        else:
            odds = monte_carlo(duel, runs, seed).odds
            note = f"Monte Carlo: {runs:,} seeded resolutions (seed {seed}); ±{(0.25 / runs) ** 0.5 * 100:.2f} % at most"
        notes = ability_notes(duel.a, duel.b) + ability_notes(duel.b, duel.a)
        p_ini = float(initiative_odds(duel))
        ends = _ends(odds, duel)
        if as_json:
            print_json({"ruleset": "confrontation", "kind": "combat", "method": how, "note": note,
                        "fighters": [duel.a.name, duel.b.name], "initiative": {duel.a.name: p_ini},
                        "ends": ends, "abilities": notes, "wound_table_estimated": duel.table.estimated,
                        "outcomes": [{duel.a.name: sa, duel.b.name: sb, "p": p} for (sa, sb), p in odds.items()]})
            return
        console.print(odds_table(f"Fate Screen: {duel.a.name} vs {duel.b.name} — {how}", list(ends.items())))
        rows = [(sa, sb, _pct(p)) for (sa, sb), p in list(odds.items())[:20]]
        console.print(rows_table("Most likely ends of the combat", (duel.a.name, duel.b.name, "Chance"), rows))
        console.print(explain_panel([note, f"{duel.a.name} wins initiative {_pct(p_ini)}", *notes,
                                     "Wound Table estimated" if duel.table.estimated else "Wound Table: your file",
                                     "placement: the default policy (docs/rules/confrontation.md)"
                                     if (place_a, place_b) == (None, None) else "placement: as given"]))
    except RulekeeperError as exc:
        fail(exc, as_json=as_json)


def _fray(specs: list[str], camp_a: int | None, charge: str | None, place_a: int | None, place_b: int | None,
          table: Path | None) -> Fray:
    """Three fighters or more in two camps, everyone fighting every opponent (a shipped name or a one-card file
    each); ``--charge a|b`` names the camp that charged."""
    from .cards import fighter_from

    if len(specs) < 2:
        raise ImpossibleRequestError("a combat needs two fighters at least", field="fighters")
    if place_a is not None or place_b is not None:
        raise ImpossibleRequestError("--place-a/--place-b fix a duel's placement; a fray uses the policy",
                                     field="placement")
    n = 1 if camp_a is None else camp_a
    if not 1 <= n < len(specs):
        raise ImpossibleRequestError(f"--camp-a must leave a fighter in each camp (1 to {len(specs) - 1})",
                                     field="camp-a")
    who = None if charge is None else charge.strip().lower()
    if who not in (None, "a", "b"):
        raise ImpossibleRequestError(f"--charge must be a or b, got {charge!r}", field="charge")
    cards = [fighter_from(spec) for spec in specs]
    seen: dict[str, int] = {}
    named = []
    for card in cards:  # the same card twice: "Alahan swordsman 2", so every die's label says whose it is
        seen[card.name] = seen.get(card.name, 0) + 1
        named.append(card if seen[card.name] == 1 else card.model_copy(update={"name": f"{card.name} {seen[card.name]}"}))
    camps = (tuple(Combatant(c, who == "a") for c in named[:n]), tuple(Combatant(c, who == "b") for c in named[n:]))
    return Fray(camps, load_wound_table(table if table is not None else WOUND_TABLE))


def _whole(fray: Fray, method: str, as_json: bool) -> None:
    """``--whole``: :func:`~.fray_whole.fray_whole_odds`, the numbers the web keeper's preview shows."""
    if method not in ("auto", "exact"):
        raise ImpossibleRequestError("--whole computes its odds: --method auto or exact", field="method")
    odds = fray_whole_odds(fray, method=method)
    if as_json:
        print_json({"ruleset": "confrontation", "kind": "whole", "fighters": [f.name for f in fray.fighters],
                    **odds.to_dict()})
        return
    title = f"Whole combat: {' and '.join(f.name for f in fray.camps[0])} vs " \
            f"{' and '.join(f.name for f in fray.camps[1])}"
    console.print(rows_table(title, ("What", "Outcome", "Chance", ""), [list(r) for r in odds.rows()]))
    console.print(explain_panel([odds.caption(), "camp A is ours: the enemies are camp B",
                                 "Wound Table estimated" if fray.table.estimated else "Wound Table: your file"]))


def _fray_odds(fray: Fray, method: str, runs: int, seed: int, as_json: bool) -> None:
    how = fray_method(fray, method)
    if method == "auto":  # issue 27: exact when small, else the numpy kernel, not 10^5 Python resolutions
        found = fray_ends(fray)
        how, odds = ("exact" if found.method == "exact" else "estimate"), found.odds
        note = (f"{found.note}; ±{found.error_bound * 100:.2f} % at 95 %" if found.error_bound
                else "exact odds (every branch of the engine's fray walked)")
    elif how == "exact":
        odds = {k: float(v) for k, v in exact_fray_odds(fray).items()}
        note = "exact odds (every branch enumerated with fractions)"
    else:
        odds = fray_monte_carlo(fray, runs, seed).odds
        note = f"Monte Carlo: {runs:,} seeded resolutions (seed {seed}); ±{(0.25 / runs) ** 0.5 * 100:.2f} % at most"
    names = [f.name for f in fray.fighters]
    ends = {f"{name} killed": sum(p for end, p in odds.items() if end[i] == "killed") for i, name in enumerate(names)}
    camp_a = " and ".join(f.name for f in fray.camps[0])
    p_ini = float(initiative_odds_of(fray))
    if as_json:
        print_json({"ruleset": "confrontation", "kind": "fray", "method": how, "note": note, "fighters": names,
                    "camps": [[f.name for f in c] for c in fray.camps], "initiative": {"camp A": p_ini},
                    "dice": {name: fray.dice(i) for i, name in enumerate(names)}, "ends": ends,
                    "wound_table_estimated": fray.table.estimated,
                    "outcomes": [{**dict(zip(names, end, strict=True)), "p": p} for end, p in odds.items()]})
        return
    title = f"Fate Screen: {camp_a} vs {' and '.join(f.name for f in fray.camps[1])} — {how}"
    console.print(odds_table(title, list(ends.items())))
    rows = [(*end, _pct(p)) for end, p in list(odds.items())[:20]]
    console.print(rows_table("Most likely ends of the fray", (*names, "Chance"), rows))
    dice = ", ".join(f"{name}: {fray.dice(i)}" for i, name in enumerate(names))
    console.print(explain_panel([note, f"camp A ({camp_a}) wins initiative {_pct(p_ini)}", f"combat dice: {dice}",
                                 "Wound Table estimated" if fray.table.estimated else "Wound Table: your file",
                                 "frays: docs/rules/confrontation.md"]))


@resolve_cf.command("combat")
def resolve_command(
    fighters: FightersArg, fighter_a: PickA = None, fighter_b: PickB = None, charge: Charge = None,
    place_a: PlaceA = None, place_b: PlaceB = None, wound_table: Table = None, camp_a: CampA = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of fate (the same seed, the same rolls).")] = 2026,
    as_json: Json = False,
) -> None:
    """One combat (or a fray of three fighters or more) with seeded fate: every die with its odds."""
    try:
        fate = Fate.from_seed(seed)
        report = Report()
        if len(fighters) == 2:
            duel = _duel(fighters[0], fighters[1], fighter_a, fighter_b, charge, place_a, place_b, wound_table)
            resolve(fate, duel, report)
            names = [duel.a.name, duel.b.name]
        else:
            fray = _fray(fighters, camp_a, charge, place_a, place_b, wound_table)
            resolve_fray(fate, fray, report)
            names = [f.name for f in fray.fighters]
        if as_json:
            print_json({"ruleset": "confrontation", "kind": "combat" if len(names) == 2 else "fray", "seed": seed,
                        "fighters": names, "initiative": report.initiative, "placement": report.placement,
                        "blows": report.blows, "end": list(report.end), "chance": fate.record_dicts()})
            return
        end = "; ".join(f"{n} {e}" for n, e in zip(names, report.end, strict=True))
        console.print(explain_panel([report.initiative, *report.placement, *report.blows, f"end: {end}"],
                                    title=f"{' vs '.join(names)} (seed {seed})"))
        rows = [(r.request.label, r.outcome, _pct(r.probability)) for r in fate.records]
        console.print(rows_table("Every die drawn", ("Roll", "Outcome", "Chance"), rows))
    except RulekeeperError as exc:
        fail(exc, as_json=as_json)


def units_command(as_json: bool, data: Path | None, level: int | None) -> None:
    """``units confrontation [--data CARDS.yaml]``: the shipped examples, or the player's own cards."""
    if level is not None:
        raise ImpossibleRequestError("confrontation lists its fighters without --level")
    rows: list[dict[str, Any]]
    if data is None:
        rows = Confrontation().roster()
    else:
        band = load_warband(data)
        rows = [{"name": f.name, "warband": band.warband, "size": f.size, "HP": f.HP,
                 **{c: v for c, v in f.characteristics().items() if v is not None},
                 "abilities": ", ".join(f.abilities)} for f in band.fighters]
    if as_json:
        print_json(rows)
        return
    cols = ["name", "size", "MOV", "INI", "ATT", "STR", "DEF", "RES", "COU", "FEAR", "DIS", "HP", "abilities"]
    for group in dict.fromkeys(str(r.get("warband", "")) for r in rows):
        mine = [r for r in rows if r.get("warband") == group]
        title = group + (" — EXAMPLE cards, every characteristic estimated" if data is None else f" ({data})")
        console.print(rows_table(title, cols, [[str(r.get(c, "") if r.get(c) is not None else "")
                                                for c in cols] for r in mine]))


def register(hooks: CliHooks) -> None:
    """Plug the commands into the CLI (``hooks`` is a :class:`rulekeeper.cli.hooks.CliHooks`)."""
    hooks.odds.add_typer(odds_cf, name="confrontation")
    hooks.resolve.add_typer(resolve_cf, name="confrontation")
    hooks.add_units("confrontation", units_command)
