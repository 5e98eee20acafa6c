"""What ``--help`` shows in its type column: nothing for a flag, the element's type for a repeatable option.

Why: Typer 0.29 labels every option with its Python annotation, so a flag read ``--verifiable <bool>`` (a player
typed ``--verifiable true`` and was told "unexpected extra argument") and a repeatable option ``--muster
<list[Path]>`` (one file per ``--muster``, never a list). A flag takes no value, so it shows none, as Click's
own help does; a repeatable option, or an argument of several words (``ACTION...``), shows what each takes
(``<path>``, ``<str>``).
Installed once, by :mod:`.root`, before any help is drawn; ``cli/fast_help.py`` draws the root's help the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from typer.core import TyperArgument, TyperOption

#: ``list[Path]`` → ``path``: what Typer writes for a repeatable option, and the element it takes each time.
_LIST = re.compile(r"<list\[(?P<element>[^\]]+)\]>")


Shown = Callable[[Any, Any], str | None]


def _shown(original: Shown) -> Shown:
    def display_type_rich(parameter: TyperOption | TyperArgument, ctx: Any) -> str | None:
        if getattr(parameter, "is_flag", False) and parameter.metavar is None:
            return None
        shown = original(parameter, ctx)
        return None if shown is None else _LIST.sub(lambda m: f"<{m['element'].lower()}>", shown)

    display_type_rich.installed = True  # type: ignore[attr-defined]
    return display_type_rich


def install() -> None:
    """Make Typer's options and arguments (``ACTION...``) show their types as above (idempotent)."""
    for kind in (TyperOption, TyperArgument):
        current = kind.display_type_rich
        if not getattr(current, "installed", False):
            kind.display_type_rich = _shown(current)  # type: ignore[method-assign,assignment]
