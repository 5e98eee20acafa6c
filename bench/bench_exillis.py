"""Ex illis speed, measured side by side in one run (ratios, not absolute goals).

    python bench/bench_exillis.py

1. Exact odds vs Monte Carlo: the Fate Screen's exact odds of one duel against
   estimating them from seeded resolutions to ±1 % (95 %, ~10^4 draws).
2. A melee round with the per-round odds cache (the engine) against recomputing the
   odds for every strike (what the engine did before the cache).
(A whole battle, engine alone and stored, is measured by ``bench_protocol.py``; the engine
against an older commit by ``bench_engine.py``.)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rulekeeper.core.chance import Fate, discrete
from rulekeeper.rulesets.exillis.melee import MeleeContext, duel_odds, resolve_round
from rulekeeper.rulesets.exillis.setup import UnitSpec, build, load_tables

ROOT = Path(__file__).resolve().parents[1]


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    t = load_tables()
    taken: set[str] = set()
    a = build(t, UnitSpec("Billmen"), "A", taken)
    d = build(t, UnitSpec("Franc Chevalers"), "B", taken)
    ctx = MeleeContext(t.rules)

    exact = timed(lambda: duel_odds(a, d, ctx))

    def mc() -> None:
        req = discrete("duel", duel_odds(a, d, ctx).odds)
        fate = Fate.from_seed(1)
        for _ in range(10_000):
            fate.draw(req)

    mc_time = timed(mc, 1)
    print(f"exact odds of a duel        {exact * 1e6:9.1f} µs")
    print(f"Monte Carlo ±1 % (10^4)     {mc_time * 1e6:9.1f} µs   ratio {mc_time / exact:8.0f}× slower")

    zone = (build(t, UnitSpec("Billmen"), "A", set()), build(t, UnitSpec("Vileins"), "B", set()))
    cached = timed(lambda: [resolve_round(zone, "Billmen", ctx, Fate.from_seed(i)) for i in range(200)])

    def uncached() -> None:
        # the same rounds, plus the odds recomputed for every strike as before the cache
        for i in range(200):
            r = resolve_round(zone, "Billmen", ctx, Fate.from_seed(i))
            for _ in r.duels:
                duel_odds(zone[0], zone[1], ctx)

    plain = timed(uncached)
    print(f"200 melee rounds, cached    {cached * 1e3:9.1f} ms")
    print(f"200 rounds + odds per strike{plain * 1e3:9.1f} ms   ratio {plain / cached:8.2f}×")


if __name__ == "__main__":
    main()
