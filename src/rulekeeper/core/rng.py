"""A seeded random number generator whose whole state is plain data.

The state of numpy's PCG64 bit generator is a small dict of integers; we keep it
as an immutable :class:`RngState` inside the battle state / chance record, so a
move is a pure function ``(state, action, rng_state) -> (state', events, rng_state')``
and any roll can be replayed bit for bit (the idea of boardgame.io's random plugin).
No code in rulekeeper uses :mod:`random` or numpy's global generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, TypedDict

from .errors import InvalidStatError

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, slots=True)
class RngState:
    """The full PCG64 state as JSON-able integers."""

    state: int
    inc: int
    has_uint32: int = 0
    uinteger: int = 0

    def to_dict(self) -> dict[str, int]:
        return {
            "state": self.state,
            "inc": self.inc,
            "has_uint32": self.has_uint32,
            "uinteger": self.uinteger,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, int]) -> RngState:
        return cls(int(d["state"]), int(d["inc"]), int(d.get("has_uint32", 0)), int(d.get("uinteger", 0)))

    @classmethod
    def from_seed(cls, seed: int) -> RngState:
        if seed < 0:
            raise InvalidStatError(f"seed must be >= 0, got {seed}", field="seed")
        import numpy as np  # imported at the first draw: a command that only computes odds never pays for numpy

        bg = np.random.PCG64(seed)
        return cls._from_numpy(bg.state)

    @classmethod
    def _from_numpy(cls, st: Mapping[str, object]) -> RngState:
        """From numpy's PCG64 ``state`` dict (typed loosely by numpy; its integers are checked here)."""
        inner = st["state"]
        if not isinstance(inner, Mapping):
            raise TypeError(f"not a PCG64 state: {st!r:.200}")
        return cls(_integer(inner["state"]), _integer(inner["inc"]), _integer(st["has_uint32"]),
                   _integer(st["uinteger"]))

    def _to_numpy(self) -> Pcg64State:
        return {
            "bit_generator": "PCG64",
            "state": {"state": self.state, "inc": self.inc},
            "has_uint32": self.has_uint32,
            "uinteger": self.uinteger,
        }


class _Pcg64Inner(TypedDict):
    state: int
    inc: int


class Pcg64State(TypedDict):
    """numpy's PCG64 ``bit_generator.state``."""

    bit_generator: str
    state: _Pcg64Inner
    has_uint32: int
    uinteger: int


def _integer(value: object) -> int:
    if isinstance(value, int):
        return value
    raise TypeError(f"not an integer in a PCG64 state: {value!r:.100}")


@cache
def _placeholder_seed() -> np.random.SeedSequence:
    """A fixed seed sequence (not OS entropy, which is slower) for a generator whose state is set at once."""
    import numpy as np

    return np.random.SeedSequence(0)


class Rng:
    """A mutable cursor over an :class:`RngState`; read ``.state`` to persist it.

    Every draw is a single uniform double in [0, 1) (``random()``); all other draws
    are built from it so that a recorded ``u`` fully explains each outcome.
    """

    __slots__ = ("_bg", "_gen")

    def __init__(self, state: RngState) -> None:
        import numpy as np

        self._bg = np.random.PCG64(_placeholder_seed())
        self._bg.state = state._to_numpy()
        self._gen = np.random.Generator(self._bg)

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(RngState.from_seed(seed))

    @property
    def state(self) -> RngState:
        return RngState._from_numpy(self._bg.state)

    def random(self) -> float:
        """One uniform double in [0, 1)."""
        return float(self._gen.random())
