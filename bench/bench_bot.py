"""The search bot against the shipped policy, every shipped scenario of every game, sides swapped.

    python bench/bench_bot.py [--battles 12] [--budget 0.2s] [--cap 24] [--horizon H] [--jobs 2] [--timing 6]
                              [--games exillis ...] [--scenarios KEY ...] [--json] [--ledger [PATH]] [--label L [--margin Z]]
    python bench/bench_bot.py --summary [PATH] [--games ...] [--scenarios ...]

For each scenario:

1. **win rate**: ``--battles`` battles (half with the bot as the first side, half as the second), the bot at
   ``--budget`` (capped at ``--cap`` simulations per move) against the game's shipped policy; wins, draws and
   losses of the bot (in all, and by the side it played), and its win rate with Wilson's 95 % interval (draws
   count as not won). Battle ``i`` is
   seeded by ``lab.play.battle_seed(seed, i)``, the bot's move ``k`` by ``bots.move_seed``.
2. **move time at the default budget** (``bots.STRENGTHS["normal"]``): ``--timing`` positions along a
   shipped-policy playthrough, each decided by the bot at the default budget; every decision's time is kept and
   the p50/p95/max printed. A move with one legal action costs nothing and is left out.

Peak memory is the largest peak resident set (``ru_maxrss``) of the bench process and of its workers, printed
at the end. ``--jobs N`` plays the battles in N worker processes (each battle is a pure function of its seeds,
so the tallies do not depend on N); the move-time figures then include the other workers' load. The machine's load changes the time figures, never the win tallies of an iterations-capped run... except through
``--budget`` in seconds, which stops a search early on a loaded machine (say so when reporting).

``--cpu-clock`` makes a time budget count each worker's CPU seconds instead of the wall clock, so ``--budget
normal --cap 0`` plays the default bot as a quiet machine would (one core to itself), at any load: the ledger's
budget then reads ``1s or 300 simulations (CPU clock)``. ``--baseline`` plays the shipped policy against
itself instead (who wins each scenario when neither side searches: a lopsided scenario caps a sides-swapped
win rate near 50 %).

**The results ledger** (issue 28: 200 battles per scenario, accumulated over sessions). ``--ledger`` appends
every battle, as it ends, to a JSON-lines file (default ``bench/results/bot_vs_policy.jsonl``, committed): the
game, scenario, the run's seed and the battle's index and seed, the bot's side, its outcome, the bot's budget
and horizon, ``--label`` (what variant of the bot played, when it is not the committed one), the code version
(``git describe``, ``-dirty`` when the tree had changes) and the UTC time. ``--summary`` reads the ledger and
prints, per game, scenario, budget and label: battles, the bot's W/D/L, its win rate with Wilson's 95 %
interval, and W/D/L by the side it played. A battle played twice with the same seeds, budget and label is
counted once (an iterations budget makes it the same battle), so run new seeds (``--seed``) to add battles.

**A variant against the committed bot** (``--margin Z --label L`` plays one; ``--summary --paired L [--code ...]``
compares it): the battles both played with the same battle seed and side, per scenario and side, the wins of
each, and the discordant pairs (won by one, not the other) with McNemar's z. Pairing by seed takes out the
scenario's and the dice's share of the difference; what is left is the bots' and the search's own noise.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import resource
import statistics
import subprocess
import sys
import time
import types
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rulekeeper.bots import STRENGTHS, Budget, choose, move_seed, parse_budget, policy_named  # noqa: E402
from rulekeeper.bots.policies import acting_side  # noqa: E402
from rulekeeper.core.game import Game, SetupRequest  # noqa: E402
from rulekeeper.core.ruleset import game as game_named  # noqa: E402
from rulekeeper.lab.play import battle_seed  # noqa: E402
from rulekeeper.lab.stats import wilson  # noqa: E402

#: Peak RSS (MB) of every process that played a battle.
PEAKS: list[float] = []
LEDGER = ROOT / "bench" / "results" / "bot_vs_policy.jsonl"
GAMES = ("exillis", "wartable", "wartable-campaign", "battlesystem", "dragonnoir", "confrontation")
MAX_ACTIONS = 3000


def play(g: Game, document: dict[str, Any], bot_side: str, budget: Budget, seed: int,
         opponent: str = "simple") -> tuple[str, list[float]]:
    """One battle, the bot playing ``bot_side``: ``won``/``drawn``/``lost``/``unfinished`` and its move times.

    The other side plays ``opponent``: the shipped policy (``simple``), or the bot itself (``search``, at the
    same budget, its own move seeds) for the bot-against-itself figures."""
    search, simple = policy_named("search", budget), policy_named(opponent, budget)
    state = g.initial_state(document)
    times: list[float] = []
    for index in range(MAX_ACTIONS):
        side = acting_side(g, state)
        if side is None:
            break
        if side == bot_side:
            started = time.perf_counter()
            action = search.act(g, state, move_seed(seed, index))
            times.append(time.perf_counter() - started)
        else:
            action = simple.act(g, state, move_seed(seed ^ 0x5EED, index) if opponent == "search" else 0)
        assert action is not None
        state = g.apply(state, action).state
    result = g.result(state)
    if result is None:
        return "unfinished", times
    roles = g.roles(document)
    if result.winner == bot_side:
        return "won", times
    return ("lost" if result.winner in roles else "drawn"), times


def timing(g: Game, document: dict[str, Any], positions: int) -> list[float]:
    """Decision times at the default budget at ``positions`` moments of a shipped-policy playthrough."""
    states, state = [], g.initial_state(document)
    while (action := g.policy(state)) is not None and len(states) < MAX_ACTIONS:
        side = acting_side(g, state)
        if side is not None and len([a for a in g.legal_actions(state) if a.side == side]) > 1:
            states.append((state, side))
        state = g.apply(state, action).state
    if not states:
        return []
    step = max(1, len(states) // positions)
    out = []
    for state, side in states[::step][:positions]:
        out.append(choose(g, state, side, budget=STRENGTHS["normal"], seed=len(out)).seconds)
    return out


def baseline(g: Game, path: Path, seed0: int, battles: int) -> dict[str, int]:
    """``--baseline``: the shipped policy against itself, ``battles`` battles: wins by role (and ``drawn``).

    A scenario whose first side wins nearly every such battle is lopsided for these players: with sides
    swapped, a bot that beats the policy only as the favoured side stays near 50 %."""
    document = g.setup(SetupRequest(scenario=path, seed=seed0)).document
    tally: dict[str, int] = {role: 0 for role in g.roles(document)} | {"drawn": 0, "unfinished": 0}
    for i in range(battles):
        state = g.initial_state(g.reseeded(document, battle_seed(seed0, i)))
        for _ in range(MAX_ACTIONS):
            action = g.policy(state)
            if action is None:
                break
            state = g.apply(state, action).state
        result = g.result(state)
        outcome = "unfinished" if result is None else (result.winner if result.winner in tally else "drawn")
        tally[outcome] += 1
    return tally


def use_cpu_clock() -> None:
    """``--cpu-clock``: the search's deadline counts this process's CPU time, not the wall clock.

    A time budget then gives the bot what a quiet machine with a core to itself gives it, whatever else runs
    (other workers, tests): the tallies of a ``1s`` budget no longer depend on the load, only the bench's wall
    time does. (Cache and memory contention still make a loaded CPU second somewhat slower, so a loaded run
    errs on the bot's weak side.)"""
    search_module = importlib.import_module("rulekeeper.bots.search")
    search_module.time = types.SimpleNamespace(perf_counter=time.process_time)  # type: ignore[attr-defined]


def use_margin(margin: float | None) -> None:
    """``--margin Z``: the standard errors by which a challenger must beat the shipped policy's choice
    (``bots.search.MARGIN_Z``), for a variant of the bot measured against the committed one (give it a
    ``--label``)."""
    if margin is not None:
        importlib.import_module("rulekeeper.bots.search").MARGIN_Z = margin  # type: ignore[attr-defined]


def _battle(job: tuple[str, str, int, int, Budget, bool, bool, str, float | None]
            ) -> tuple[str, list[float], float, str, int]:
    """Battle ``i`` of a scenario (a worker's task): its outcome, the bot's move times, the worker's peak RSS,
    the bot's side and the battle's index."""
    name, key, seed0, i, budget, plain, cpu_clock, opponent, margin = job
    if cpu_clock:
        use_cpu_clock()
    use_margin(margin)
    g = game_named(name)
    if plain:  # the wrapper answers a missing hook from the game; None here hides the game's own
        g = _PlainHorizon(g)
    path = next(info.path for info in g.scenarios() if info.key == key)
    document = g.setup(SetupRequest(scenario=path, seed=seed0)).document
    seed = battle_seed(seed0, i)
    side = g.roles(document)[i % 2]
    outcome, times = play(g, g.reseeded(document, seed), side, budget, seed, opponent)
    return outcome, times, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, side, i


class _PlainHorizon:
    """A game seen without its ``rollout_done`` hook (``--plain-horizon``: simulations of ``horizon`` actions)."""

    rollout_done = None

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def bench_scenario(g: Game, key: str, path: Path, args: argparse.Namespace, budget: Budget,
                   pool: Any = None) -> dict[str, Any]:
    document = g.setup(SetupRequest(scenario=path, seed=args.seed)).document
    tally = {"won": 0, "drawn": 0, "lost": 0, "unfinished": 0}
    by_side: dict[str, dict[str, int]] = {}
    move_times: list[float] = []
    started = time.perf_counter()
    roles = g.roles(document)
    if args.only_side is not None and args.only_side not in roles:
        raise SystemExit(f"--only-side {args.only_side!r}: {key}'s sides are {', '.join(roles)}")
    jobs = [(g.name, key, args.seed, i, budget, args.plain_horizon, args.cpu_clock, args.opponent, args.margin)
            for i in range(args.battles) if args.only_side is None or roles[i % 2] == args.only_side]
    for outcome, times, peak, side, i in (pool.imap_unordered(_battle, jobs) if pool is not None
                                          else map(_battle, jobs)):
        if args.ledger:
            _record(args, budget, {"game": g.name, "scenario": key, "seed": args.seed, "battle": i,
                                   "battle_seed": battle_seed(args.seed, i), "bot_side": side, "outcome": outcome,
                                   "moves": len(times), "move_p95": round(_q(times, 0.95), 3)})
        tally[outcome] += 1
        by_side.setdefault(side, {"won": 0, "drawn": 0, "lost": 0, "unfinished": 0})[outcome] += 1
        move_times += times
        PEAKS.append(peak)
    played = sum(tally.values())
    low, high = wilson(tally["won"], played) if played else (0.0, 1.0)  # --battles 0: move times only
    default_times = timing(g, document, args.timing) if args.timing else []
    return {
        "game": g.name, "scenario": key, "battles": played, **tally, "by_side": by_side,
        "win_rate": tally["won"] / played if played else 0.0, "low95": low, "high95": high,
        "bench_move_p95": _q(move_times, 0.95), "default_move_p50": _q(default_times, 0.5),
        "default_move_p95": _q(default_times, 0.95), "default_move_max": max(default_times, default=0.0),
        "default_moves_timed": len(default_times), "seconds": time.perf_counter() - started,
    }


def _q(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def code_version() -> str:
    """``git describe`` of the tree the bench runs from (``-dirty``: uncommitted changes were in play)."""
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _record(args: argparse.Namespace, budget: Budget, battle: dict[str, Any]) -> None:
    """Append one battle to the ledger (a line each, written as the battle ends: an interrupted run keeps its
    battles)."""
    row = {**battle, "policy": "search", "opponent": args.opponent,
           "budget": budget.describe() + (" (CPU clock)" if args.cpu_clock else ""),
           "horizon": budget.horizon, "label": args.label, "code": args.code,
           "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    path = Path(args.ledger)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(row, sort_keys=True) + "\n")


def summarise(path: Path, games: list[str] | None, scenarios: list[str] | None,
              codes: list[str] | None = None) -> list[dict[str, Any]]:
    """The ledger's battles per game, scenario, budget and label (each battle once: see the module docstring);
    ``codes``: only battles played by these code versions (``git describe`` prefixes)."""
    seen: set[tuple[Any, ...]] = set()
    groups: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        b = json.loads(line)
        if (games and b["game"] not in games) or (scenarios and b["scenario"] not in scenarios):
            continue
        if codes and not any(b["code"].startswith(code) for code in codes):
            continue
        key = (b["game"], b["scenario"], b["budget"], b["horizon"], b["label"], b["opponent"], b["battle_seed"],
               b["bot_side"])
        if key in seen:
            continue
        seen.add(key)
        group = groups.setdefault((b["game"], b["scenario"], b["budget"], b["label"], b["opponent"]), {
            "game": b["game"], "scenario": b["scenario"], "budget": b["budget"], "label": b["label"],
            "opponent": b["opponent"],
            "battles": 0, "won": 0, "drawn": 0, "lost": 0, "unfinished": 0,
            "by_side": defaultdict(lambda: {"won": 0, "drawn": 0, "lost": 0, "unfinished": 0}), "codes": set()})
        group["battles"] += 1
        group[b["outcome"]] += 1
        group["by_side"][b["bot_side"]][b["outcome"]] += 1
        group["codes"].add(b["code"])
    rows = []
    for group in groups.values():
        low, high = wilson(group["won"], group["battles"])
        rows.append({**group, "by_side": dict(group["by_side"]), "codes": sorted(group["codes"]),
                     "win_rate": group["won"] / group["battles"], "low95": low, "high95": high})
    return sorted(rows, key=lambda r: (r["game"], r["scenario"], r["opponent"], r["budget"], r["label"]))


def paired(path: Path, label: str, codes: list[str] | None) -> None:
    """``--summary --paired LABEL``: the variant ``LABEL`` against the committed bot (no label, same budget
    and CPU clock; ``codes`` narrows the committed bot's battles), on the battles both played with the same
    battle seed and side (see the module docstring)."""
    outcomes: dict[str, dict[tuple[str, str, int, str, str], bool]] = {"variant": {}, "committed": {}}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        b = json.loads(line)
        if b["opponent"] != "simple":
            continue
        key = (b["game"], b["scenario"], b["battle_seed"], b["bot_side"], b["budget"])
        if b["label"] == label:
            outcomes["variant"][key] = b["outcome"] == "won"
        elif not b["label"] and (not codes or any(b["code"].startswith(code) for code in codes)):
            outcomes["committed"][key] = b["outcome"] == "won"
    # the variant's budget may differ from the committed bot's only in its cap (a labelled cap variant)
    committed = {k[:4]: won for k, won in outcomes["committed"].items() if k[4].startswith("1s or 300")}
    rows: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    only_variant = only_committed = 0
    for key, won in outcomes["variant"].items():
        if key[:4] not in committed:
            continue
        other = committed[key[:4]]
        row = rows[(key[0], key[1], key[3])]
        row[0], row[1], row[2] = row[0] + 1, row[1] + won, row[2] + other
        only_variant, only_committed = only_variant + (won and not other), only_committed + (other and not won)
    for (game, scenario, side), (battles, variant, base) in sorted(rows.items()):
        print(f"{game:18} {scenario:28} as {side:6} {battles:4} battles: {label} won {variant:3}, committed won {base:3}")
    battles = sum(r[0] for r in rows.values())
    won = [sum(r[1] for r in rows.values()), sum(r[2] for r in rows.values())]
    discordant = only_variant + only_committed
    print(f"{battles} paired battles: {label} won {won[0]}, the committed bot {won[1]}; won by one only: "
          f"{label} {only_variant}, committed {only_committed}"
          + (f" (McNemar z {(only_variant - only_committed) / discordant ** 0.5:+.2f})" if discordant else ""))


def print_summary(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        sides = "; ".join(f"as {side} {t['won']}/{t['drawn']}/{t['lost']}" for side, t in sorted(r["by_side"].items()))
        print(f"{r['game']:18} {r['scenario']:28} {r['budget']:34} {r['label'] or '-':14} vs {r['opponent']:6} {r['battles']:4} battles "
              f"W/D/L {r['won']}/{r['drawn']}/{r['lost']}: {100 * r['win_rate']:.0f} % "
              f"[{100 * r['low95']:.0f}, {100 * r['high95']:.0f}]  ({sides})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--battles", type=int, default=12)
    ap.add_argument("--budget", default="0.2s", help="the bot's budget in the win-rate battles (1s, 30, normal)")
    ap.add_argument("--cap", type=int, default=24, help="at most this many simulations per move (0: no cap)")
    ap.add_argument("--timing", type=int, default=6, help="positions timed at the default budget per scenario")
    ap.add_argument("--horizon", type=int, default=None, help="the bot's rollout horizon (default: the budget's)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes playing the battles (1: none)")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--scenarios", nargs="*", default=None, help="only these scenario keys")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--ledger", nargs="?", const=str(LEDGER), default=None,
                    help=f"append every battle to this JSON-lines ledger (default path: {LEDGER.relative_to(ROOT)})")
    ap.add_argument("--plain-horizon", action="store_true",
                    help="ignore a game's rollout_done hook: every simulation plays the budget's horizon in actions")
    ap.add_argument("--opponent", choices=("simple", "search"), default="simple",
                    help="the other side: the shipped policy, or the bot itself at the same budget")
    ap.add_argument("--baseline", action="store_true",
                    help="play the shipped policy against itself (--battles battles per scenario) and print who won")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="a time budget counts the worker's CPU seconds, not wall seconds (load-proof tallies)")
    ap.add_argument("--margin", type=float, default=None,
                    help="a bot variant: a challenger must beat the policy's choice by this many standard errors "
                         "(default: the committed MARGIN_Z); needs --label")
    ap.add_argument("--only-side", default=None, metavar="ROLE",
                    help="play only the battles (of the --battles) where the bot is ROLE: the same battle seeds and "
                         "side as the full run's, so they pair with it (the side a scenario disfavours)")
    ap.add_argument("--label", default="", help="the bot variant's name in the ledger (default: none, the committed bot)")
    ap.add_argument("--code", nargs="*", default=None,
                    help="with --summary: only the battles of these code versions (prefixes of the ledger's code)")
    ap.add_argument("--paired", default=None, metavar="LABEL",
                    help="with --summary: the variant LABEL against the committed bot, paired by battle seed and side")
    ap.add_argument("--summary", nargs="?", const=str(LEDGER), default=None,
                    help="summarise a ledger (per scenario, budget and label) instead of playing")
    args = ap.parse_args()
    if args.summary and args.paired:
        paired(Path(args.summary), args.paired, args.code)
        return
    if args.summary:
        rows = summarise(Path(args.summary), args.games if args.games != list(GAMES) else None, args.scenarios,
                         args.code)
        print(json.dumps(rows, indent=1) if args.json else "", end="\n" if args.json else "")
        if not args.json:
            print_summary(rows)
        return
    if args.baseline:
        for name in args.games:
            g = game_named(name)
            for info in g.scenarios():
                if not args.scenarios or info.key in args.scenarios:
                    tally = baseline(g, info.path, args.seed, args.battles)
                    print(f"{name:18} {info.key:30} the shipped policy against itself, {args.battles} battles: "
                          + ", ".join(f"{k} {v}" for k, v in tally.items()), flush=True)
        return
    if args.margin is not None and not args.label:
        ap.error("--margin plays a variant of the bot: name it with --label (the ledger keeps variants apart)")
    args.code = code_version()
    budget = parse_budget(args.budget)
    if args.cap:
        budget = Budget(budget.seconds, min(budget.iterations or args.cap, args.cap), budget.horizon)
    if args.horizon is not None:
        budget = Budget(budget.seconds, budget.iterations, args.horizon)
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    rows = []
    for name in args.games:
        g = game_named(name)
        for info in g.scenarios():
            if args.scenarios and info.key not in args.scenarios:
                continue
            row = bench_scenario(g, info.key, info.path, args, budget, pool)
            rows.append(row)
            if not args.json:
                print(f"{row['game']:18} {row['scenario']:30} bot W/D/L {row['won']}/{row['drawn']}/{row['lost']}"
                      f"{'/unf ' + str(row['unfinished']) if row['unfinished'] else ''} of {row['battles']}: "
                      f"{100 * row['win_rate']:.0f} % [{100 * row['low95']:.0f}, {100 * row['high95']:.0f}]  "
                      f"bench move p95 {row['bench_move_p95']:.2f}s  default move p50/p95/max "
                      f"{row['default_move_p50']:.2f}/{row['default_move_p95']:.2f}/{row['default_move_max']:.2f}s "
                      f"({row['seconds']:.0f}s)", flush=True)
                print("    the bot as " + "; as ".join(f"{side}: W/D/L {t['won']}/{t['drawn']}/{t['lost']}"
                                                     for side, t in row["by_side"].items()), flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    peak = max([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, *PEAKS])
    summary = {"budget": budget.describe(), "horizon": budget.horizon, "default": STRENGTHS["normal"].describe(),
               "peak_rss_mb": round(peak, 1), "rows": rows}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"bot budget {budget.describe()} (horizon {budget.horizon}); default budget "
              f"{STRENGTHS['normal'].describe()}; peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
