"""Entry point of the ``rulekeeper`` command: the plain forms of a few commands at once, the rest through Typer.

Every :class:`RulekeeperError` becomes a clean message and exit code 2 (never a traceback).

Why this module builds nothing: it is what the console script imports, and building the Typer tree
(:mod:`.root`) imports Typer, the pydantic it validates parameters with, and every neutral command,
which cost ``battle show`` more than twice a numpy import before it drew anything (issue 22, point 6).
:mod:`.fast` runs ``battle show [ID] [--db DB] [--json]``, the root's ``--help`` and the command lines
a game runs itself without them; ``app`` (the Typer app, for tests and completion) is built on first use.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rulekeeper.core.errors import RulekeeperError

from .output import fail

if TYPE_CHECKING:
    import typer

    app: typer.Typer


def tolerant_streams() -> None:
    """Print what cannot be encoded escaped instead of failing half-way through an answer.

    An argument that is not UTF-8 (a file name in Latin-1, a battle id typed in a Latin-1
    terminal) reaches Python as lone surrogates, which a UTF-8 stdout refuses to encode; stderr
    already escapes them (Python's default), and now stdout does too (``\\udcff``, which is also
    valid inside a JSON string).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main() -> None:
    tolerant_streams()
    try:
        from . import fast

        if fast.run(sys.argv[1:]):
            raise SystemExit(0)  # as Click ends a command that returns
        from .root import app

        app(prog_name="rulekeeper")  # also under python -m: the completion script completes "rulekeeper"
    except RulekeeperError as exc:
        fail(exc, as_json="--json" in sys.argv)


def __getattr__(name: str) -> typer.Typer:
    """``from rulekeeper.cli.app import app``: the Typer tree, built when first asked for."""
    if name == "app":
        from .root import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
