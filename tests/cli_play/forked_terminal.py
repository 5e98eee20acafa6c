"""``rulekeeper ARGS`` on a pseudo-terminal of its own, in a process forked from the test's (no new interpreter).

Why: a fresh ``python -m rulekeeper play`` imports Typer, SQLAlchemy and every rule system again, about 1.3 s
of CPU, and the terminal tests start about thirty of them (a twentieth of the whole suite's CPU). The test
process has imported all of that already; a fork of it runs the same ``rulekeeper.cli.app.main`` on the same
pseudo-terminal (``pty.fork``: the terminal is the child's controlling terminal and its fds 0, 1 and 2) for a
few hundredths of a second. What the fork inherits that a new interpreter would not have is reset before
``main`` runs: the environment, ``sys.argv``, the standard streams (pytest's capture replaced them) and the
terminal's size. One test of the file still starts a real interpreter (``RealTerminal``), as the user does.

The child ends with ``os._exit`` (never the test process's ``atexit`` handlers or pytest's teardown), and its
exit status is read with ``waitpid``, as pexpect reads a spawned child's.
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import sys
import termios
import traceback
from collections.abc import Mapping, Sequence

import pexpect.fdpexpect

import rulekeeper.cli.app  # noqa: F401  (imported here, before any fork, so that no child imports it again)
import rulekeeper.cli.root  # noqa: F401


def _run_main(argv: Sequence[str], env: Mapping[str, str], rows: int, columns: int) -> int:
    """In the child: what ``python -m rulekeeper ARGV`` does, its exit code returned."""
    os.environ.clear()
    os.environ.update(env)
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115  (the child's own terminal, never closed)
    sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115
    sys.argv = ["rulekeeper", *argv]
    from rulekeeper.cli.app import main

    try:
        main()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # as the interpreter would: the traceback on stderr, exit code 1
        traceback.print_exc()
        return 1
    return 0


class ForkedTerminal(pexpect.fdpexpect.fdspawn):  # type: ignore[misc]
    """``rulekeeper ARGV`` in a fork of this process on a pseudo-terminal of ``dimensions`` (rows, columns)."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], timeout: float = 60,
                 dimensions: tuple[int, int] = (50, 120)) -> None:
        sys.stdout.flush(), sys.stderr.flush()
        pid, master = pty.fork()
        if pid == 0:  # the child: never returns into the test
            code = 1
            try:
                code = _run_main(argv, env, *dimensions)
            finally:
                try:
                    sys.stdout.flush(), sys.stderr.flush()
                finally:
                    os._exit(code)
        self.child_pid = pid
        self.exitstatus: int | None = None
        super().__init__(master, encoding="utf-8", timeout=timeout)

    def exit_code(self) -> int:
        """The child's exit code, once it has ended (waits for it)."""
        if self.exitstatus is None:
            _, status = os.waitpid(self.child_pid, 0)
            self.exitstatus = os.waitstatus_to_exitcode(status)
        try:
            os.close(self.child_fd)
        except OSError:
            pass
        return self.exitstatus
