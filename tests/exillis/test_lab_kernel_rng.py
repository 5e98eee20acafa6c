"""The kernel's integer shortcuts draw what the uniforms say (issue 16: same rules, faster kernel).

``rng.draw_below`` picks a target from the 53 bits of a draw, and ``strikes.pick_bits`` rolls to
hit on those bits against ``ceil(cum × 2⁵³)``; both must give what the uniform ``u`` of the same
draw gives — floor(u × k) and the first outcome with ``u < cum`` — so the rules do not move.
"""

from __future__ import annotations

import math

import numpy as np

from rulekeeper.rulesets.exillis.lab_kernel.rng import draw, draw_below, draw_bits, seed_key
from rulekeeper.rulesets.exillis.lab_kernel.strikes import bit_thresholds, pick, pick_bits


def test_a_target_is_floor_of_the_uniform_times_the_targets_left() -> None:
    """A target is ``ELIGIBLE[floor(u × k)]`` (``strikes.open_targets``), for k up to the largest unit (2047)."""
    base = seed_key(16)
    for slot in range(300):
        u = draw(base, slot)
        for k in (1, 2, 3, 7, 8, 13, 100, 2047):
            assert draw_below(base, slot, k) == math.floor(u * k)  # the float product rounds up ~k in 2⁵³: not here
            assert draw_bits(base, slot) * 2.0**-53 == u


def test_the_roll_to_hit_on_bits_is_the_roll_on_the_uniform() -> None:
    """The same outcome as ``pick`` (first ``k`` with ``u < cum[k]``), including zero-odds outcomes and the edges."""
    rng = np.random.default_rng(16)
    odds = rng.dirichlet(np.ones(6), size=40)
    odds[::3, 1] = 0.0  # outcomes of probability 0 never come out
    cum = np.cumsum(odds / odds.sum(1, keepdims=True), axis=1)
    cum[5] = cum[5] * (1 - 2.0**-52)  # a row whose sum rounds below 1: the last draws fall past the end
    bits_cum = bit_thresholds(cum)
    base = seed_key(17)
    bits = [int(draw_bits(base, slot)) for slot in range(400)]
    edges: list[int] = [*bits_cum.ravel().tolist(), 2**53 - 1, 0]
    for row in range(cum.shape[0]):
        for b in [*bits, *edges, *(e - 1 for e in edges if e > 0)]:
            b = min(max(b, 0), 2**53 - 1)
            assert pick_bits(bits_cum, cum, row, np.int64(b)) == pick(cum, row, b * 2.0**-53)
