"""Chunks of work a worker can run by itself: a game found by name, and what to do with it.

A worker (a spawned process, a Dask worker on another machine) gets a small picklable object
and a range of battle indices; it finds the game through :mod:`rulekeeper.core.ruleset`'s
registry by name, builds the game's kernel there (once per process), and sends back a tally.
Kernels hold compiled functions and need not pickle; games registered at run time (a test's toy
game) travel as their class, which pickles by reference and is registered in the worker.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, TypeVar

from rulekeeper.core.capabilities import duel_kernel_of as offered_kernel
from rulekeeper.core.duels import DuelKernel, DuelRequest, DuelTally
from rulekeeper.core.errors import RulekeeperError

if TYPE_CHECKING:
    from rulekeeper.core.ruleset import Ruleset  # noqa: F401  (annotations)

from .errors import LabRequestError

T = TypeVar("T", bound="Tally")
T_co = TypeVar("T_co", bound="Tally", covariant=True)

#: Kernels built in this process, by game name.
_KERNELS: dict[str, DuelKernel] = {}


class Tally(Protocol):
    """What a chunk of battles sends back: merged by a sum, in any order."""

    battles: int

    def merged(self: T, other: T) -> T: ...


class ChunkWork(Protocol[T_co]):
    """Battles ``start`` … ``start + count - 1`` of one request, run where it lands."""

    def run(self, start: int, count: int) -> T_co: ...

    def empty(self) -> T_co: ...


@dataclass(frozen=True)
class GameRef:
    """A registered game by name (and its class, for games registered at run time only)."""

    name: str
    cls: type[object]

    @classmethod
    def find(cls, name: str) -> GameRef:
        from rulekeeper.core.ruleset import find_ruleset, ruleset_name

        found = find_ruleset(name)
        return cls(ruleset_name(found, name), found)

    def game(self) -> Ruleset:
        """The registered ruleset (a whole game wrapped for the neutral layers: ``core.registered``)."""
        from rulekeeper.core.ruleset import Ruleset, game, register_for_tests, registered

        if self.name not in registered():
            register_for_tests(self.cls)
        found = game(self.name)
        if not isinstance(found, Ruleset):
            raise LabRequestError(f"{self.name} is not a ruleset (it lacks the calculator side)", game=self.name)
        return found

    def kernel(self) -> DuelKernel:
        """The game's duel kernel, built once per process; a typed error when it has none."""
        if self.name not in _KERNELS:
            _KERNELS[self.name] = duel_kernel_of(self.game(), self.name)
        return _KERNELS[self.name]


def duel_kernel_of(game: object, name: str) -> DuelKernel:
    """``game.duel_kernel()``, refused with a typed error when the game has none (yet)."""
    try:
        kernel = offered_kernel(game)
    except NotImplementedError as exc:
        raise LabRequestError(f"the {name} duel kernel is not available yet ({exc}); "
                              f"'rulekeeper lab play {name} SCENARIO' plays whole scenarios", game=name) from None
    if kernel is None:
        raise LabRequestError(f"{name} has no duel kernel: 'rulekeeper lab play {name} SCENARIO' plays whole "
                              "scenarios of it instead", game=name)
    return kernel


@dataclass(frozen=True)
class KernelSource:
    """Where a worker gets the kernel: by game name (preferred) or as the pickled kernel itself."""

    ref: GameRef | None = None
    kernel: DuelKernel | None = None

    def get(self) -> DuelKernel:
        if self.kernel is not None:
            return self.kernel
        assert self.ref is not None
        return self.ref.kernel()

    @classmethod
    def of(cls, kernel: DuelKernel | str, game: str | None = None) -> KernelSource:
        """The source of ``kernel``: a game name, the registered game offering a kernel of its
        class, or (for a kernel no game offers) the kernel itself if it pickles."""
        if isinstance(kernel, str) or game is not None:
            return cls(ref=GameRef.find(game if game is not None else str(kernel)))
        ref = _offering_game(kernel)
        if ref is not None:
            return cls(ref=ref)
        try:
            pickle.dumps(kernel)
        except Exception as exc:  # pickling fails with many kinds of error
            raise LabRequestError(f"the kernel {type(kernel).__name__} is offered by no registered game and does not "
                                  f"pickle ({type(exc).__name__}); pass the game's name instead") from None
        return cls(kernel=kernel)


def _offering_game(kernel: DuelKernel) -> GameRef | None:
    """The registered game whose ``duel_kernel()`` is of ``kernel``'s class (nearest modules first)."""
    from rulekeeper.core.ruleset import registered

    module = type(kernel).__module__.split(".")

    def shared(cls: type[object]) -> int:
        other = cls.__module__.split(".")
        n = 0
        while n < min(len(module), len(other)) and module[n] == other[n]:
            n += 1
        return -n

    for name, cls in sorted(registered().items(), key=lambda item: (shared(item[1]), item[0])):
        ref = GameRef(name, cls)
        try:
            offered = offered_kernel(ref.game())
        except (NotImplementedError, RulekeeperError):
            continue
        if offered is not None and type(offered) is type(kernel):
            _KERNELS.setdefault(name, kernel)
            return ref
    return None


@dataclass(frozen=True)
class DuelWork:
    """A duel request's battles, fought with the kernel's fast path (or its reference engine)."""

    source: KernelSource
    request: DuelRequest
    reference: bool = False

    def run(self, start: int, count: int) -> DuelTally:
        kernel = self.source.get()
        part = replace(self.request, start=start, count=count)
        return kernel.reference_duel(part) if self.reference else kernel.duel(part)

    def empty(self) -> DuelTally:
        return DuelTally()
