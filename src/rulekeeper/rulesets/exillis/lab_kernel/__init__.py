"""Ex illis unit-against-unit fights for the balance lab (being written: see issue 16)."""

from __future__ import annotations

from rulekeeper.core.duels import DuelRequest, DuelTally


class ExIllisDuelKernel:
    """Placeholder until the kernel lands; every call says so."""

    def units(self) -> list[str]:
        raise NotImplementedError("the Ex illis duel kernel is being written")

    def levels(self) -> tuple[int, int]:
        raise NotImplementedError("the Ex illis duel kernel is being written")

    def points(self, unit: str, level: int) -> float:
        raise NotImplementedError("the Ex illis duel kernel is being written")

    def check(self, request: DuelRequest) -> None:
        raise NotImplementedError("the Ex illis duel kernel is being written")

    def duel(self, request: DuelRequest) -> DuelTally:
        raise NotImplementedError("the Ex illis duel kernel is being written")

    def reference_duel(self, request: DuelRequest) -> DuelTally:
        raise NotImplementedError("the Ex illis duel kernel is being written")
