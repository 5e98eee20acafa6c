"""A real ``rulekeeper`` web keeper in its own process, for the browser and race tests.

The keeper owns its port from the start: this process binds a listening socket on port 0
(the kernel picks a free port and nobody else can take it) and hands the socket itself to
the keeper's process, which serves on it (uvicorn's ``fd``).  Binding a port, releasing it and
asking the child to bind it again let another process take it in between ("address already
in use" under a loaded CI).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SERVER = """
import sys, uvicorn
from rulekeeper.web.api import create_app
from rulekeeper.web.ratelimit import RateLimits
limits = RateLimits(guesses=10**6, creations=10**6) if sys.argv[3] == "unlimited" else None
from rulekeeper.web.server import uvicorn_options
uvicorn.run(create_app(sys.argv[1], rate_limits=limits), fd=int(sys.argv[2]), **uvicorn_options(None))
"""


@contextmanager
def running_keeper(db: Path | str, *, unlimited: bool = False) -> Iterator[str]:
    """The keeper on ``db`` (a file or a database URL), up and answering: its base URL; stopped on leaving.

    ``unlimited``: no rate limits (tests that create hundreds of battles or race one link).
    """
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = int(listener.getsockname()[1])
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    fd = listener.fileno()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(fd), "unlimited" if unlimited else "-"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(fd,))
    try:
        deadline = time.monotonic() + 90  # a loaded CI machine may take long to import the keeper
        while True:
            try:  # the socket accepts at once (the kernel queues it): wait for an answer
                with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
                    c.sendall(b"GET /static/none HTTP/1.0\r\n\r\n")
                    if c.recv(12).startswith(b"HTTP/"):
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode(errors="replace") if proc.poll() is not None and proc.stdout else ""
                pytest.fail(f"the keeper did not start: {out}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        listener.close()
        if proc.stdout is not None:
            proc.stdout.close()
