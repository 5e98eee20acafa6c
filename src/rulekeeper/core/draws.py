"""Every branch of a resolution's draws, exactly: the rules' own code run once per sequence of outcomes.

A whole-action preview must be the odds the resolution uses (preview = roll). For an action that draws a few
discrete dice, the surest way is to run the very resolution with each possible sequence of outcomes: a
:class:`ScriptedFate` answers the first draws from a script (a ``u`` in the middle of the scripted outcome's
interval, so :meth:`~.chance.ChanceRequest.pick` returns it) and stops at the first draw beyond it; then
:func:`enumerate_draws` branches on that draw's outcomes with their probabilities. The leaves' probabilities
are the products of the requests' own probabilities: the numbers Fate draws with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .chance import ChanceRequest, ChanceResult, Fate
from .errors import RulekeeperError
from .rng import Rng
from .wording import counted

T = TypeVar("T")

#: Leaves an enumeration may reach before it gives up (each leaf runs the resolution once).
MAX_LEAVES = 2_000


class NotEnumerable(RulekeeperError):
    """The resolution draws a continuous value or has too many branches to enumerate."""

    code = "impossible_request"


class _NeedDraw(BaseException):  # noqa: N818 — a signal, not an error; BaseException so rules code never catches it
    def __init__(self, request: ChanceRequest) -> None:
        super().__init__(request.label)
        self.request = request


@dataclass
class ScriptedFate(Fate):
    """A :class:`Fate` whose draws follow ``script`` (a ``u`` per draw) and stop at the first draw beyond it."""

    rng: Rng = field(default_factory=lambda: Rng.from_seed(0))
    script: Sequence[float] = ()

    def draw(self, request: ChanceRequest) -> ChanceResult:
        k = len(self.records)
        if k >= len(self.script):
            raise _NeedDraw(request)
        u = self.script[k]
        result = ChanceResult(request, u, index=request.pick(u))
        self.records.append(result)
        return result


def middle(request: ChanceRequest, index: int) -> float | None:
    """A ``u`` that :meth:`~.chance.ChanceRequest.pick` turns into outcome ``index`` (None for a zero chance)."""
    low = sum(p for p in request.probabilities[:index] if p > 0.0)
    u = low + request.probabilities[index] / 2
    return u if request.probabilities[index] > 0.0 and request.pick(u) == index else None


@dataclass(frozen=True)
class Leaf(Generic[T]):
    """One sequence of outcomes: its probability, what the resolution made of it, and the draws."""

    probability: float
    value: T
    draws: tuple[str, ...]


def enumerate_draws(run: Callable[[Fate], T], max_leaves: int = MAX_LEAVES) -> list[Leaf[T]]:
    """Run ``run`` (a resolution drawing through the fate it is given) once per sequence of its draws' outcomes.

    The probabilities sum to 1 (up to outcomes too unlikely for a ``u`` to pick, left out). A continuous draw or
    more than ``max_leaves`` leaves raise :class:`NotEnumerable`."""
    leaves: list[Leaf[T]] = []
    todo: list[tuple[tuple[float, ...], float, tuple[str, ...]]] = [((), 1.0, ())]
    while todo:
        script, p, names = todo.pop()
        fate = ScriptedFate(script=script)
        try:
            leaves.append(Leaf(p, run(fate), names))
        except _NeedDraw as need:
            request = need.request
            if request.kind != "discrete":
                raise NotEnumerable(f"{request.label}: a continuous draw cannot be enumerated") from None
            for index, (outcome, q) in enumerate(request.odds()):
                u = middle(request, index)
                if u is not None:
                    todo.append(((*script, u), p * q, (*names, f"{request.label}: {outcome}")))
        if len(leaves) + len(todo) > max_leaves:
            raise NotEnumerable(f"more than {counted(max_leaves, 'branch', 'branches')} of draws")
    return leaves
