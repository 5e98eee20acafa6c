"""Compile the kernel with numba when it is there, or run the very same functions in the interpreter.

Why one switch for every kernel module: the numba path and the numpy fallback must give the
same numbers, and the surest way is that they are the same source. With numba the functions
are compiled on first call (``cache=True`` keeps the machine code in ``__pycache__`` between
runs); without it (or with ``RULEKEEPER_NUMBA=0`` in the environment, which the cross-check
test uses) the decorators return the functions unchanged and ``prange`` is ``range``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _load_numba() -> Any:
    if os.environ.get("RULEKEEPER_NUMBA", "1") == "0":
        return None
    try:
        import numba  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # pragma: no cover - the fallback is tested through RULEKEEPER_NUMBA=0
        return None
    return numba


NUMBA: Any = _load_numba()

#: How the tallies were made, as :attr:`DuelTally.method` says it.
METHOD = "monte carlo (numba kernel)" if NUMBA is not None else "monte carlo (numpy kernel)"


def kernel(fn: F) -> F:
    """A hot-loop function: ``numba.njit(cache=True)``, or ``fn`` itself without numba.

    ``error_model="numpy"``: no ZeroDivisionError checks in the loops (no division there can be by 0).
    """
    if NUMBA is None:
        return fn
    return cast(F, NUMBA.njit(cache=True, nogil=True, error_model="numpy")(fn))


def parallel_kernel(fn: F) -> F:
    """The battle loop: ``numba.njit(parallel=True, cache=True)`` so ``prange`` spreads battles on threads."""
    if NUMBA is None:
        return fn
    return cast(F, NUMBA.njit(parallel=True, cache=True, nogil=True, error_model="numpy")(fn))


prange: Callable[..., range] = range if NUMBA is None else NUMBA.prange


def set_threads(n: int) -> None:
    """numba's thread count (the bench compares 1 and 2); nothing to do without numba."""
    if NUMBA is not None:
        NUMBA.set_num_threads(n)
