"""``rulekeeper ...`` run in this process through ``main()``, for the lab's CLI tests."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def run_cli(*argv: str) -> Ran:
    """``rulekeeper ARGV`` in this process through ``main()``, as the installed script runs it."""
    from rulekeeper.cli import output
    from rulekeeper.cli.app import main

    saved = sys.stdout, sys.stderr, sys.argv
    out, err = io.StringIO(), io.StringIO()
    # the consoles' own streams (None: follow sys.stdout/err), not .file, which reads whatever is current
    consoles = output.console._file, output.err_console._file
    sys.stdout, sys.stderr, sys.argv = out, err, ["rulekeeper", *argv]
    output.console.file, output.err_console.file = out, err
    code = 0
    try:
        main()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdout, sys.stderr, sys.argv = saved
        output.console._file, output.err_console._file = consoles
    return Ran(code, out.getvalue(), err.getvalue())
