"""Where a lab request's battles are fought: serially, in local processes, or on Dask.

``run_duel(kernel, request, backend=..., workers=..., chunk=...)`` is the one entry point for
unit duels (``bench/lab.py`` calls it too); :class:`Runner` runs any :class:`~.works.ChunkWork`
(the generic scenario path as well) and may be kept open across many requests (a sweep).

The battles ``start`` … ``start + count - 1`` are cut into chunks by index; every battle draws
from a stream seeded by ``(seed, battle index)``, and the chunk tallies are merged in index
order (a sum of integer histograms), so neither the backend, nor the worker count, nor the
chunk size changes one byte of the result.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor, as_completed
from types import ModuleType, TracebackType
from typing import Any, Protocol, TypeVar

from rulekeeper.core.duels import DuelKernel, DuelRequest, DuelTally
from rulekeeper.core.errors import RulekeeperError

from .errors import CLUSTER_INSTALL, BackendMissingError, LabRequestError, SchedulerUnreachableError, remote_error
from .works import ChunkWork, DuelWork, KernelSource, Tally

T = TypeVar("T", bound=Tally)

BACKENDS = ("serial", "process", "dask")
#: The largest chunk a default split makes (a chunk's tally is small; its run time is what matters).
MAX_DEFAULT_CHUNK = 250_000
#: Seconds to wait for a Dask scheduler before calling it unreachable.
CONNECT_TIMEOUT = 10.0

Progress = Callable[[int, int], None]


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def split(start: int, count: int, chunk: int) -> list[tuple[int, int]]:
    """``[start, start + count)`` as ``(first index, battles)`` chunks of at most ``chunk`` battles."""
    return [(s, min(chunk, start + count - s)) for s in range(start, start + count, chunk)]


def default_chunk(count: int, workers: int) -> int:
    """About eight chunks per worker (so a slow chunk does not hold the others), at most
    :data:`MAX_DEFAULT_CHUNK` battles each."""
    return max(1, min(MAX_DEFAULT_CHUNK, math.ceil(count / (8 * max(1, workers)))))


class _Failed:
    """A typed error raised in a worker, sent back as data (see :func:`.errors.remote_error`)."""

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message


def run_chunk(work: ChunkWork[T], start: int, count: int) -> T | _Failed:
    """Run one chunk where it lands (a module-level function: processes and Dask import it by name)."""
    try:
        return work.run(start, count)
    except RulekeeperError as exc:
        return _Failed(exc.code, exc.message)


def _checked(result: T | _Failed) -> T:
    if isinstance(result, _Failed):
        raise remote_error(result.code, result.message)
    return result


class Runner:
    """An open backend: a process pool or a Dask client, kept for as many requests as needed.

    Use as a context manager; ``run(work, start, count)`` returns the merged tally.
    """

    def __init__(self, backend: str = "serial", workers: int | None = None, scheduler: str | None = None,
                 connect_timeout: float = CONNECT_TIMEOUT) -> None:
        if backend not in BACKENDS:
            from rulekeeper.core.errors import UnknownNameError

            raise UnknownNameError("lab backend", backend, BACKENDS)
        if workers is not None and workers < 1:
            raise LabRequestError(f"--workers must be at least 1, got {workers}", workers=workers)
        if scheduler is not None and backend != "dask":
            raise LabRequestError(f"--scheduler is for the dask backend, not {backend!r}", scheduler=scheduler)
        self.backend = backend
        self.workers = workers or (1 if backend == "serial" else default_workers())
        self.scheduler = scheduler
        self.connect_timeout = connect_timeout
        self._pool: ProcessPoolExecutor | None = None
        self._client: _DaskClient | None = None
        self._cluster: _Closable | None = None  # the local cluster this runner started, if any

    def __enter__(self) -> Runner:
        if self.backend == "process":
            import multiprocessing

            # spawn: safe with threads (numba, Dask) and the same on every platform
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        elif self.backend == "dask":
            self._client, self._cluster = _dask_client(self.scheduler, self.workers, self.connect_timeout)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def run(self, work: ChunkWork[T], start: int, count: int, chunk: int | None = None,
            progress: Progress | None = None) -> T:
        """The merged tally of battles ``start`` … ``start + count - 1`` of ``work``."""
        if count < 1:
            raise LabRequestError(f"the number of simulations must be at least 1, got {count}", sims=count)
        if chunk is not None and chunk < 1:
            raise LabRequestError(f"--chunk must be at least 1, got {chunk}", chunk=chunk)
        parts = split(start, count, chunk or default_chunk(count, self.workers))
        results: list[T | None] = [None] * len(parts)
        done = 0

        def finished(i: int, result: T | _Failed) -> None:
            nonlocal done
            results[i] = _checked(result)
            done += parts[i][1]
            if progress is not None:
                progress(done, count)

        if self.backend == "serial":
            for i, (s, c) in enumerate(parts):
                finished(i, run_chunk(work, s, c))
        elif self.backend == "process":
            assert self._pool is not None, "use the Runner as a context manager"
            futures: dict[Future[T | _Failed], int] = {self._pool.submit(run_chunk, work, s, c): i
                                               for i, (s, c) in enumerate(parts)}
            try:
                for fut in as_completed(futures):
                    finished(futures[fut], fut.result())
            except BrokenExecutor as exc:  # a worker killed (out of memory, a signal): say so, no traceback
                raise LabRequestError(f"a worker process died ({exc}); try fewer --workers "
                                      "or a smaller --chunk (a sweep keeps its finished cells)") from None
        else:
            self._run_dask(work, parts, finished)
        tally: T = work.empty()
        for part in results:  # in index order: the merge is exact, the order only fixes key order
            assert part is not None  # every chunk finished (or raised)
            tally = tally.merged(part)
        return tally

    def _run_dask(self, work: ChunkWork[T], parts: list[tuple[int, int]],
                  finished: Callable[[int, T | _Failed], None]) -> None:
        dask_completed: Any = _distributed().as_completed
        assert self._client is not None, "use the Runner as a context manager"
        futures = [self._client.submit(run_chunk, work, s, c, pure=False) for s, c in parts]
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in dask_completed(futures):
            finished(index[fut.key], fut.result())


class _Closable(Protocol):
    """What the runner does with the local cluster it starts (Dask leaves ``LocalCluster.close`` untyped)."""

    def close(self) -> object: ...


class _DaskFuture(Protocol):
    @property
    def key(self) -> str: ...


class _DaskClient(Protocol):
    """What the runner asks of a ``dask.distributed.Client`` (whose methods Dask leaves untyped)."""

    def submit(self, func: Callable[..., object], *args: object, pure: bool = True) -> _DaskFuture: ...

    def close(self) -> object: ...


def _distributed() -> ModuleType:
    """``dask.distributed``, or a typed error saying how to install it."""
    try:
        import dask.distributed
    except ImportError:
        raise BackendMissingError(f"the dask backend needs Dask: {CLUSTER_INSTALL}", install=CLUSTER_INSTALL) from None
    return dask.distributed


def _dask_client(scheduler: str | None, workers: int, timeout: float) -> tuple[_DaskClient, _Closable | None]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster of ``workers`` processes."""
    distributed = _distributed()
    if scheduler is None:
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        return distributed.Client(cluster), cluster
    try:
        return distributed.Client(scheduler, timeout=timeout), None
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # refused, timed out, not an address
        raise SchedulerUnreachableError(
            f"no Dask scheduler answered at {scheduler!r} within {timeout:g} s ({type(exc).__name__}: "
            f"{str(exc)[:200]})", scheduler=scheduler) from None


