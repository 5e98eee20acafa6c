"""The full action list with odds, for every shipped scenario of every game (issue 22, point 5).

    python bench/bench_actions.py [--actions 60] [--games battlesystem,dragonnoir] [--json]

What ``GET /api/battles/{id}/actions`` computes at each position: every legal action of the
side(s) to act and the preview (odds) of each. Each shipped scenario is set up with seed 1 and
autoplayed by the game's own policy for up to ``--actions`` actions; at every position the list
with odds is timed (the thread's CPU time, which a busy shared machine does not inflate, and the
wall time) on the state as ``apply`` left it (nothing computed on it before, as in the
keeper right after an act), then the policy moves on. Printed per game: the positions timed,
the largest list, the median, p95 and worst time (goal: p95 ≤ 50 ms on this machine), and the
slowest scenario.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass, field

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.ruleset import games


@dataclass
class Timings:
    game: str
    times: list[float] = field(default_factory=list)  # CPU seconds, one per position
    walls: list[float] = field(default_factory=list)  # wall seconds, one per position
    most_actions: int = 0
    worst: tuple[float, str] = (0.0, "")

    @staticmethod
    def p95(times: list[float]) -> float:
        return statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else \
            (times[0] if times else 0.0)

    def summary(self) -> dict[str, object]:
        return {"game": self.game, "positions": len(self.times), "most_actions": self.most_actions,
                "median_ms": round(statistics.median(self.times) * 1000, 2) if self.times else 0.0,
                "p95_ms": round(self.p95(self.times) * 1000, 2),
                "wall_p95_ms": round(self.p95(self.walls) * 1000, 2), "worst_ms": round(self.worst[0] * 1000, 2),
                "worst_at": self.worst[1]}


def action_list(g: Game, state: object) -> int:
    """The list ``/actions`` answers: every legal action with its odds; returns its length."""
    legal = g.legal_actions(state)
    for lg in legal:
        g.preview(state, lg.action).headline_dict()
    return len(legal)


def walk(g: Game, key: str, scenario: object, actions: int, out: Timings) -> None:
    setup = g.setup(SetupRequest(scenario=scenario, seed=1))  # type: ignore[arg-type]
    state = g.initial_state(setup.document)
    for position in range(actions + 1):
        if g.status(state).over:
            break
        t0, c0 = time.perf_counter(), time.thread_time()
        n = action_list(g, state)
        took = time.thread_time() - c0
        out.walls.append(time.perf_counter() - t0)
        out.times.append(took)
        out.most_actions = max(out.most_actions, n)
        if took > out.worst[0]:
            out.worst = (took, f"{key} at action {position} ({n} actions)")
        action = g.policy(state)
        if action is None:
            break
        state = g.apply(state, action).state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=60, help="positions per scenario (autoplayed)")
    parser.add_argument("--games", default="", help="comma-separated game names (default: all)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    wanted = {n for n in args.games.split(",") if n}
    results = []
    for g in games():
        if wanted and g.name not in wanted:
            continue
        timings = Timings(g.name)
        for info in g.scenarios():
            walk(g, info.key, info.path, args.actions, timings)
        results.append(timings.summary())
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print("CPU time of the list with odds per position (wall p95 too: on a shared machine it includes waiting)")
    print(f"{'game':<18} {'positions':>9} {'most':>5} {'median':>9} {'p95':>9} {'wall p95':>9} {'worst':>9}  worst at")
    for r in results:
        print(f"{r['game']:<18} {r['positions']:>9} {r['most_actions']:>5} {r['median_ms']:>7.1f}ms "
              f"{r['p95_ms']:>7.1f}ms {r['wall_p95_ms']:>7.1f}ms {r['worst_ms']:>7.1f}ms  {r['worst_at']}")


if __name__ == "__main__":
    main()
