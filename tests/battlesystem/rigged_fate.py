"""A Fate that draws the outcomes a worked example printed, through the real requests and pick.

The guide says "The roll results in a 24": to reproduce the example we need that roll. Rather
than hunt for a seed, :class:`RiggedFate` answers a request it was told about with the uniform
number in the middle of the wanted outcome's interval, so the record carries the real odds and
a ``u`` that really selects the outcome (``recheck`` passes); other requests draw from a seed.
"""

from __future__ import annotations

from rulekeeper.core.chance import ChanceRequest, ChanceResult, Fate
from rulekeeper.core.rng import Rng


def u_for(request: ChanceRequest, outcome: str) -> float:
    """The uniform number in the middle of ``outcome``'s slice of [0, 1)."""
    low = 0.0
    for name, p in request.odds():
        if name == outcome:
            return low + p / 2
        low += p
    raise AssertionError(f"{request.label}: {outcome!r} is not an outcome of {request.outcomes}")


class RiggedFate(Fate):
    def __init__(self, wanted: dict[str, list[str]], seed: int = 0) -> None:
        super().__init__(Rng.from_seed(seed))
        self.wanted = {label: list(outcomes) for label, outcomes in wanted.items()}

    def draw(self, request: ChanceRequest) -> ChanceResult:
        queue = self.wanted.get(request.label)
        if not queue:
            return super().draw(request)
        outcome = queue.pop(0)
        u = u_for(request, outcome)
        result = ChanceResult(request, u, index=request.pick(u))
        assert result.outcome == outcome
        result.recheck()
        self.records.append(result)
        return result
