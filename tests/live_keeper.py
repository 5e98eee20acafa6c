"""A real ``rulekeeper`` web keeper in its own process, for the browser and race tests.

The keeper owns its port from the start: this process binds a listening socket on port 0
(the kernel picks a free port and nobody else can take it) and hands the socket itself to
the keeper's process, which serves on it (uvicorn's ``fd``).  Binding a port, releasing it and
asking the child to bind it again let another process take it in between ("address already
in use" under a loaded CI).
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The keepers' parent (one per test process): it imports the keeper once, then forks a keeper for each
#: ``running_keeper`` on the database and listening socket it is sent (over a Unix socket, ``SCM_RIGHTS``).
#: Why: a keeper started from scratch costs about 3.7 s of CPU (FastAPI, pydantic's models, every rule system),
#: a forked one a few tenths, and the suite starts about 25 of them. Nothing in the parent starts a thread, so
#: forking it is safe; each keeper is a process of its own, on its own database, as before. Its CPU shows in the
#: test process's accounts when the parent ends (the end of the run), not in each test file's line of the ledger.
ZYGOTE = r"""
import json, os, signal, socket, sys
import uvicorn
from rulekeeper.core.ruleset import games
from rulekeeper.web.api import create_app
from rulekeeper.web.ratelimit import RateLimits
from rulekeeper.web.server import uvicorn_options
games()  # every rule system imported here, once
import gc, tempfile
with tempfile.TemporaryDirectory() as warm:  # and what a keeper imports as it starts (a second start: 0.2 s)
    create_app(os.path.join(warm, "warm.db"))
    gc.collect()

def reap(signum, frame):
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass

signal.signal(signal.SIGCHLD, reap)
control = socket.socket(fileno=int(sys.argv[1]))
while True:
    message, fds, _, _ = socket.recv_fds(control, 65536, 1)
    if not message:
        break
    db, unlimited, log = json.loads(message)
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        control.close()
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        os.dup2(out, 1)
        os.dup2(out, 2)
        code = 1
        try:
            limits = RateLimits(guesses=10**6, creations=10**6) if unlimited else None
            uvicorn.run(create_app(db, rate_limits=limits), fd=fds[0], **uvicorn_options(None))
            code = 0
        finally:
            sys.stdout.flush(), sys.stderr.flush()
            os._exit(code)
    os.close(fds[0])
    control.sendall(str(pid).encode())
"""


class _Zygote:
    """The running :data:`ZYGOTE` of this test process, started on first use, stopped at exit."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen([sys.executable, "-c", ZYGOTE, str(theirs.fileno())], env=env,
                                        pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self.control = ours
        self.lock = threading.Lock()
        atexit.register(self.stop)

    def fork(self, db: str, unlimited: bool, log: str, fd: int) -> int:
        """A keeper serving ``db`` on the listening socket ``fd``: its process id."""
        with self.lock:
            socket.send_fds(self.control, [json.dumps([db, unlimited, log]).encode()], [fd])
            answer = self.control.recv(64)
        if not answer:
            pytest.fail(f"the keepers' parent died (exit {self.process.wait()})")
        return int(answer)

    def stop(self) -> None:
        self.control.close()  # the parent's loop reads the end and returns
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_zygote: _Zygote | None = None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # the parent reaps its keepers as they end: a process id that answers is running
    except ProcessLookupError:
        return False
    return True


def _stop(pid: int) -> None:
    if not _alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while _alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
        time.sleep(0.02)


@contextmanager
def running_keeper(db: Path | str, *, unlimited: bool = False) -> Iterator[str]:
    """The keeper on ``db`` (a file or a database URL), up and answering: its base URL; stopped on leaving.

    ``unlimited``: no rate limits (tests that create hundreds of battles or race one link).
    """
    global _zygote
    if _zygote is None or _zygote.process.poll() is not None:
        _zygote = _Zygote()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = int(listener.getsockname()[1])
    handle, log = tempfile.mkstemp(prefix="rk-keeper-", suffix=".log")
    os.close(handle)
    pid = _zygote.fork(str(db), unlimited, log, listener.fileno())
    try:
        deadline = time.monotonic() + 90  # a loaded CI machine may take long to start the keeper
        while True:
            try:  # the socket accepts at once (the kernel queues it): wait for an answer
                with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
                    c.sendall(b"GET /static/none HTTP/1.0\r\n\r\n")
                    if c.recv(12).startswith(b"HTTP/"):
                        break
            except OSError:
                pass
            if not _alive(pid) or time.monotonic() > deadline:
                pytest.fail(f"the keeper did not start: {Path(log).read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        _stop(pid)
        listener.close()
        Path(log).unlink(missing_ok=True)
