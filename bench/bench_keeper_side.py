"""The keeper's own side as the web keeper runs it: move time (wall clock, the worker's round trip
included) and the workers' peak memory, one shipped scenario of every game.

    python bench/bench_keeper_side.py [--strength normal] [--moves 6]

For each game: a battle where the keeper plays the second side at ``--strength``; the first side plays
the game's shipped policy; the runner (``service/bot_runner.py``) is poked after every move until the
keeper has made ``--moves`` moves or the battle ends.  Prints, per game and overall, the keeper's move
times (p50/p95/max, from the poke to its move stored) and the workers' peak resident set.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rulekeeper.core.game import SetupRequest  # noqa: E402
from rulekeeper.persistence.store import BattleStore  # noqa: E402
from rulekeeper.service.battles import BattleService, game_of  # noqa: E402
from rulekeeper.service.bot_runner import BotRunner  # noqa: E402
from rulekeeper.service.bot_seat import new_seat  # noqa: E402
from rulekeeper.service.scenarios import find_scenario  # noqa: E402

EVERY_GAME = ["exillis:duel", "battlesystem:hill_road", "dragonnoir:the_wizards_duel", "confrontation:the_ford",
              "wartable:oathsworn_vs_bloodless", "wartable-campaign:shroudfall"]


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)] if xs else 0.0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strength", default="normal")
    ap.add_argument("--moves", type=int, default=6)
    args = ap.parse_args()
    svc = BattleService(BattleStore(str(Path(tempfile.mkdtemp()) / "bench.db")))
    runner = BotRunner(svc)
    runner.workers.warm()
    every: list[float] = []
    try:
        for key in EVERY_GAME:
            found = find_scenario(key)
            g = game_of(found.game)
            setup = g.setup(SetupRequest(scenario=found.info.path, seed=11))
            seat = new_seat(g.roles(setup.document), "second", args.strength, 11)
            assert seat is not None
            bid = svc.new(setup, meta={"bot": seat.to_meta()})
            before = len(runner.counters.move_seconds)
            for _ in range(400):
                runner.poke(bid)
                runner.wait_idle(120)
                state = svc.state(bid)
                if g.status(state).over or len(runner.counters.move_seconds) - before >= args.moves:
                    break
                other = [lg for lg in g.legal_actions(state) if lg.side != seat.side]
                policy = g.policy(state)
                action = policy if policy is not None and g.side_of(policy) != seat.side else (
                    other[0].action if other else None)
                if action is None:
                    break
                svc.act(bid, action, side=g.side_of(action), shown=True)
            times = runner.counters.move_seconds[before:]
            every += times
            print(f"{key:36} {len(times):3} moves  p50 {statistics.median(times) if times else 0:.2f} s  "
                  f"p95 {p95(times):.2f} s  max {max(times, default=0):.2f} s")
        c = runner.counters
        print(f"{'every game':36} {len(every):3} moves  p50 {statistics.median(every):.2f} s  p95 {p95(every):.2f} s  "
              f"max {max(every):.2f} s; fallbacks {c.fallbacks}, timeouts {c.timeouts}; "
              f"worker peak resident set {c.peak_kb / 1024:.0f} MB")
    finally:
        runner.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
