"""Shared pieces of the sampled (vectorised) whole-action kernels: particles, their draws, their outcomes.

When the exact dynamic programme (:mod:`.rounds`, :mod:`.volleys`) does not fit a preview's
allowance (crowded zones: the wounds of many miniatures make too many states), the same draws
are played for :data:`PARTICLES` independent particles at once with numpy: each draw's law is
the one the dynamic programme uses (the engine's ``shot_odds`` / ``duel_odds``, the exact
damage law of :func:`.dist.damage_odds`), only sampled instead of enumerated. The outcomes
(who died, in which order) are then merged and each distinct one goes through the engine's own
aftermath, as in the exact path. The result is an ``estimate``: each probability within
:func:`half_width` (95 %).

The generator is seeded with a constant, so a preview shows the same numbers every time.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .dist import K, Weighted, aftermath_room, damage_odds

#: Particles of a sampled preview: each probability within ±0.0098 (95 %), computed in tens of ms.
PARTICLES = 10_000
SEED = 27

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


#: The fewest particles a branch of an action gets (:func:`share`).
MIN_SHARE = 200


def share(weight: float) -> int:
    """Particles for a branch of chance ``weight`` of an action (a combination of charge reactions, drawn before any
    strike): in proportion to its chance, so the branches together draw about :data:`PARTICLES`. Stratified with
    proportional allocation, each probability of the whole action is then at least as precise as from
    :data:`PARTICLES` particles drawing the branch themselves: its stated :func:`half_width` holds."""
    return max(MIN_SHARE, math.ceil(weight * PARTICLES - 1e-9))


def half_width(n: int) -> float:
    """The 95 % half-width of a probability estimated from ``n`` independent particles (worst case p = ½)."""
    return 1.96 * math.sqrt(0.25 / n)


def generator(stream: int = 0) -> np.random.Generator:
    """The particles' random numbers: seeded with a constant (the same preview every time); a branch of an action
    (:func:`share`) draws its own ``stream``, independent of its siblings' (the stratified bound needs it)."""
    return np.random.default_rng([SEED, stream] if stream else SEED)


def pick(cum: Floats, u: Floats) -> Ints:
    """Index of the outcome each uniform ``u`` falls in, given cumulative weights ``cum`` (last = total)."""
    out: Ints = np.minimum(np.searchsorted(cum, u * cum[-1], side="right"), len(cum) - 1).astype(np.int64)
    return out


def pick_rows(weights: Floats, u: Floats) -> Ints:
    """Per row of ``weights`` (particles × choices), the choice ``u`` falls in (weights need not be normalised)."""
    cum = np.cumsum(weights, axis=1)
    out: Ints = np.minimum((cum < (u * cum[:, -1])[:, None]).sum(axis=1), weights.shape[1] - 1).astype(np.int64)
    return out


def count_groups(counts: Ints) -> tuple[Ints, Ints]:
    """The distinct rows of ``counts`` (particles × small non-negative counts): (index of each one's first particle,
    each particle's group). Each row is one mixed-radix code (exact: no hash), so grouping is a 1-d ``np.unique``,
    skipped when every particle has the same counts (a volley's first projectiles)."""
    n = len(counts)
    if not counts.shape[1]:
        return np.zeros(min(1, n), dtype=np.int64), np.zeros(n, dtype=np.int64)
    radix = np.concatenate([[1], np.cumprod(counts.max(axis=0)[:-1] + 1)]).astype(np.int64)
    code = counts @ radix
    if not n or code.min() == code.max():
        return np.zeros(min(1, n), dtype=np.int64), np.zeros(n, dtype=np.int64)
    _codes, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    return first.astype(np.int64), inverse.reshape(-1).astype(np.int64)


def pick_grouped(law: Floats, group: Ints, u: Floats) -> Ints:
    """:func:`pick_rows` of ``law[group]`` without building it: each group's cumulative law, normalised and offset
    by the group's number, searched once for all particles (``u + group``)."""
    k = law.shape[1]
    flat = grouped_flat(law)
    at = np.searchsorted(flat, u + group, side="left") - group * k
    out: Ints = np.clip(at, 0, k - 1).astype(np.int64)
    return out


def grouped_flat(law: Floats) -> Floats:
    """Each group's cumulative law normalised, offset by the group's number, in one sorted row (:func:`pick_grouped`;
    the compiled volley searches the same row)."""
    cum = np.cumsum(law, axis=1)
    total = cum[:, -1:]
    norm = np.divide(cum, total, out=np.ones_like(cum), where=total > 0)
    flat: Floats = (norm + np.arange(law.shape[0], dtype=np.float64)[:, None]).ravel()
    return flat


def damage_table(final: float, multiplier: float, divisor: float = 1.0) -> tuple[Floats, Floats]:
    """The values and cumulative weights :func:`damage` draws from (the compiled kernels search the same ones)."""
    law = damage_odds(final, multiplier, divisor)
    values = np.array([k for k, _ in law], dtype=np.float64)
    cum = np.cumsum([p for _, p in law])
    return values, np.asarray(cum, dtype=np.float64)


