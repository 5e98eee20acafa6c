"""Run the kernel on a request and turn its histograms into a :class:`DuelTally`.

The numba kernel compiles on the first call of a process (or loads from numba's cache);
without numba the same functions run in the interpreter on numpy arrays and scalars
(64-bit words wrap by design there, so numpy's overflow warnings are silenced).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from rulekeeper.core.duels import OUTCOMES, DuelRequest, DuelTally

from . import layout as L
from .fighters import fighters
from .jit import METHOD
from .rng import seed_key
from .tables import DuelTables, build_tables

#: Histogram rows of one kernel call (one per ``prange`` iteration); the sums do not depend on it.
BLOCKS = 256


@dataclass(frozen=True)
class KernelRun:
    """A tally and what it cost: attacks made (strikes and retaliations, or projectiles) and uniforms drawn."""

    tally: DuelTally
    attacks: int
    uniforms: int


def tables_for(request: DuelRequest) -> DuelTables:
    return build_tables(fighters(request), request.mode == "shoot", request.charge, request.max_rounds)


def run(request: DuelRequest, tables: DuelTables | None = None) -> KernelRun:
    """Fight ``request``'s battles in the kernel (``tables`` may be reused between chunks of one request)."""
    from .battle import run_battles  # imported here: numba compiles (or loads its cache) on first use

    t = tables if tables is not None else tables_for(request)
    blocks = max(1, min(BLOCKS, request.count))
    outcomes = np.zeros((blocks, len(OUTCOMES)), np.int64)
    rounds = np.zeros((blocks, request.max_rounds + 1), np.int64)
    survivors = np.zeros((blocks, 2, t.max_n + 1), np.int64)
    counts = np.zeros((blocks, 2), np.int64)
    with np.errstate(over="ignore"):
        run_battles(seed_key(request.seed), request.start, request.count, t.shoot, request.max_rounds, t.side_i,
                    t.side_f, t.thresholds, t.sched_i, t.sched_f, t.hit_cum, t.ret_cum, t.sens, t.intim,
                    t.params, outcomes, rounds, survivors, counts)
    return KernelRun(_tally(outcomes.sum(0), rounds.sum(0), survivors.sum(0)), int(counts[:, 0].sum()),
                     int(counts[:, 1].sum()))


def _counter(hist: np.ndarray) -> Counter[int]:
    return Counter({int(k): int(v) for k, v in enumerate(hist) if v})


def _tally(outcomes: np.ndarray, rounds: np.ndarray, survivors: np.ndarray) -> DuelTally:
    return DuelTally(
        battles=int(outcomes.sum()),
        outcomes=Counter({name: int(outcomes[code]) for code, name in enumerate(OUTCOMES) if outcomes[code]}),
        rounds=_counter(rounds),
        first_survivors=_counter(survivors[0]),
        second_survivors=_counter(survivors[1]),
        method=METHOD,
    )


def probe_attacks(request: DuelRequest, attacks: int) -> dict[str, int]:
    """The first unit's opening attack, ``attacks`` times on an unkillable target: outcome counts.

    Also counts "Retaliates": a defended attack answered (the defender's RET chance). The
    odds are the tables' (the strike's reference ``duel_odds``); the draws are the kernel's.
    """
    from .probe import probe

    t = tables_for(request)
    first = int(np.flatnonzero(t.sched_i[:, L.ATT] == 0)[0])
    out = np.zeros(len(L.MELEE_OUTCOMES) + 1, np.int64)
    with np.errstate(over="ignore"):
        probe(seed_key(request.seed), attacks, t.hit_cum[first, _state0(t), 0], t.side_f, out)
    return {name: int(n) for name, n in zip((*L.MELEE_OUTCOMES, "Retaliates"), out, strict=True)}


def _state0(t: DuelTables) -> int:
    """The first unit's morale state at the start (its starting morale against its thresholds)."""
    morale = t.side_f[0, L.MORALE0]
    n_thr = int(t.side_i[0, L.N_THR])
    return next((k for k in range(n_thr) if morale >= t.thresholds[0, k]), n_thr)
