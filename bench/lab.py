"""The balance lab's Ex illis kernel against the machine's limit, measured side by side in one run.

    python bench/lab.py [--quick]

Issue 16 ("Scope and performance"); ratios in one run, never timed tests:

1. numpy's raw uniform draws per second (PCG64, one core);
2. the kernel's attacks per CPU-second (numba, one thread), and the uniforms each attack uses;
3. kernel ÷ (uniforms/s ÷ uniforms per attack) — goal ≥ 0.25;
4. kernel ÷ reference engine (``resolve_round``) on the same fights, battles per CPU-second — goal ≥ 1000×
   (and the numpy fallback's battles per CPU-second, what runs without numba);
5. 2 workers ÷ 1 worker (``rulekeeper.lab.backends.run_duel``, process backend, one numba thread
   each): CPU-seconds per simulation and wall time on a warm pool (workers started, numba loaded),
   with the load average
   — goal ≥ 1.9× in wall time when the second core is free; numba threads 2 ÷ 1 in one process too;
6. peak memory of 10^7 simulations ÷ 10^5 (peak RSS and tracemalloc peak, each in a fresh
   process) — goal ≤ 1.2×: tallies stream as histograms, never one sample per battle.

The machine is shared: every rate is per CPU-second of this process (``time.process_time``), so
another user's load slows the wall clock but not the ratios much; wall times are printed too,
with the load average. "Uniforms per attack" are the uniforms the kernel actually computed
(draws an attack did not need are never made) divided by the attacks it made (strikes and
retaliations), both counted inside the kernel; the deployment coin of each battle is counted
too. The last block is the README's performance table, ready to paste.
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
from rulekeeper.rulesets.exillis.lab_kernel.driver import run, run_fallback, tables_for
from rulekeeper.rulesets.exillis.lab_kernel.jit import METHOD, set_threads

QUICK = "--quick" in sys.argv
FIRST, SECOND = "Billmen", "Vileins"  # the measurement
KERNEL_SIMS = 200_000 if QUICK else 1_000_000
REFERENCE_SIMS = 60 if QUICK else 1000
FALLBACK_SIMS = 20_000 if QUICK else 100_000
WORKER_SIMS = 400_000 if QUICK else 4_000_000
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


def _pool_cpu() -> float | None:
    """CPU seconds of this process's children so far (the pool's workers, still running), or None without psutil."""
    try:
        import psutil  # type: ignore[import-untyped, unused-ignore]  # with the cluster and test extras (Dask needs it)
    except ImportError:
        return None
    return float(sum(c.cpu_times().user + c.cpu_times().system for c in psutil.Process().children(recursive=True)))


def warm_run(workers: int) -> tuple[float | None, float]:
    """(CPU seconds, wall seconds) of the big run on a pool already started, every worker's numba loaded."""
    from rulekeeper.lab.backends import Runner, run_duel

    with Runner("process", workers) as runner:
        run_duel("exillis", DuelRequest(FIRST, SECOND, count=8 * workers, seed=5), runner=runner, chunk=1)
        c0, w0, p0 = _pool_cpu(), time.perf_counter(), time.process_time()
        run_duel("exillis", DuelRequest(FIRST, SECOND, count=WORKER_SIMS, seed=3), runner=runner)
        c1, w1, p1 = _pool_cpu(), time.perf_counter(), time.process_time()
    cpu = None if c0 is None or c1 is None else c1 - c0 + p1 - p0
    return cpu, w1 - w0


def per_sim(workers: int) -> tuple[float, float]:
    """CPU-seconds and wall seconds per simulation on a warm pool (without psutil, CPU from finished
    pools with a tiny run's start-up taken out)."""
    cpu, wall = warm_run(workers)
    if cpu is None:
        small_cpu, _ = workers_run(workers, workers)
        big_cpu, _ = workers_run(workers, WORKER_SIMS)
        cpu = big_cpu - small_cpu
    return cpu / WORKER_SIMS, wall / WORKER_SIMS


def numba_threads() -> tuple[float, float]:
    """Wall seconds of one kernel run on 1, then 2 numba threads (the same tally)."""
    request = DuelRequest(FIRST, SECOND, count=KERNEL_SIMS, seed=4)
    tables = tables_for(request)
    walls, tallies = [], []
    for n in (1, 2):
        set_threads(n)
        walls.append(cpu_timed(lambda: run(request, tables), repeat=2)[1])
        tallies.append(run(request, tables).tally.to_json())
    # the tests compile the kernel for one thread (tests/exillis/test_lab_kernel_fallback.py): threads are checked here
    assert tallies[0] == tallies[1], "the kernel's tally depends on its thread count"
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


def fallback_rate() -> float:
    """The numpy fallback (what runs without numba), battles per CPU-second on the same fights."""
    request = DuelRequest(FIRST, SECOND, count=FALLBACK_SIMS, seed=1)
    tables = tables_for(request)
    run_fallback(DuelRequest(FIRST, SECOND, count=100, seed=2), tables)
    cpu, _, _ = cpu_timed(lambda: run_fallback(request, tables))
    return request.count / cpu


