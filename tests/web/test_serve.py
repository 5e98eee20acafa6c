"""``rulekeeper serve`` as players run it (issue 23, faults 6, 9 and 11).

One keeper process per module, started on port 0: it binds a free port itself and prints it,
so no test races another process for a port.  Against it: ``X-Forwarded-For`` is not believed
unless a proxy is configured, a real link opens past another client's guess limit, a slow
request head and a slow body are cut off, and a client leaving mid-body is one log line.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def keeper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The keeper's base URL and the file its output goes to."""
    home = tmp_path_factory.mktemp("serve")
    out = home / "out.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200",
           "RULEKEEPER_HEADER_TIMEOUT": "1", "RULEKEEPER_BODY_TIMEOUT": "1"}
    with out.open("w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "rulekeeper", "serve", "--port", "0", "--db",
                                 str(home / "web.db"), "--no-qr", "--no-demo"], env=env, stdout=sink,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"serving on (http://127\.0\.0\.1:(\d+))", out.read_text())):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the keeper did not say its port: {out.read_text()}")
            time.sleep(0.1)
        assert found.group(2) != "0"  # the port it really listens on
        yield found.group(1), out
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_forwarded_for_is_not_believed_and_a_real_link_is_never_locked_out(
        keeper: tuple[str, Path]) -> None:
    base, _ = keeper
    with httpx.Client(base_url=base, timeout=30) as c:
        made = c.post("/api/battles", json={"scenario": "duel", "seed": 1}).json()
        bid = made["id"]
        codes = [c.get(f"/api/battles/{bid}", params={"token": f"guess{i}"},
                     headers={"X-Forwarded-For": f"10.0.{i // 250}.{i % 250}"}).status_code for i in range(125)]
        # one address however many it claims: the default limit (120 per 10 minutes) holds
        assert codes[:120] == [404] * 120 and codes[120:] == [429] * 5
        for role in ("A", "B", "spectator"):  # the players behind that address still open their battle
            assert c.get(f"/api/battles/{bid}", params={"token": made["tokens"][role]}).status_code == 200


def test_a_slow_request_head_is_cut_off(keeper: tuple[str, Path]) -> None:
    base, _ = keeper
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        started = time.monotonic()
        assert s.recv(100) == b""  # closed by the keeper
        assert time.monotonic() - started < 8


def test_a_slow_body_gets_408_and_a_vanished_client_one_log_line(keeper: tuple[str, Path]) -> None:
    base, out = keeper
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"POST /new HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                  b"Content-Length: 100\r\n\r\nscenario=du")
        answer = s.recv(200)
        assert answer.startswith(b"HTTP/1.1 408"), answer
    for _ in range(3):  # clients that leave mid-body
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(b"POST /new HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                      b"Content-Length: 100\r\n\r\nscenario=du")
    with httpx.Client(base_url=base, timeout=30) as c:  # still serving
        assert c.get("/api/scenarios").status_code == 200
    time.sleep(1.5)
    assert "Traceback" not in out.read_text() and "ClientDisconnect" not in out.read_text()
