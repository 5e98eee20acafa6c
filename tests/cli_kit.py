"""``rulekeeper ARGS`` run in this process through ``main()``, as the installed script runs it.

One helper for the CLI tests that read what a command printed through pytest's ``capsys``: ``main()``
turns every typed error into a message and exit code 2, and ends every run with ``SystemExit`` (Click's
standalone mode), so a run that returns without one is a failure too.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Mapping

import pytest

from rulekeeper.cli.app import main


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``rulekeeper ARGS``."""
    monkeypatch.setattr("sys.argv", ["rulekeeper", *args])
    with pytest.raises(SystemExit) as done:
        main()
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def run_main(args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """(exit code, stdout and stderr together) of ``rulekeeper ARGS``: where a refusal is printed is not the point."""
    code, out, err = run(monkeypatch, capsys, *args)
    return code, out + err


def run_captured(*args: str, env: Mapping[str, str] | None = None,
                 width: int | None = 200) -> subprocess.CompletedProcess[str]:
    """``rulekeeper ARGS`` in this process, its result shaped as :func:`subprocess.run`'s (exit code, stdout,
    stderr), with ``env`` set for this run only and the consoles ``width`` wide (``None``: as they are).
    The consoles write to the captured streams themselves (a progress bar keeps the file it started on).

    Why: a fresh interpreter costs 1–2 s of CPU per command, and the CI has 15 minutes on two cores; the
    developers' guide asks for CLI tests in-process and only a few real-process smoke tests. An exception
    that escapes ``main()`` (a traceback for the user) fails the test where it is raised.
    """
    from rulekeeper.cli import output

    consoles = (output.console, output.err_console)
    saved_env = {key: os.environ.get(key) for key in (env or {})}
    saved_streams = (sys.stdin, sys.stdout, sys.stderr, sys.argv)
    saved_consoles = [(c._width, c._file) for c in consoles]  # _file None: follow sys.stdout/err
    out, err = io.StringIO(), io.StringIO()
    os.environ.update(env or {})
    sys.stdin, sys.stdout, sys.stderr, sys.argv = io.StringIO(), out, err, ["rulekeeper", *args]
    for console, stream in zip(consoles, (out, err), strict=True):
        console.file = stream
        if width is not None:
            console._width = width
    code = 0
    try:
        main()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved_streams
        for console, (saved_width, saved_file) in zip(consoles, saved_consoles, strict=True):
            console._width, console._file = saved_width, saved_file
            del console._buffer[:]
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return subprocess.CompletedProcess(["rulekeeper", *args], code, out.getvalue(), err.getvalue())
