"""``rulekeeper lab ...``: the balance lab (play, duel, sweep, compare) on any installed game.

Rule-system neutral: games are reached through the protocol and their duel kernels. The lab's
modules (numpy work, matplotlib, pyarrow, Dask) are imported when a command runs, so the
start-up of ``rulekeeper odds`` pays for none of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from rulekeeper.core.wording import counted

from .output import console, print_json

if TYPE_CHECKING:
    from rulekeeper.core.duels import DuelKernel, DuelRequest, DuelTally
    from rulekeeper.core.ruleset import Ruleset
    from rulekeeper.core.whole import WholeOdds
    from rulekeeper.lab.backends import Progress, Runner
    from rulekeeper.lab.duel import DuelSummary
    from rulekeeper.lab.houserule import Stat
    from rulekeeper.lab.play import PlaySummary
    from rulekeeper.lab.stats import SpreadJson
    from rulekeeper.lab.sweep import Cell

lab_app = typer.Typer(help="The balance lab: simulate scenarios, duels and matchup sweeps at scale.",
                      no_args_is_help=True)

Game = Annotated[str, typer.Argument(help="The game (exillis, battlesystem, wartable, ...).")]
Sims = Annotated[int, typer.Option("--sims", help="Battles to simulate (at least 1).")]
#: ``lab play``'s count is of battles: ``--battles`` says so (typed as the bench's ``--battles``, it was refused).
Battles = Annotated[int, typer.Option("--sims", "--battles", help="Battles to simulate (at least 1).")]
Seed = Annotated[int, typer.Option("--seed", help="Seed: battle i draws from a stream seeded by (seed, i).")]
Backend = Annotated[str, typer.Option("--backend", help="serial, process (local processes) or dask.")]
Workers = Annotated[int | None, typer.Option("--workers", help="Worker processes (default: the CPUs available).")]
Chunk = Annotated[int | None, typer.Option("--chunk", help="Battles per chunk of work (default: ~8 chunks a worker).")]
Scheduler = Annotated[str | None, typer.Option(
    "--scheduler", help="Address of an existing Dask scheduler (tcp://host:8786); implies --backend dask.")]
Timeout = Annotated[float, typer.Option("--connect-timeout", help="Seconds to wait for the Dask scheduler.")]
Levels = Annotated[str | None, typer.Option("--levels", help="Levels: FIRST,SECOND (or one for both).")]
Mode = Annotated[str, typer.Option("--mode", help="melee (fought to the end) or shoot (volleys until broken).")]
Charge = Annotated[bool, typer.Option("--charge", help="Open the melee with the first unit charging.")]
HouseRule = Annotated[Path | None, typer.Option("--house-rule", help="YAML/TOML file overriding options and stats.")]
Option = Annotated[list[str] | None, typer.Option("--option", help="Ruleset option NAME=VALUE.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
Whole = Annotated[bool, typer.Option("--whole", help="Also the whole distribution of the opening action (the first "
                                     "unit's charge, fight or volley), computed by the game's whole-odds functions.")]
Deployment = Annotated[str, typer.Option(
    "--deployment", help="Which unit was deployed first (it acts first on Initiative ties): random (a fair coin each "
                         "battle, so mirror matches are even) or first.")]


def register(app: typer.Typer) -> None:
    app.add_typer(lab_app, name="lab")


@contextmanager
def _progress(label: str, quiet: bool) -> Iterator[Progress | None]:
    """A Rich progress bar with ETA (nothing when printing JSON)."""
    if quiet:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TextColumn("battles · ETA"),
                  TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _runner(backend: str, workers: int | None, scheduler: str | None, timeout: float) -> Runner:
    from rulekeeper.lab.backends import Runner

    return Runner("dask" if scheduler is not None else backend, workers, scheduler, timeout)


def _options(game: Ruleset, option: list[str] | None, house_rule: Path | None) -> tuple[dict[str, str],
                                                                                         dict[str, dict[str, Stat]], str]:
    """Ruleset options and stat overrides: the house-rule file's, then ``--option`` flags."""
    from rulekeeper.lab.houserule import check_options, option_pairs, read_house_rule

    options: dict[str, str] = {}
    overrides: dict[str, dict[str, Stat]] = {}
    name = ""
    if house_rule is not None:
        rule = read_house_rule(house_rule)
        check_options(game, rule.options, str(house_rule))
        options.update(rule.options)
        overrides = {unit: dict(stats) for unit, stats in rule.units.items()}
        name = rule.name or house_rule.stem
    flags = option_pairs(option)
    check_options(game, flags, "--option")
    options.update(flags)
    return options, overrides, name


