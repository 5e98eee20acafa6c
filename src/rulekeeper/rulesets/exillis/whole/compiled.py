"""The particle loops compiled with numba, loaded on first use; ``None`` without numba (the numpy reference runs).

Why: a sampled preview spends half its time in the particles' draws, each a dozen numpy passes over
10,000 particles per projectile or strike. The compiled loops (:mod:`.particle_kernels`) make the same
draws from the same :class:`numpy.random.Generator`, in the same order, with the same floating-point
operations, so they give the numpy reference's numbers bit for bit
(``tests/exillis/whole/test_whole_compiled.py``). The numpy code in :mod:`.sampled_volley` and
:mod:`.sampled_round` stays the reference and the fallback.

Loaded lazily, from a process's second whole-action computation on: importing numba and loading the machine
code costs about a second of CPU once per process (``cache=True`` keeps the compiled code in ``__pycache__``
between processes, so numba compiles once per install, about 12 s), more than a one-off preview saves. The switch is the lab kernel's: ``RULEKEEPER_NUMBA=0`` (the test session sets it)
or numba missing runs the numpy reference.
"""

from __future__ import annotations

import os
import time
from typing import Protocol

import numpy as np

from .dist import begun, not_counted
from .sampled import Bools, Floats, Ints


class Kernels(Protocol):
    """What the samplers call in :mod:`.particle_kernels` (the module itself is the implementation: mypy checks it
    against these signatures where :func:`_load` returns it)."""

    def volley_shot(self, rng: np.random.Generator, live: Bools, group: Ints, flat: Floats, k: int, kinds: Ints,
                    alive: Ints, counts: Ints, enemy: Bools, ally: Bools, weight: Floats, block: Floats, law_idx: Ints,
                    chain_on: bool, chain: Bools, later_b: Floats, later_law: Ints, immune: Bools, law_vals: Floats,
                    law_cum: Floats, law_len: Ints, s_hp: Floats, si: int, bad: float, t_hp: Floats, off: Ints,
                    ff: Ints, d_order: Ints, d_n: Ints) -> None: ...

    def round_strike(self, rng: np.random.Generator, a_hp: Floats, ai: int, t_hp: Floats, off: Ints, recv: Ints,
                     ret: Bools, caps: Floats, agg: Floats, hit: Ints, hit_cum: Floats, hit_law: Ints, back: Ints,
                     back_cum: Floats, back_law: Ints, retc: Floats, a_bad: float, t_bad: Floats, law_vals: Floats,
                     law_cum: Floats, law_len: Ints, a_dead: Ints, d_order: Ints, d_n: Ints) -> None: ...

    def count_groups(self, counts: Ints) -> tuple[Ints, Ints, bool]: ...


_loaded: list[Kernels | None] = []


def kernels() -> Kernels | None:
    """The compiled kernels (a namespace of numba functions), or ``None`` to run the numpy reference.

    Not during a process's first whole-action computation: a process that previews once (a CLI call) would spend
    more loading numba than the reference spends on the preview; the numbers are the same either way."""
    if not _loaded:
        if begun() < 2:
            return None
        began = time.perf_counter()
        _loaded.append(_load())
        not_counted(time.perf_counter() - began)  # numba's start is not the preview's computation
    return _loaded[0]


def _load() -> Kernels | None:
    if os.environ.get("RULEKEEPER_NUMBA", "1") == "0":
        return None
    try:
        import numba  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # pragma: no cover - the reference is what the test session runs
        return None
    del numba
    from . import particle_kernels

    particle_kernels.warm()
    return particle_kernels


def use(on: bool | None) -> None:
    """Force the compiled kernels on (``True``, numba required), off (``False``) or back to the switch (``None``);
    for the test that ties the two together and the bench that compares them."""
    _loaded.clear()
    if on is False:
        _loaded.append(None)
    elif on is True:
        saved = os.environ.pop("RULEKEEPER_NUMBA", None)
        try:
            _loaded.append(_load())
        finally:
            if saved is not None:
                os.environ["RULEKEEPER_NUMBA"] = saved