class Laws:
    """The damage laws a compiled kernel searches (:func:`damage_table`), numbered as they are first asked for."""

    def __init__(self) -> None:
        self.keys: dict[tuple[float, float, float], int] = {}
        self.made: tuple[Floats, Floats, Ints] | None = None

    def index(self, final: float, multiplier: float, divisor: float = 1.0) -> int:
        key = (final, multiplier, divisor)
        at = self.keys.get(key)
        if at is None:
            at = self.keys[key] = len(self.keys)
            self.made = None
        return at

    def arrays(self) -> tuple[Floats, Floats, Ints]:
        """(values, cumulative weights, length) per law, padded to the longest."""
        if self.made is None:
            made = [damage_table(*key) for key in self.keys] or [damage_table(0.0, 1.0)]
            width = max(len(x) for x, _c in made)
            vals = np.zeros((len(made), width), dtype=np.float64)
            cum = np.zeros((len(made), width), dtype=np.float64)
            for i, (x, c) in enumerate(made):
                vals[i, :len(x)], cum[i, :len(c)] = x, c
            self.made = (vals, cum, np.array([len(x) for x, _c in made], dtype=np.int64))
        return self.made


def damage(final: float, multiplier: float, u: Floats, divisor: float = 1.0) -> Floats:
    """Whole damage drawn from :func:`.dist.damage_odds` (the exact law of ``damage.roll``) for each ``u``."""
    values, cum = damage_table(final, multiplier, divisor)
    return values[pick(cum, u)]


def nth_alive(hp: Floats, rows: Ints, u: Floats) -> Ints:
    """For each particle in ``rows``, a living miniature of ``hp`` (particles × miniatures), uniformly."""
    return nth_true(hp[rows] > 0, u)


def nth_true(mask: npt.NDArray[np.bool_], u: Floats) -> Ints:
    """For each row of ``mask``, one of its true columns, uniformly: the ``⌊u·n⌋``-th of its ``n`` true ones (a row
    with none gives 0). Counted in int16 (at most 32,767 miniatures a unit), the costly step of a strike."""
    seen = np.cumsum(mask, axis=1, dtype=np.int16)
    n = seen[:, -1] if seen.shape[1] else np.zeros(len(mask), dtype=np.int16)
    k = np.minimum((u * n).astype(np.int16), np.maximum(n - 1, 0))
    out: Ints = np.argmax(seen > k[:, None], axis=1).astype(np.int64)
    return out


_MIX = np.random.default_rng(2027).integers(1, 2**62, size=4096, dtype=np.int64) | 1


def row_groups(key: Ints) -> tuple[Ints, Ints, Ints]:
    """The distinct rows of ``key`` (particles × columns of small ints): (index of each one's first particle,
    each particle's group, particles per group). Rows are hashed to one int64 (wrapping products with odd
    random multipliers), so grouping is a 1-d ``np.unique``; the grouping is then verified row by row and,
    should two different rows ever share a hash, redone with ``np.unique(axis=0)``."""
    if key.shape[1] > len(_MIX):
        _rows, first, inverse, counts = np.unique(key, axis=0, return_index=True, return_inverse=True,
                                                  return_counts=True)
        return first.astype(np.int64), inverse.reshape(-1).astype(np.int64), counts.astype(np.int64)
    with np.errstate(over="ignore"):
        h = (key * _MIX[: key.shape[1]]).sum(axis=1)
    _h, first, inverse, counts = np.unique(h, return_index=True, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    if not np.array_equal(key, key[first][inverse]):  # a hash collision (never seen): group exactly
        _rows, first, inverse, counts = np.unique(key, axis=0, return_index=True, return_inverse=True,
                                                  return_counts=True)
        inverse = inverse.reshape(-1)
    return first.astype(np.int64), inverse.astype(np.int64), counts.astype(np.int64)


def likeliest(out: Weighted[K]) -> Weighted[K]:
    """The sampled outcomes the engine's aftermath has room for (:func:`.dist.aftermath_room`), likeliest first; the
    mass of the others goes into ``dropped`` (shown in the error bound, as the exact programme's dropped states)."""
    k = aftermath_room()
    if k is None or len(out.states) <= k:
        return out
    ranked = sorted(out.states.items(), key=lambda kv: kv[1], reverse=True)
    kept: Weighted[K] = Weighted()
    kept.states = dict(ranked[:k])
    kept.half = out.half
    kept.dropped = out.dropped + math.fsum(p for _k, p in ranked[k:])
    return kept


def likeliest_groups(share: Ints) -> tuple[Ints, int]:
    """The groups of particles (their counts ``share``) whose outcomes go through the aftermath, likeliest first, and
    how many particles are left out (:func:`likeliest` for a round or a volley within a sampled action)."""
    order: Ints = np.argsort(-share, kind="stable").astype(np.int64)
    k = aftermath_room(0.5)  # a round or volley among several: half the room left, the rest for those that follow
    if k is None or len(order) <= k:
        return order, 0
    return order[:k], int(share[order[k:]].sum())


class DeathLog:
    """The order of deaths per particle (unit index; -1 the shooter or attacker), as the morale rules need it."""

    def __init__(self, particles: int, most: int) -> None:
        self.order = np.full((particles, max(1, most)), -9, dtype=np.int64)
        self.n = np.zeros(particles, dtype=np.int64)

    def add(self, rows: Ints, who: int) -> None:
        if len(rows):
            self.order[rows, self.n[rows]] = who
            self.n[rows] += 1

    def used(self) -> Ints:
        """The order columns any particle filled."""
        return self.order[:, : max(1, int(self.n.max()))]

    def of(self, row: npt.NDArray[np.int64]) -> tuple[int, ...]:
        return tuple(int(x) for x in row if x != -9)
