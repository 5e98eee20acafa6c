"""Shared output helpers: Rich console, JSON printing, error exit."""

from __future__ import annotations

import json
import sys
from typing import NoReturn

from rich.console import Console
from rich.markup import escape

from rulekeeper.core.errors import RulekeeperError

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def fail(exc: RulekeeperError, as_json: bool = False) -> NoReturn:
    """Report a typed error without a traceback and exit with code 2."""
    if as_json:
        print_json(exc.to_dict())
    else:
        # never wrapped: a file name cut in two cannot be copied back into a command; escaped: a name
        # such as "[/]" is text, not Rich markup
        err_console.print(f"[bold red]error[/] [dim]({escape(exc.code)})[/]: {escape(exc.message)}", soft_wrap=True)
    raise SystemExit(2)
