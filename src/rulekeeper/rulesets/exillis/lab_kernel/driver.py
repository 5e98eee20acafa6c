"""Run the kernel on a request and turn its histograms into a :class:`DuelTally`.

The numba kernel compiles on the first call of a process (or loads from numba's cache);
without numba (or with ``RULEKEEPER_NUMBA=0``) the vectorised numpy fallback
(:mod:`.vectorised`) fights the same battles with the same draws. 64-bit words wrap by design
in both, so numpy's overflow warnings are silenced.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from dataclasses import dataclass

import numpy as np

from rulekeeper.core.duels import OUTCOMES, DuelRequest, DuelTally

from . import layout as L
from .fighters import check_counts, fighters
from .jit import FALLBACK_METHOD, METHOD, NUMBA
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


#: Tables of recent requests, by everything but seed, start and count (which they do not depend on).
_TABLES: OrderedDict[str, DuelTables] = OrderedDict()
TABLES_KEPT = 16


def tables_for(request: DuelRequest) -> DuelTables:
    """The request's tables, built once per process for all chunks and seeds of the same fight.

    Why kept: building them (the reference engine's odds for every strike) takes 30-100 ms, as
    long as a chunk of 50,000 battles — and a worker gets many chunks of one request.
    """
    check_counts(request)
    try:
        key = json.dumps([request.first, request.second, request.first_level, request.second_level, request.mode,
                          request.charge, request.max_rounds, request.deployment, request.options,
                          request.overrides], sort_keys=True, default=repr)
    except (TypeError, ValueError):  # odd keys: build the tables (fighters() refuses what is wrong), keep nothing
        key = ""
    tables = _TABLES.get(key) if key else None
    if tables is None:
        tables = build_tables(fighters(request), request.mode == "shoot", request.charge, request.max_rounds,
                              request.deployment)
        if key:
            _TABLES[key] = tables
            while len(_TABLES) > TABLES_KEPT:
                _TABLES.popitem(last=False)
    return tables


def flat_odds(t: DuelTables) -> tuple[np.ndarray, np.ndarray]:
    """The odds tables with one row per (strike, morale state[, targets left]): the kernel picks rows by index."""
    return t.hit_cum.reshape(-1, t.hit_cum.shape[-1]), t.ret_cum.reshape(-1, t.ret_cum.shape[-1])


def run(request: DuelRequest, tables: DuelTables | None = None) -> KernelRun:
    """Fight ``request``'s battles in the kernel (``tables`` may be reused between chunks of one request).

    The numba kernel when numba is there; otherwise the vectorised numpy fallback, which draws
    the same numbers and gives the same tally.
    """
    t = tables if tables is not None else tables_for(request)
    if NUMBA is None:
        return run_fallback(request, t)
    from .battle import run_battles  # imported here: numba compiles (or loads its cache) on first use

    blocks = max(1, min(BLOCKS, request.count))
    outcomes = np.zeros((blocks, len(OUTCOMES)), np.int64)
    rounds = np.zeros((blocks, request.max_rounds + 1), np.int64)
    survivors = np.zeros((blocks, 2, t.max_n + 1), np.int64)
    counts = np.zeros((blocks, 2), np.int64)
    with np.errstate(over="ignore"):
        run_battles(seed_key(request.seed), request.start, request.count, t.shoot, request.max_rounds, t.side_i,
                    t.side_f, t.thresholds, t.sched_i, t.sched_f, *flat_odds(t), t.sens, t.intim,
                    t.params, outcomes, rounds, survivors, counts)
    return KernelRun(_tally(outcomes.sum(0), rounds.sum(0), survivors.sum(0), METHOD), int(counts[:, 0].sum()),
                     int(counts[:, 1].sum()))


def run_fallback(request: DuelRequest, tables: DuelTables | None = None) -> KernelRun:
    """The request's battles on the vectorised numpy fallback (what :func:`run` does without numba)."""
    from .vectorised import run_numpy

    t = tables if tables is not None else tables_for(request)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):  # masked-out rows may divide by 0
        h = run_numpy(seed_key(request.seed), request.start, request.count, t.shoot, request.max_rounds, t,
                      *flat_odds(t))
    return KernelRun(_tally(h.outcomes, h.rounds, h.survivors, FALLBACK_METHOD), h.attacks, h.uniforms)


def _counter(hist: np.ndarray) -> Counter[int]:
    return Counter({int(k): int(v) for k, v in enumerate(hist) if v})


def _tally(outcomes: np.ndarray, rounds: np.ndarray, survivors: np.ndarray, method: str) -> DuelTally:
    return DuelTally(
        battles=int(outcomes.sum()),
        outcomes=Counter({name: int(outcomes[code]) for code, name in enumerate(OUTCOMES) if outcomes[code]}),
        rounds=_counter(rounds),
        first_survivors=_counter(survivors[0]),
        second_survivors=_counter(survivors[1]),
        method=method,
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
        probe(seed_key(request.seed), attacks, flat_odds(t)[0], first * L.STATES + _state0(t), t.side_f, out)
    return {name: int(n) for name, n in zip((*L.MELEE_OUTCOMES, "Retaliates"), out, strict=True)}


def _state0(t: DuelTables) -> int:
    """The first unit's morale state at the start (its starting morale against its thresholds)."""
    morale = t.side_f[0, L.MORALE0]
    n_thr = int(t.side_i[0, L.N_THR])
    return next((k for k in range(n_thr) if morale >= t.thresholds[0, k]), n_thr)