@contextmanager
def _house_rule_blamed(house_rule: Path | None) -> Iterator[None]:
    """A stat override the game's kernel refuses, reported as a problem of the house-rule file that wrote it.

    The kernel checks unit and stat names and values (only it knows them) and marks its refusal with the
    place (``override``: ``units.Billmen.hp``); the player needs the file's name beside it.
    """
    from rulekeeper.core.errors import DataFileError, RulekeeperError

    try:
        yield
    except RulekeeperError as exc:
        if house_rule is None or "override" not in exc.details:
            raise
        raise DataFileError(str(house_rule), [exc.message]) from None


@lab_app.command("play")
def play(game: Game, scenario: Annotated[str, typer.Argument(help="A scenario file, or a shipped scenario's key.")],
         sims: Battles = 1000, seed: Seed = 0, backend: Backend = "process", workers: Workers = None,
         chunk: Chunk = None, scheduler: Scheduler = None, connect_timeout: Timeout = 10.0, option: Option = None,
         policy: Annotated[list[str] | None, typer.Option(
             "--policy", help="Who plays: simple (the game's shipped policy, the default) or search (the search "
                              "bot); SIDE=NAME for one side (repeatable): --policy A=search --policy B=simple.")] = None,
         budget: Annotated[str | None, typer.Option(
             "--budget", help="The search bot's budget per move: 1s, 250ms, 200 (simulations) or easy/normal/strong; "
                              "simulations make the figures reproducible.")] = None,
         json: Json = False) -> None:
    """Autoplay a scenario many times (reference engine; the shipped policy or the search bot): win rates, length,
    survivors, and which policy produced them."""
    from rulekeeper.lab.errors import LabRequestError
    from rulekeeper.lab.play import PlaySummary, play_work

    if sims < 1:
        raise LabRequestError(f"--sims must be at least 1, got {sims}", sims=sims)
    work, g = play_work(game, scenario, seed, tuple(option or ()), tuple(policy or ()), budget)
    exact = bool(getattr(g, "deterministic", False))  # every battle the same: one tells all
    with _runner(backend, workers, scheduler, connect_timeout) as runner, _progress("play", json) as progress:
        tally = runner.run(work, 0, 1 if exact else sims, chunk, progress)
    summary = PlaySummary(tally, tuple(g.roles(work.document)), exact, work.describe())
    if json:
        print_json({"game": g.name, "scenario": scenario, "seed": seed, **summary.to_json()})
        return
    _print_play(g.name, scenario, summary)


def _print_play(game: str, scenario: str, summary: PlaySummary) -> None:
    doc = summary.to_json()
    table = Table(title=f"{game} · {scenario} · {counted(doc['battles'], 'battle')} · {doc['method']}",
                  box=box.SIMPLE_HEAVY)
    table.add_column("result")
    table.add_column("rate" + ("" if summary.exact else " (95 % Wilson interval)"), justify="right")
    table.add_column("battles", justify="right")
    for key, share in summary.results():
        table.add_row(f"{key} wins" if key in summary.roles else key, share.text(), str(share.count))
    console.print(table)
    _print_spreads("battle length", {"actions": doc["actions"], "turns (the game's counter)": doc["turns"]})
    if doc["figures"]:
        _print_spreads("per-side figures from the result summaries", doc["figures"])


def _print_spreads(title: str, spreads: Mapping[str, SpreadJson]) -> None:
    table = Table(title=title, box=box.SIMPLE)
    table.add_column("")
    for col in ("mean", "median", "5 %", "95 %"):
        table.add_column(col, justify="right")
    for name, s in spreads.items():
        table.add_row(name, f"{s['mean']:.2f}", f"{s['median']:g}", f"{s['p05']:g}", f"{s['p95']:g}")
    console.print(table)


@lab_app.command("duel")
def duel(game: Game, first: Annotated[str, typer.Argument(help="The first unit (it charges with --charge).")],
         second: Annotated[str, typer.Argument(help="The second unit.")], levels: Levels = None,
         sims: Sims = 100000, mode: Mode = "melee", charge: Charge = False,
         plot: Annotated[Path | None, typer.Option("--plot", help="Write a PNG histogram here.")] = None,
         csv: Annotated[Path | None, typer.Option("--csv", help="Write the tally's histograms as CSV here.")] = None,
         seed: Seed = 0, backend: Backend = "process", workers: Workers = None, chunk: Chunk = None,
         scheduler: Scheduler = None, connect_timeout: Timeout = 10.0, house_rule: HouseRule = None,
         option: Option = None, deployment: Deployment = "random", json: Json = False, whole: Whole = False) -> None:
    """Fight one unit against another many times: win/rout/draw odds, rounds, survivors."""
    from rulekeeper.lab.backends import run_duel
    from rulekeeper.lab.duel import DuelSummary, duel_request, tally_csv
    from rulekeeper.lab.works import GameRef, duel_kernel_of

    ref = GameRef.find(game)
    kernel = duel_kernel_of(ref.game(), ref.name)
    options, overrides, _ = _options(ref.game(), option, house_rule)
    with _house_rule_blamed(house_rule):
        request = duel_request(kernel, first, second, levels=levels, sims=sims, mode=mode, charge=charge,
                               seed=seed, options=options, overrides=overrides, deployment=deployment)
    for path in (p for p in (plot, csv) if p is not None):
        _check_parent(path)
    with _runner(backend, workers, scheduler, connect_timeout) as runner, _progress("duel", json) as progress:
        tally = run_duel(ref.name, request, runner=runner, chunk=chunk, progress=progress)
    if csv is not None:
        _write_csv(csv, tally_csv(tally))
    if plot is not None:
        from rulekeeper.lab.plots import duel_histogram

        duel_histogram(plot, request, tally)
    summary = DuelSummary(tally)
    opening = _whole_opening(kernel, request) if whole else None
    if json:
        print_json({"game": ref.name, **summary.to_json(request),
                    **({"whole": opening.to_dict() if opening is not None else None} if whole else {})})
        return
    if whole:
        _print_whole(request, opening)
    _print_duel(request, summary, tally, plot)


