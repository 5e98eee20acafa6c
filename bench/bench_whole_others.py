"""Whole-action odds outside Ex illis (issue 27): Confrontation frays up to 4 against 4, and the whole-action
preview of every legal action along each game's starter scenario.

    python bench/bench_whole_others.py [--steps 12] [--json]

Prints:

1. each Confrontation fray of shipped fighters (everyone fighting every opponent), 1 v 1 to 4 v 4: the method
   ``fray_ends`` picks (exact or the numpy kernel's estimate), its stated error, wall and CPU seconds; the
   issue's 3 v 2 also through the engine's own resolutions (2 000 runs, timed, and scaled to the 100 000 the CLI
   ran before), so the speed-up is measured in one run;
2. for Confrontation, Dragon Noir and the Battle System, the policy plays the starter scenario ``--steps``
   actions; at each state every legal action's ``whole_odds`` is timed: count, p50, p95, max (ms).

Wall time on a shared machine varies with the load; CPU time (``time.process_time``) is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.core.whole import whole_odds_of
from rulekeeper.rulesets.confrontation.cards import shipped_fighter
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import Fray, fray_monte_carlo
from rulekeeper.rulesets.confrontation.fray_whole import fray_ends
from rulekeeper.rulesets.confrontation.wounds import load_wound_table

ALAHAN = ["Alahan swordsman", "Alahan guard", "Alahan paladin", "Alahan swordsman"]
WOLFEN = ["Wolfen hunter", "Wolfen predator", "Wolfen warlord", "Wolfen tracker"]
SIZES = [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3), (4, 4)]
GAMES = ("confrontation", "dragonnoir", "battlesystem")


def fray(a: int, b: int) -> Fray:
    table = load_wound_table()
    return Fray((tuple(Combatant(shipped_fighter(n)) for n in ALAHAN[:a]),
                 tuple(Combatant(shipped_fighter(n)) for n in WOLFEN[:b])), table)


def frays() -> list[dict[str, Any]]:
    rows = []
    for a, b in SIZES:
        f = fray(a, b)  # a fresh fray: no cache from an earlier size
        wall, cpu = time.perf_counter(), time.process_time()
        found = fray_ends(f)
        rows.append({"fray": f"{a} v {b}", "method": found.method, "error_95": found.error_bound,
                     "wall_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu})
    f = fray(3, 2)
    wall, cpu = time.perf_counter(), time.process_time()
    fray_monte_carlo(f, 2_000, 1)
    rows.append({"fray": "3 v 2, engine resolutions ×2 000", "method": "engine Monte Carlo",
                 "error_95": 1.96 * (0.25 / 2_000) ** 0.5, "wall_s": time.perf_counter() - wall,
                 "cpu_s": time.process_time() - cpu, "cpu_s_for_100000": (time.process_time() - cpu) * 50})
    return rows


def previews(name: str, steps: int) -> dict[str, Any]:
    g = game(name)
    assert isinstance(g, Game)
    info = g.scenarios()[0]
    state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=7)).document)
    times: list[float] = []
    shown = 0
    for _ in range(steps):
        if g.status(state).over:
            break
        for lg in g.legal_actions(state):
            t = time.perf_counter()
            whole = whole_odds_of(g, state, lg.action)
            times.append(time.perf_counter() - t)
            shown += whole is not None
        action = g.policy(state)
        if action is None:
            break
        state = g.apply(state, action).state
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return {"game": name, "scenario": info.key, "actions": len(times), "with_whole_odds": shown,
            "p50_ms": 1000 * statistics.median(times) if times else 0.0, "p95_ms": 1000 * p95,
            "max_ms": 1000 * (times[-1] if times else 0.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = {"frays": frays(), "previews": [previews(name, args.steps) for name in GAMES]}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for r in out["frays"]:
        extra = f"  (×50: {r['cpu_s_for_100000']:.1f} s CPU)" if "cpu_s_for_100000" in r else ""
        print(f"{r['fray']:<34} {r['method']:<18} ±{100 * r['error_95']:.2f} %  wall {r['wall_s']:.3f} s  "
              f"cpu {r['cpu_s']:.3f} s{extra}")
    for p in out["previews"]:
        print(f"{p['game']:<14} {p['scenario']:<18} {p['actions']:>5} actions ({p['with_whole_odds']} with whole "
              f"odds): p50 {p['p50_ms']:.1f} ms, p95 {p['p95_ms']:.1f} ms, max {p['max_ms']:.1f} ms")


if __name__ == "__main__":
    main()
