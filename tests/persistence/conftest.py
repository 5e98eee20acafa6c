"""A private PostgreSQL server for the store tests, so they run on both databases.

``server`` starts a throw-away server (``initdb`` into a temp directory, Unix socket
only, no TCP port, fsync off) once per test process and stops it at the end; ``url``
is a new empty database on it.  Tests are skipped cleanly when the PostgreSQL
binaries or the ``psycopg`` driver are missing, or when the server does not start;
they never depend on a server running on the machine.  ``.ci/run`` installs Debian's
``postgresql`` package, so in CI they run.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    return candidates[-1] if candidates else None


def _as_server_user() -> list[str]:
    """PostgreSQL refuses to run as root: run its binaries as ``postgres`` then."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and there is no 'postgres' user to run the server")
    if runuser is None:
        pytest.skip("running as root without runuser")
    return [runuser, "-u", "postgres", "--"]


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The URL prefix of a private PostgreSQL server (``...@/{database}?host=...``)."""
    pytest.importorskip("psycopg", reason="the psycopg driver is not installed")
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) not found")
    prefix = _as_server_user()
    home = Path(tempfile.mkdtemp(prefix="rkpg"))  # short: a socket path must fit 107 bytes
    data = home / "data"
    if prefix:
        shutil.chown(home, "postgres")
    run: dict[str, Any] = {"capture_output": True, "text": True, "timeout": 120}
    try:
        done = subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"], **run)
        if done.returncode != 0:
            pytest.skip(f"initdb failed: {done.stderr[-500:]}")
        options = f"-k {home} -c listen_addresses='' -F"
        done = subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-o", options, "-l", str(home / "log"), "-w", "-t", "60", "start"], **run
        )
        if done.returncode != 0:
            pytest.skip(f"PostgreSQL did not start: {done.stderr[-500:]}")
        try:
            yield f"postgresql+psycopg://postgres@/{{}}?host={home}"
        finally:
            subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], **run)
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def url(server: str) -> Iterator[str]:
    """A new, empty database on the private server."""
    name = f"rk_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server.format("postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    yield server.format(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database on each backend: a SQLite file path, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "rk.db")
    return str(request.getfixturevalue("url"))
