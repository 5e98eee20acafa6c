"""Worker processes that think for the keeper's sides (:mod:`.bot_worker`), kept between moves.

Why a pool of plain processes: a worker imports the games once (about a second) and then
answers a move in its budget; a move whose battle changed, or that runs past its time, is
stopped by killing its worker (a search cannot be interrupted politely), and the next move
starts a fresh one.  A worker is also retired after :data:`JOBS_PER_WORKER` moves, so memory a
game keeps between calls cannot grow without bound.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from .bot_worker import Answer, Job

#: Seconds a new worker may take to import the games and the bot.
START_TIMEOUT = 60.0
#: Moves one worker answers before it is replaced.
JOBS_PER_WORKER = 200
#: Where ``rulekeeper`` is imported from: the workers import the same code as the keeper.
_SOURCE = str(Path(__file__).resolve().parents[2])


class Worker:
    """One worker process and what it has sent but we have not read yet."""

    def __init__(self, memory_bytes: int) -> None:
        env = {**os.environ, "PYTHONPATH": _SOURCE + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen([sys.executable, "-m", "rulekeeper.service.bot_worker", str(memory_bytes)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True)
        self.jobs = 0
        self._buffer = b""

    def send(self, job: Job) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(asdict(job)) + "\n").encode())
        self.proc.stdin.flush()
        self.jobs += 1

    def receive(self, timeout: float) -> Answer | None:
        """The answer if it is complete within ``timeout`` seconds, else None (EOFError: the worker died)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError(f"the bot's process ended (exit code {self.proc.poll()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        found: Answer = json.loads(line)  # our own worker's line (bot_worker.main)
        return found

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


class WorkerPool:
    """Idle workers to hand out, at most ``size`` busy at once (the caller's slots bound that)."""

    def __init__(self, memory_bytes: int) -> None:
        self.memory_bytes = memory_bytes
        self._idle: list[Worker] = []
        self._lock = threading.Lock()
        self._starting = threading.Lock()
        self._closed = False

    def run(self, job: Job, limit: float, keep_going: Callable[[], bool], every: float) -> Answer | None:
        """``job``'s answer; ``{"error": "timeout"}`` after ``limit`` seconds; None once ``keep_going()`` says stop.

        ``keep_going`` is asked every ``every`` seconds while the worker starts and thinks; a stopped or
        late job's worker is killed (its answer would be for a battle that moved on).  A new worker's
        start (its imports) is not counted in ``limit``.
        """
        worker = self._take(keep_going, every)
        if worker is None:
            return None
        done = False
        try:
            worker.send(job)
            deadline = time.monotonic() + limit
            while True:
                try:
                    found = worker.receive(min(every, max(0.0, deadline - time.monotonic())))
                except EOFError as exc:
                    return {"error": str(exc)}
                if found is not None:
                    done = True
                    return found
                if not keep_going():
                    return None
                if time.monotonic() >= deadline:
                    return {"error": "timeout"}
        finally:
            self._give_back(worker, done)

    def warm(self, count: int = 1) -> None:
        """Start workers now until ``count`` are idle, so the next moves do not wait for their start."""
        while True:
            with self._lock:
                if len(self._idle) >= count or self._closed:
                    return
            worker = self._start(lambda: not self._closed, 0.2)
            if worker is None:
                return
            self._give_back(worker, True)

    def _take(self, keep_going: Callable[[], bool], every: float) -> Worker | None:
        """An idle worker, or a new one once it has started (None if ``keep_going`` stops it first)."""
        while True:
            with self._lock:
                while self._idle:
                    w = self._idle.pop()
                    if w.proc.poll() is None:
                        return w
                    w.kill()
            # one start at a time: two workers importing at once on two cores take twice as long each
            if self._starting.acquire(timeout=every):
                break
            if not keep_going():
                return None
        try:
            with self._lock:  # a worker started while we waited for the lock
                if self._idle:
                    return self._idle.pop()
            return self._start(keep_going, every)
        finally:
            self._starting.release()

    def _start(self, keep_going: Callable[[], bool], every: float) -> Worker | None:
        worker = Worker(self.memory_bytes)
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while time.monotonic() < deadline and keep_going():
                if worker.receive(every) is not None:
                    return worker  # its "ready" line
        except EOFError:
            pass
        worker.kill()
        return None

    def _give_back(self, worker: Worker, done: bool) -> None:
        with self._lock:
            if done and not self._closed and worker.jobs < JOBS_PER_WORKER and worker.proc.poll() is None:
                self._idle.append(worker)
                return
        worker.kill()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for w in idle:
            w.kill()