def paste_block(fig: dict[str, str], load: tuple[float, float, float]) -> str:
    """The README's performance table, ready to paste (the lead re-runs the bench on a quiet machine)."""
    rows = [
        ("numpy PCG64 uniforms per CPU-second, one core", fig["uniforms"]),
        ("kernel attacks per CPU-second, one core (uniforms used per attack)", fig["attacks"]),
        ("kernel ÷ machine bound (uniforms/s ÷ uniforms per attack); goal ≥ 0.25", fig["bound"]),
        ("kernel ÷ reference engine, same fights, battles per CPU-second; goal ≥ 1000×", fig["reference"]),
        ("2 workers ÷ 1 worker (process backend): wall time, CPU-seconds per simulation; goal ≥ 1.9× with a free"
         " core", fig["workers"]),
        (f"peak memory, {MEMORY_SIMS[1]:.0e} ÷ {MEMORY_SIMS[0]:.0e} simulations (RSS); goal ≤ 1.2×", fig["memory"]),
        ("numpy fallback (no numba) ÷ reference engine, same fights", fig["fallback"]),
    ]
    lines = ["### The balance lab's Ex illis kernel", "",
             f"Measured with `python bench/lab.py{' --quick' if QUICK else ''}` ({FIRST} against {SECOND}, fought to"
             f" the end; {time.strftime('%Y-%m-%d', time.gmtime())}, {os.cpu_count()} cores, load average"
             f" {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start):", "",
             "| what | figure |", "|---|---|", *(f"| {what} | {figure} |" for what, figure in rows)]
    return "\n".join(lines)


def main() -> None:
    start_load = os.getloadavg()
    print(f"bench/lab.py — {FIRST} against {SECOND} fought to the end; kernel: {METHOD}"
          + (" (quick)" if QUICK else ""))
    fig: dict[str, str] = {}
    uniforms = uniforms_per_second()
    attacks, per_attack, kernel_battles = kernel_rates()
    bound = uniforms / per_attack
    fig["uniforms"] = f"{uniforms / 1e6:.0f} M/s"
    fig["attacks"] = f"{attacks / 1e6:.1f} M/s ({per_attack:.2f})"
    fig["bound"] = f"**{attacks / bound:.3f}** (bound {bound / 1e6:.0f} M attacks/s)"
    print(f"1. numpy PCG64 uniforms, one core          {uniforms / 1e6:9.1f} M/s")
    print(f"2. kernel attacks per core (1 thread)      {attacks / 1e6:9.2f} M/s   ({per_attack:.2f} uniforms per attack)")
    print(f"3. kernel ÷ (uniforms/s ÷ uniforms/attack) {attacks / bound:9.3f}      (bound {bound / 1e6:.1f} M attacks/s;"
          " goal ≥ 0.25)")
    reference = reference_rate()
    fig["reference"] = f"**{kernel_battles / reference:,.0f}×** ({kernel_battles:,.0f} vs {reference:,.0f} battles/s)"
    print(f"4. kernel ÷ reference engine, same fights  {kernel_battles / reference:9.0f}×     ({kernel_battles:,.0f} vs"
          f" {reference:,.1f} battles per CPU-second; goal ≥ 1000×)")
    fallback = fallback_rate()
    fig["fallback"] = f"{fallback / reference:,.0f}× ({fallback:,.0f} battles/s)"
    print(f"   numpy fallback ÷ reference engine       {fallback / reference:9.0f}×     ({fallback:,.0f} battles per"
          " CPU-second, no numba)")
    os.environ["NUMBA_NUM_THREADS"] = "1"  # each worker process: one numba thread, so workers are cores
    load = os.getloadavg()
    cpu1, wall1 = per_sim(1)
    cpu2, wall2 = per_sim(2)
    t1, t2 = numba_threads()
    fig["workers"] = (f"**{wall1 / wall2:.2f}×** wall, {cpu1 / cpu2:.2f}× CPU-s per simulation (load average"
                      f" {load[0]:.2f}); numba threads 2 ÷ 1 in one process {t1 / t2:.2f}×")
    print(f"5. 2 workers ÷ 1 worker (process backend)  wall {wall1 / wall2:5.2f}×  CPU-s per simulation"
          f" {cpu1 * 1e6:.2f} µs vs {cpu2 * 1e6:.2f} µs ({cpu1 / cpu2:.2f}×)  load average"
          f" {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores (goal ≥ 1.9× with a free core)")
    print(f"   numba threads 2 ÷ 1, one process        wall {t1 / t2:5.2f}×  ({t1:.2f} s vs {t2:.2f} s)")
    small, large = (peak_memory(n) for n in MEMORY_SIMS)
    fig["memory"] = (f"**{large['rss_kib'] / small['rss_kib']:.2f}×** ({small['rss_kib'] / 1024:.0f} vs"
                     f" {large['rss_kib'] / 1024:.0f} MiB; tracemalloc {large['traced'] / small['traced']:.2f}×)")
    print(f"6. peak memory {MEMORY_SIMS[1]:.0e} ÷ {MEMORY_SIMS[0]:.0e} simulations   RSS"
          f" {large['rss_kib'] / small['rss_kib']:5.3f}× ({small['rss_kib'] / 1024:.0f} MiB vs"
          f" {large['rss_kib'] / 1024:.0f} MiB), tracemalloc peak {large['traced'] / small['traced']:.3f}×"
          f" ({small['traced'] / 1024:.0f} KiB vs {large['traced'] / 1024:.0f} KiB; goal ≤ 1.2×)")
    end_load = os.getloadavg()
    print(f"load average: {start_load[0]:.2f} at the start, {end_load[0]:.2f} at the end\n")
    print("---- ready to paste into README.md, under ## Performance ----")
    print(paste_block(fig, start_load))


if __name__ == "__main__":
    main()