def _whole_opening(kernel: DuelKernel, request: DuelRequest) -> WholeOdds | None:
    from rulekeeper.core.duels import whole_opening_of

    return whole_opening_of(kernel, request)


def _print_whole(request: DuelRequest, odds: WholeOdds | None) -> None:
    """``--whole``: the opening action's whole distribution, as ``odds … --whole`` and the keeper's preview show it."""
    from .whole_view import whole_table

    what = "volley" if request.mode == "shoot" else "charge" if request.charge else "fight round"
    title = f"The whole opening {what}: {request.first} against {request.second}"
    if odds is None:
        console.print(f"{title}: no whole-action odds (this game's kernel does not compute them for this action)")
        return
    console.print(whole_table(odds, title))


def _method(how: str, method: str) -> str:
    """``monte carlo (toy kernel)`` as it is, or ``Monte Carlo (numba kernel)`` when the method does not say."""
    return method if method.lower().startswith(("exact", "monte carlo")) else f"{how} ({method})"


def _write_csv(path: Path, text: str) -> None:
    """``--csv``: a folder, a full disk or a name too long is a typed refusal naming the file."""
    from rulekeeper.lab.errors import LabRequestError

    try:
        path.write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        raise LabRequestError(f"--csv {str(path)!r}: cannot write it ({exc.strerror or type(exc).__name__})",
                              path=str(path)) from None


def _check_parent(path: Path) -> None:
    from rulekeeper.lab.errors import LabRequestError

    if not path.absolute().parent.is_dir():
        raise LabRequestError(f"{str(path)!r}: the folder {str(path.absolute().parent)!r} does not exist",
                              path=str(path))


def _print_duel(request: DuelRequest, summary: DuelSummary, tally: DuelTally, plot: Path | None) -> None:
    from rulekeeper.lab.duel import is_exact
    from rulekeeper.lab.stats import shares

    how = "exact" if is_exact(tally) else "Monte Carlo"
    table = Table(title=f"{request.first} (level {request.first_level}) vs {request.second} (level "
                        f"{request.second_level}) · {request.mode}{' · charge' if request.charge else ''}"
                        f" · deployed first: {'a coin each battle' if request.deployment == 'random' else request.first}\n"
                        f"{counted(tally.battles, 'battle')} · {_method(how, tally.method)}", box=box.SIMPLE_HEAVY)
    table.add_column("outcome")
    table.add_column("probability" + ("" if how == "exact" else " (95 % Wilson interval)"), justify="right")
    for label, share in summary.rows():
        table.add_row(label, share.text())
    console.print(table)
    doc = summary.to_json(request)
    _print_spreads("rounds to decide and survivors", {
        "rounds": doc["rounds"], f"{request.first} left": doc["first_survivors"],
        f"{request.second} left": doc["second_survivors"]})
    for name, hist in ((request.first, tally.first_survivors), (request.second, tally.second_survivors)):
        parts = [f"{value}: {100 * share:.1f} %" for value, share in shares(hist)]
        console.print(f"{name} survivors: " + (", ".join(parts) if len(parts) <= 16 else
                                               ", ".join(parts[:16]) + f", … ({len(parts)} values)"))
    if plot is not None:
        console.print(f"histogram written to {plot}")


