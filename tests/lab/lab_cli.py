"""``rulekeeper ...`` run in this process through ``main()``, for the lab's CLI tests."""

from __future__ import annotations

from dataclasses import dataclass

from cli_kit import run_captured


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def run_cli(*argv: str) -> Ran:
    """``rulekeeper ARGV`` in this process through ``main()``, as the installed script runs it."""
    done = run_captured(*argv, width=None)
    return Ran(done.returncode, done.stdout, done.stderr)
