"""The search bot against the shipped policy, every shipped scenario of every game, sides swapped.

    python bench/bench_bot.py [--battles 12] [--budget 0.2s] [--cap 24] [--horizon H] [--jobs 2] [--timing 6]
                              [--games exillis ...] [--scenarios KEY ...] [--json]

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
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import statistics
import sys
import time
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
GAMES = ("exillis", "wartable", "wartable-campaign", "battlesystem", "dragonnoir", "confrontation")
MAX_ACTIONS = 3000


def play(g: Game, document: dict[str, Any], bot_side: str, budget: Budget, seed: int) -> tuple[str, list[float]]:
    """One battle, the bot playing ``bot_side``: ``won``/``drawn``/``lost``/``unfinished`` and its move times."""
    search, simple = policy_named("search", budget), policy_named("simple")
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
            action = simple.act(g, state, 0)
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


def _battle(job: tuple[str, str, int, int, Budget]) -> tuple[str, list[float], float, str]:
    """Battle ``i`` of a scenario (a worker's task): its outcome, the bot's move times, the worker's peak RSS and
    the bot's side."""
    name, key, seed0, i, budget = job
    g = game_named(name)
    path = next(info.path for info in g.scenarios() if info.key == key)
    document = g.setup(SetupRequest(scenario=path, seed=seed0)).document
    seed = battle_seed(seed0, i)
    side = g.roles(document)[i % 2]
    outcome, times = play(g, g.reseeded(document, seed), side, budget, seed)
    return outcome, times, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, side


def bench_scenario(g: Game, key: str, path: Path, args: argparse.Namespace, budget: Budget,
                   pool: Any = None) -> dict[str, Any]:
    document = g.setup(SetupRequest(scenario=path, seed=args.seed)).document
    tally = {"won": 0, "drawn": 0, "lost": 0, "unfinished": 0}
    by_side: dict[str, dict[str, int]] = {}
    move_times: list[float] = []
    started = time.perf_counter()
    jobs = [(g.name, key, args.seed, i, budget) for i in range(args.battles)]
    for outcome, times, peak, side in (pool.imap_unordered(_battle, jobs) if pool is not None else map(_battle, jobs)):
        tally[outcome] += 1
        by_side.setdefault(side, {"won": 0, "drawn": 0, "lost": 0, "unfinished": 0})[outcome] += 1
        move_times += times
        PEAKS.append(peak)
    low, high = wilson(tally["won"], args.battles)
    default_times = timing(g, document, args.timing) if args.timing else []
    return {
        "game": g.name, "scenario": key, "battles": args.battles, **tally, "by_side": by_side,
        "win_rate": tally["won"] / args.battles, "low95": low, "high95": high,
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
    args = ap.parse_args()
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
