"""Compile the kernel with numba when it is there; without it, the lab fights on the numpy fallback.

Why one switch for every kernel module: numba is an optional extra, and one place decides. With numba the functions are compiled on first call (``cache=True`` keeps the
machine code in ``__pycache__`` between runs); without it (or with ``RULEKEEPER_NUMBA=0`` in
the environment, which the fallback test uses) the decorators return the functions unchanged,
``prange`` is ``range``, and :func:`.driver.run` fights on the vectorised numpy fallback
(:mod:`.vectorised`) instead — the same draws, batch by batch, rather than this source run by
the interpreter one attack at a time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _load_numba() -> ModuleType | None:
    if os.environ.get("RULEKEEPER_NUMBA", "1") == "0":
        return None
    try:
        import numba  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # pragma: no cover - the fallback is tested through RULEKEEPER_NUMBA=0
        return None
    return numba


#: Whether the battle loop is compiled for threads: ``RULEKEEPER_NUMBA_PARALLEL=0`` compiles it for one.
#: Why a switch: the threaded compile costs about 60 s of CPU once per install, the one-thread compile about
#: 20 s, and a one-core machine (or a test that checks the draws, not the speed) gains nothing from threads.
#: The tallies are the same either way: each battle draws from its own index of the counter-based stream.
PARALLEL = os.environ.get("RULEKEEPER_NUMBA_PARALLEL", "1") != "0"


def _drop_stale_cache(numba: ModuleType | None) -> None:
    """Remove the kernel's cached machine code when any kernel source changed since it was made.

    Why: numba checks a cached function against its own file only, but the battle loop (in
    ``battle.py``) has every kernel function of the other files inlined in it — an edit to
    ``strikes.py`` alone would leave the old strikes running from the cache. A stamp named by
    a hash of all the kernel's sources (and of :data:`PARALLEL`) marks a cache made from them.
    """
    if numba is None or os.environ.get("NUMBA_CACHE_DIR"):
        return  # a cache elsewhere is the user's to manage
    here = Path(__file__).parent
    # numba's cache index does not tell a threaded compile from a one-thread one: the switch is in the stamp
    made_from = [p.read_bytes() for p in sorted(here.glob("*.py"))] + [f"parallel={PARALLEL}".encode()]
    digest = hashlib.sha256(b"".join(made_from)).hexdigest()[:16]
    cache = here / "__pycache__"
    stamp = cache / f"kernel-sources-{digest}.stamp"
    try:
        if stamp.exists():
            return
        for old in [*cache.glob("*.nbi"), *cache.glob("*.nbc"), *cache.glob("kernel-sources-*.stamp")]:
            old.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.touch()
    except OSError:  # pragma: no cover - a read-only install: numba caches elsewhere or not at all
        return


NUMBA = _load_numba()
_drop_stale_cache(NUMBA)

#: How the tallies were made, as :attr:`DuelTally.method` says it.
FALLBACK_METHOD = "monte carlo (numpy kernel)"
METHOD = "monte carlo (numba kernel)" if NUMBA is not None else FALLBACK_METHOD


def kernel(fn: F) -> F:
    """A hot-loop function: ``numba.njit(cache=True)``, or ``fn`` itself without numba.

    ``error_model="numpy"``: no ZeroDivisionError checks in the loops (no division there can be by 0).
    ``inline="always"``: numba folds every kernel function into the battle loop before LLVM sees
    it. Left to LLVM, the calls keep numba's reference counting of every array argument — atomic
    operations on each strike — and the kernel ran 3× slower (measured: 11 vs 33 M attacks/s).
    """
    if NUMBA is None:
        return fn
    return cast(F, NUMBA.njit(cache=True, nogil=True, error_model="numpy", inline="always")(fn))


def parallel_kernel(fn: F) -> F:
    """The battle loop: ``numba.njit(parallel=True, cache=True)`` so ``prange`` spreads battles on threads
    (``parallel=False`` when :data:`PARALLEL` is off: ``prange`` is then a plain range)."""
    if NUMBA is None:
        return fn
    return cast(F, NUMBA.njit(parallel=PARALLEL, cache=True, nogil=True, error_model="numpy")(fn))


prange: Callable[..., range] = range if NUMBA is None else NUMBA.prange


def set_threads(n: int) -> None:
    """numba's thread count (the bench compares 1 and 2); nothing to do without numba."""
    if NUMBA is not None:
        NUMBA.set_num_threads(n)
