"""Stored ÷ engine per action, for every game (issue 22: keep ≤ 2× where it is, the War Table campaign ≤ 2×).

    python bench/bench_stored.py [--rounds 5] [--games exillis,wartable-campaign] [--json] [--sqlalchemy]

For each game, its first shipped scenario (seed 1) is autoplayed by the game's policy: once in
memory through the protocol (``policy`` then ``apply``: the engine alone), once by the service on
a SQLite file (``BattleService.autoplay``: each action its own transaction, with the checkpoint of
the state after it). The two run side by side in alternating rounds (a new battle each round); the
ratio is the median of the rounds' ratios of CPU time (this thread's, SQLite's work included; with
WAL and ``synchronous = NORMAL`` a commit waits for no disk), so a busy shared machine inflates neither
side; the wall-time ratio is printed beside it. ``--sqlalchemy`` also runs, in the same rounds, a store
whose appends and reads all go through SQLAlchemy (``BattleStore.fast_sqlite = False``, as before the
stdlib statements of :mod:`rulekeeper.persistence.sqlite_writes`): one more row per game, marked ``(sqla)``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.ruleset import games
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

MOST = 400  # actions per battle at most (a campaign can run long)


def engine(g: Game, document: dict[str, Any]) -> int:
    state = g.initial_state(document)
    n = 0
    while n < MOST and not g.status(state).over and (action := g.policy(state)) is not None:
        state = g.apply(state, action).state
        n += 1
    return n


def rounds_of(g: Game, scenario: Path, rounds: int, folder: Path, sqla: bool = False) -> list[dict[str, Any]]:
    setup = g.setup(SetupRequest(scenario=scenario, seed=1))
    services = [BattleService(BattleStore(folder / f"{g.name}.db"))]
    if sqla:
        services.append(BattleService(BattleStore(folder / f"{g.name}-sqla.db")))
        services[1].store.fast_sqlite = False
    pairs: list[list[tuple[float, float]]] = [[] for _ in services]
    walls: list[list[float]] = [[] for _ in services]
    actions = 0
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.thread_time()
        actions = engine(g, setup.document)
        e, ew = time.thread_time() - c0, time.perf_counter() - t0
        for i, svc in enumerate(services):
            bid = svc.new(setup)
            t0, c0 = time.perf_counter(), time.thread_time()
            svc.autoplay(bid, max_actions=MOST)
            pairs[i].append((e, time.thread_time() - c0))
            walls[i].append((time.perf_counter() - t0) / ew)
    out = []
    for i, svc in enumerate(services):
        svc.store.close()
        ratios = [s / e for e, s in pairs[i]]
        out.append({"game": g.name + (" (sqla)" if i else ""), "scenario": scenario.stem, "actions": actions,
                    "engine_ms_per_action": round(statistics.median(e for e, _ in pairs[i]) / actions * 1000, 3),
                    "stored_ms_per_action": round(statistics.median(s for _, s in pairs[i]) / actions * 1000, 3),
                    "ratio": round(statistics.median(ratios), 2), "ratio_min": round(min(ratios), 2),
                    "ratio_max": round(max(ratios), 2), "wall_ratio": round(statistics.median(walls[i]), 2)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", default="")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--all", action="store_true", help="every shipped scenario, not each game's first")
    parser.add_argument("--sqlalchemy", action="store_true", help="also a store with every statement through SQLAlchemy")
    args = parser.parse_args()
    wanted = {n for n in args.games.split(",") if n}
    folder = Path(tempfile.mkdtemp(prefix="rk-stored-"))
    out = []
    for g in games():
        if wanted and g.name not in wanted:
            continue
        infos = sorted(g.scenarios(), key=lambda i: i.key != "starter")  # Ex illis: the starter battle
        for info in infos if args.all else infos[:1]:
            out += rounds_of(g, info.path, args.rounds, folder, args.sqlalchemy)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{'game':<18} {'scenario':<30} {'actions':>7} {'engine/action':>14} {'stored/action':>14} "
          f"{'stored÷engine (CPU)':>20}  wall")
    for r in out:
        print(f"{r['game']:<18} {r['scenario']:<30} {r['actions']:>7} {r['engine_ms_per_action']:>11.3f} ms "
              f"{r['stored_ms_per_action']:>11.3f} ms {r['ratio']:>9.2f}× ({r['ratio_min']}–{r['ratio_max']})  "
              f"{r['wall_ratio']:.2f}×")


if __name__ == "__main__":
    main()
