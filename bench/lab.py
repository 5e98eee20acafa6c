"""The balance lab's Ex illis kernel against the machine's limit, measured side by side in one run.

    python bench/lab.py [--quick]

Issue 16 ("Scope and performance"); ratios in one run, never timed tests:

1. numpy's raw uniform draws per second (PCG64, one core);
2. the kernel's attacks per CPU-second (numba, one thread), and the uniforms each attack uses;
3. kernel ÷ (uniforms/s ÷ uniforms per attack) — goal ≥ 0.25;
4. kernel ÷ reference engine (``resolve_round``) on the same fights, battles per CPU-second — goal ≥ 1000×;
5. 2 workers ÷ 1 worker (``rulekeeper.lab.backends.run_duel``, process backend, one numba thread
   each): CPU-seconds per simulation and wall time, pool start-up taken out, with the load average
   — goal ≥ 1.9× in wall time when the second core is free; numba threads 2 ÷ 1 in one process too;
6. peak memory of 10^7 simulations ÷ 10^5 (peak RSS and tracemalloc peak, each in a fresh
   process) — goal ≤ 1.2×: tallies stream as histograms, never one sample per battle.

The machine is shared: every rate is per CPU-second of this process (``time.process_time``), so
another user's load slows the wall clock but not the ratios much; wall times are printed too.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rulekeeper.core.duels import DuelRequest
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel.driver import run, tables_for
from rulekeeper.rulesets.exillis.lab_kernel.jit import METHOD, set_threads

QUICK = "--quick" in sys.argv
FIRST, SECOND = "Billmen", "Vileins"  # the measurement
KERNEL_SIMS = 200_000 if QUICK else 1_000_000
REFERENCE_SIMS = 60 if QUICK else 300
WORKER_SIMS = 200_000 if QUICK else 1_000_000
MEMORY_SIMS = (10**5, 10**6 if QUICK else 10**7)


def cpu_timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best (CPU seconds, wall seconds) over ``repeat`` runs, and the last result."""
    best_cpu = best_wall = float("inf")
    result: Any = None
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        best_cpu, best_wall = min(best_cpu, time.process_time() - c0), min(best_wall, time.perf_counter() - w0)
    return best_cpu, best_wall, result


def uniforms_per_second() -> float:
    g = np.random.Generator(np.random.PCG64(1))
    out = np.empty(10_000_000)
    cpu, _, _ = cpu_timed(lambda: g.random(out=out), repeat=5)
    return out.size / cpu


def kernel_rates() -> tuple[float, float, float]:
    """(attacks per CPU-second, uniforms per attack, battles per CPU-second), numba on one thread."""
    request = DuelRequest(FIRST, SECOND, count=KERNEL_SIMS, seed=1)
    tables = tables_for(request)
    run(DuelRequest(FIRST, SECOND, count=100, seed=2), tables)  # compile, or load numba's cache
    set_threads(1)
    cpu, _, done = cpu_timed(lambda: run(request, tables), repeat=2)
    return done.attacks / cpu, done.uniforms / done.attacks, request.count / cpu


def reference_rate() -> float:
    request = DuelRequest(FIRST, SECOND, count=REFERENCE_SIMS, seed=1)
    kernel = ExIllisDuelKernel()
    kernel.reference_duel(DuelRequest(FIRST, SECOND, count=5, seed=2))
    cpu, _, _ = cpu_timed(lambda: kernel.reference_duel(request))
    return request.count / cpu


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def workers_run(workers: int, sims: int) -> tuple[float, float]:
    """(CPU seconds of this process and its finished children, wall seconds) of one process-backend run."""
    from rulekeeper.lab.backends import run_duel

    c0, w0 = _children_cpu() + time.process_time(), time.perf_counter()
    run_duel("exillis", DuelRequest(FIRST, SECOND, count=sims, seed=3), backend="process", workers=workers)
    return _children_cpu() + time.process_time() - c0, time.perf_counter() - w0