def run_duel(kernel: DuelKernel | str, request: DuelRequest, backend: str = "serial", workers: int | None = None,
             chunk: int | None = None, scheduler: str | None = None, progress: Progress | None = None, *,
             reference: bool = False, game: str | None = None, runner: Runner | None = None,
             connect_timeout: float = CONNECT_TIMEOUT) -> DuelTally:
    """Fight ``request``'s battles on ``backend`` and merge the chunk tallies.

    ``kernel`` is a :class:`DuelKernel` or a game's name; the workers of the process and Dask
    backends build the kernel themselves from the game's name (found through the registry; a
    kernel no registered game offers is pickled). ``reference=True`` fights with the kernel's
    reference engine instead. ``runner`` reuses an open :class:`Runner` (its backend wins).
    The request is checked by the kernel first (a typed error for an unknown unit or level).
    """
    if request.count < 1:
        raise LabRequestError(f"the number of simulations must be at least 1, got {request.count}",
                              sims=request.count)
    if runner is not None:
        backend = runner.backend
    local = kernel if not isinstance(kernel, str) and game is None else None
    source = KernelSource(kernel=local) if backend == "serial" and local is not None else KernelSource.of(kernel, game)
    checker = source.get()
    checker.check(request)
    work = DuelWork(source, request, reference)
    if runner is not None:
        return runner.run(work, request.start, request.count, chunk, progress)
    with Runner(backend, workers, scheduler, connect_timeout) as own:
        return own.run(work, request.start, request.count, chunk, progress)