@lab_app.command("sweep")
def sweep(game: Game, units: Annotated[str, typer.Option("--units", help="all, or A,B,C.")] = "all",
          sims: Sims = 20000,
          out: Annotated[Path, typer.Option("--out", help="Folder for cells, CSV, Parquet and heatmap.")] = Path("sweep"),
          levels: Levels = None, mode: Mode = "melee", charge: Charge = False, seed: Seed = 0,
          backend: Backend = "process", workers: Workers = None, chunk: Chunk = None, scheduler: Scheduler = None,
          connect_timeout: Timeout = 10.0, house_rule: HouseRule = None, option: Option = None,
          deployment: Deployment = "random", json: Json = False, whole: Whole = False) -> None:
    """Every unit against every unit: the matchup matrix (resumable: finished cells are kept)."""
    from rulekeeper.lab.duel import duel_request
    from rulekeeper.lab.sweep import SweepPlan, output_folder, pick_units, run_sweep, write_outputs
    from rulekeeper.lab.works import GameRef, duel_kernel_of

    ref = GameRef.find(game)
    kernel = duel_kernel_of(ref.game(), ref.name)
    options, overrides, rule_name = _options(ref.game(), option, house_rule)
    chosen = pick_units(kernel, units)
    with _house_rule_blamed(house_rule):
        probe = duel_request(kernel, chosen[0], chosen[-1], levels=levels, sims=sims, mode=mode, charge=charge,
                             seed=seed, options=options, overrides=overrides, deployment=deployment)
    plan = SweepPlan(ref.name, chosen, probe.first_level, probe.second_level, mode, charge, sims, seed, options,
                     {unit: dict(stats) for unit, stats in probe.overrides.items()}, rule_name, deployment)
    folder = output_folder(out)
    try:
        with _runner(backend, workers, scheduler, connect_timeout) as runner, _progress("sweep", json) as progress:
            cells = run_sweep(ref.name, kernel, plan, folder, runner, chunk, progress)
    except KeyboardInterrupt:
        kept = len(list((folder / "cells").glob("*.json"))) if (folder / "cells").is_dir() else 0
        console.print(f"interrupted: {counted(kept, 'finished cell')} kept in {folder / 'cells'}; run the same command to "
                      "resume", style="yellow")
        raise typer.Exit(130) from None
    paths = write_outputs(folder, plan, cells)
    if whole:
        from rulekeeper.lab.whole import write_whole

        paths["whole"] = write_whole(folder, kernel, [c.request for c in cells])
    reused = sum(c.reused for c in cells)
    if json:
        print_json({"game": ref.name, "cells": len(cells), "reused": reused,
                    **{k: str(v) for k, v in paths.items()}})
        return
    _print_sweep(cells, reused, paths)


def _print_sweep(cells: list[Cell], reused: int, paths: dict[str, Path]) -> None:
    from rulekeeper.lab.stats import wilson

    table = Table(title=f"{counted(len(cells), 'matchup')} ({reused} read from earlier runs); score = wins + draws/2",
                  box=box.SIMPLE_HEAVY)
    for col in ("first", "second", "wins", "95 %", "score", "/100 pts", "even ratio"):
        table.add_column(col, justify="left" if col in ("first", "second") else "right",
                         no_wrap=col not in ("first", "second"))
    for cell in cells:
        row = cell.row()
        wins, battles = int(row[8]), int(row[6])
        low, high = wilson(wins, battles)
        table.add_row(row[0], row[1], f"{100 * wins / battles:.1f}%", f"{100 * low:.1f}–{100 * high:.1f}",
                      f"{float(row[14]):.3f}", f"{float(row[18]):.3f}" if row[18] else "—",
                      f"{float(row[19]):.3g}" if row[19] else "—")
    console.print(table)
    for kind, path in paths.items():
        console.print(f"{kind}: {path}", soft_wrap=True)


@lab_app.command("compare")
def compare(base: Annotated[Path, typer.Argument(help="The base sweep's folder.")],
            variant: Annotated[Path, typer.Argument(help="The variant's folder (a house rule, say).")],
            top: Annotated[int, typer.Option("--top", help="Show this many of the largest moves.")] = 20,
            json: Json = False) -> None:
    """Which matchups moved between two sweeps, and by how much."""
    from rulekeeper.lab.compare import compare as compare_sweeps

    moves = compare_sweeps(base, variant)
    if json:
        print_json([{"first": m.first, "second": m.second, "levels": list(m.levels), "base": m.base,
                     "variant": m.variant, "delta": m.delta, "z": m.z, "moved": m.moved} for m in moves])
        return
    moved = [m for m in moves if m.moved]
    table = Table(title=f"{len(moved)} of {counted(len(moves), 'matchup')} moved (|z| ≥ 1.96); score = wins + draws/2",
                  box=box.SIMPLE_HEAVY)
    for col in ("first", "second", "base", "variant", "change", "z", ""):
        table.add_column(col, justify="left" if col in ("first", "second", "") else "right")
    for m in moves[:max(0, top)]:
        table.add_row(m.first, m.second, f"{m.base:.3f}", f"{m.variant:.3f}", f"{m.delta:+.3f}", f"{m.z:+.1f}",
                      "moved" if m.moved else "")
    console.print(table)
