"""A seeded random number generator whose whole state is plain data.

The state of numpy's PCG64 bit generator is a small dict of integers; we keep it
as an immutable :class:`RngState` inside the battle state / chance record, so a
move is a pure function ``(state, action, rng_state) -> (state', events, rng_state')``
and any roll can be replayed bit for bit (the idea of boardgame.io's random plugin).
No code in rulekeeper uses :mod:`random` or numpy's global generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

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
    def from_dict(cls, d: dict[str, Any]) -> RngState:
        return cls(int(d["state"]), int(d["inc"]), int(d.get("has_uint32", 0)), int(d.get("uinteger", 0)))

    @classmethod
    def from_seed(cls, seed: int) -> RngState:
        if seed < 0:
            raise InvalidStatError(f"seed must be >= 0, got {seed}", field="seed")
        import numpy as np  # imported at the first draw: a command that only computes odds never pays for numpy

        bg = np.random.PCG64(seed)
        st: dict[str, Any] = dict(bg.state)
        return cls._from_numpy(st)

    @classmethod
    def _from_numpy(cls, st: dict[str, Any]) -> RngState:
        return cls(
            int(st["state"]["state"]),
            int(st["state"]["inc"]),
            int(st["has_uint32"]),
            int(st["uinteger"]),
        )

    def _to_numpy(self) -> dict[str, Any]:
        return {
            "bit_generator": "PCG64",
            "state": {"state": self.state, "inc": self.inc},
            "has_uint32": self.has_uint32,
            "uinteger": self.uinteger,
        }


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
        self._bg.state = state._to_numpy()  # type: ignore[assignment]
        self._gen = np.random.Generator(self._bg)

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(RngState.from_seed(seed))

    @property
    def state(self) -> RngState:
        st: dict[str, Any] = dict(self._bg.state)
        return RngState._from_numpy(st)

    def random(self) -> float:
        """One uniform double in [0, 1)."""
        return float(self._gen.random())