def per_sim(workers: int) -> tuple[float, float]:
    """CPU-seconds and wall seconds per simulation, the pool's start-up (a tiny run) taken out."""
    small_cpu, small_wall = workers_run(workers, workers)
    big_cpu, big_wall = workers_run(workers, WORKER_SIMS)
    n = WORKER_SIMS - workers
    return (big_cpu - small_cpu) / n, (big_wall - small_wall) / n


def numba_threads() -> tuple[float, float]:
    """Wall seconds of one kernel run on 1, then 2 numba threads (the same tally)."""
    request = DuelRequest(FIRST, SECOND, count=KERNEL_SIMS, seed=4)
    tables = tables_for(request)
    walls = []
    for n in (1, 2):
        set_threads(n)
        walls.append(cpu_timed(lambda: run(request, tables), repeat=2)[1])
    return walls[0], walls[1]


MEMORY = """
import json, resource, sys, tracemalloc
from rulekeeper.core.duels import DuelRequest
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
k = ExIllisDuelKernel()
k.duel(DuelRequest("Billmen", "Vileins", count=100, seed=1))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
tally = k.duel(DuelRequest("Billmen", "Vileins", count=int(sys.argv[1]), seed=1))
traced = tracemalloc.get_traced_memory()[1]
print(json.dumps({"rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "rss_before_kib": before,
                  "traced": traced, "battles": tally.battles}))
"""


def peak_memory(sims: int) -> dict[str, int]:
    out = subprocess.run([sys.executable, "-c", MEMORY, str(sims)], capture_output=True, text=True, check=True)
    result: dict[str, int] = json.loads(out.stdout)
    return result


def main() -> None:
    print(f"bench/lab.py — {FIRST} against {SECOND} fought to the end; kernel: {METHOD}"
          + (" (quick)" if QUICK else ""))
    uniforms = uniforms_per_second()
    attacks, per_attack, kernel_battles = kernel_rates()
    bound = uniforms / per_attack
    print(f"1. numpy PCG64 uniforms, one core          {uniforms / 1e6:9.1f} M/s")
    print(f"2. kernel attacks per core (1 thread)      {attacks / 1e6:9.2f} M/s   ({per_attack:.2f} uniforms per attack)")
    print(f"3. kernel ÷ (uniforms/s ÷ uniforms/attack) {attacks / bound:9.3f}      (bound {bound / 1e6:.1f} M attacks/s;"
          " goal ≥ 0.25)")
    reference = reference_rate()
    print(f"4. kernel ÷ reference engine, same fights  {kernel_battles / reference:9.0f}×     ({kernel_battles:,.0f} vs"
          f" {reference:,.1f} battles per CPU-second; goal ≥ 1000×)")
    os.environ["NUMBA_NUM_THREADS"] = "1"  # each worker process: one numba thread, so workers are cores
    load = os.getloadavg()
    cpu1, wall1 = per_sim(1)
    cpu2, wall2 = per_sim(2)
    t1, t2 = numba_threads()
    print(f"5. 2 workers ÷ 1 worker (process backend)  wall {wall1 / wall2:5.2f}×  CPU-s per simulation"
          f" {cpu1 * 1e6:.2f} µs vs {cpu2 * 1e6:.2f} µs ({cpu1 / cpu2:.2f}×)  load average"
          f" {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores (goal ≥ 1.9× with a free core)")
    print(f"   numba threads 2 ÷ 1, one process        wall {t1 / t2:5.2f}×  ({t1:.2f} s vs {t2:.2f} s)")
    small, large = (peak_memory(n) for n in MEMORY_SIMS)
    print(f"6. peak memory {MEMORY_SIMS[1]:.0e} ÷ {MEMORY_SIMS[0]:.0e} simulations   RSS"
          f" {large['rss_kib'] / small['rss_kib']:5.3f}× ({small['rss_kib'] / 1024:.0f} MiB vs"
          f" {large['rss_kib'] / 1024:.0f} MiB), tracemalloc peak {large['traced'] / small['traced']:.3f}×"
          f" ({small['traced'] / 1024:.0f} KiB vs {large['traced'] / 1024:.0f} KiB; goal ≤ 1.2×)")


if __name__ == "__main__":
    main()
