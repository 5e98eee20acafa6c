"""``rulekeeper --help`` drawn without building the Typer tree: the same Rich panels, from a small table.

Why: importing Typer, Click and Typer's Rich help renderer (which imports ``rich.markdown`` and
``markdown_it`` though the root's help has no Markdown) cost ``--help`` 2.6 times a numpy import, the
goal 2 times (issue 22, point 6). The root's help is a fixed text, three options and a list of
commands: the neutral ones in :data:`NEUTRAL` and the games' own from :mod:`.manifest`. Here they are
laid out with the same Rich objects, styles and console settings as ``typer.rich_utils.rich_format_help``,
so the bytes are the same at any width, with or without colour (``tests/test_cli_fast_help.py`` compares
them with Typer's own help in each case, and the table with the Typer tree, so neither can drift).

Typer is left to answer when the games' commands are not remembered (no manifest, or a stale one:
Typer loads the games and writes it), and when ``TYPER_USE_RICH`` turns Rich off.
"""

from __future__ import annotations

import inspect
import os
import sys
from functools import cache
from typing import TYPE_CHECKING

from . import manifest

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.highlighter import Highlighter
    from rich.text import Text

#: The root's usage line, as Click writes it for a group (it is never wrapped: Click's width is at least 50).
USAGE = "Usage: rulekeeper [OPTIONS] COMMAND [ARGS]..."

#: The root's own help (``cli/root.py``).
ROOT_HELP = "A rule keeper for tabletop wargames: exact odds, seeded fate, explained modifiers."

#: The root's options: name, type as Typer shows it (none: they are flags, ``cli/help_types.py``), help (Typer's completion options and Click's ``--help``).
OPTIONS = (
    ("--install-completion", "", "Install completion for the current shell."),
    ("--show-completion", "", "Show completion for the current shell, to copy it or customize the installation."),
    ("--help", "", "Show this message and exit."),
)

#: The neutral commands in the order the Typer tree lists them, each with the first paragraph of its help.
NEUTRAL = (
    ("play", "Play a battle in the terminal: the board, numbered actions with their odds, the Fate Screen."),
    ("games", "Every registered rule system: whole battles or not (and why), scenarios, optional parts."),
    ("serve", "Start the web rule keeper."),
    ("units", "List every unit and hero with all stats and where each number comes from."),
    ("battle", "Play a whole battle of any installed game, stored in a database."),
    ("lab", "The balance lab: simulate scenarios, duels and matchup sweeps at scale."),
    ("odds", "Show the exact odds of an action before any roll."),
    ("resolve", "Resolve an action with seeded fate and show every duel."),
)

#: ``typer.rich_utils``' styles, the ones the root's help uses.
THEME = {"option": "bold cyan", "switch": "bold green", "negative_option": "bold magenta",
         "negative_switch": "bold red", "types": "bold yellow", "types_sep": "dim", "usage": "yellow"}


def first_paragraph(help_text: str) -> str:
    """A command's line in the list, as Typer takes it from its help in ``rich`` markup mode."""
    first = inspect.cleandoc(help_text).split("\n\n")[0]
    if first.startswith("\b"):
        first = first.replace("\b\n", "")
    return first.strip()


def commands() -> list[tuple[str, str]] | None:
    """Every command ``--help`` lists, or None when the games' commands are not remembered for this install."""
    remembered = manifest.read()
    if remembered is None:
        return None
    own = {name for name, _ in NEUTRAL}
    return [*NEUTRAL, *((c.name, c.help) for c in remembered if c.name not in own)]


def run() -> bool:
    """Print the root's help (True), or leave it to Typer (False) when this cannot draw it the same."""
    if "TYPER_USE_RICH" in os.environ:
        return False  # it may turn Rich off: Typer draws Click's plain help then
    listed = commands()
    if listed is None:
        return False
    render(_console(), listed)
    sys.stdout.write("\n")  # Click then echoes the (empty) rest of its help formatter: one line
    sys.stdout.flush()
    return True


def _console() -> Console:
    """The console ``typer.rich_utils`` prints help on, with the settings it reads from the environment."""
    from rich.console import Console
    from rich.theme import Theme

    width = os.getenv("TERMINAL_WIDTH")
    force: bool | None = True if os.getenv("GITHUB_ACTIONS") or os.getenv("FORCE_COLOR") or os.getenv("PY_COLORS") \
        else None
    if os.getenv("_TYPER_FORCE_DISABLE_TERMINAL"):
        force = False
    return Console(theme=Theme(THEME), highlighter=_highlighters()[0], color_system="auto", force_terminal=force,
                   width=int(width) if width else None)


@cache
def _highlighters() -> tuple[Highlighter, Highlighter, Highlighter]:
    """``typer.rich_utils``' option, negative-option and types highlighters (the same patterns)."""
    from rich.highlighter import RegexHighlighter

    class OptionHighlighter(RegexHighlighter):
        highlights = [r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])", r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
                      r"(?P<types>\<[^\>]+\>)", r"(?P<usage>Usage: )"]

    class NegativeOptionHighlighter(RegexHighlighter):
        highlights = [r"(^|\W)(?P<negative_switch>\-\w+)(?![a-zA-Z0-9])",
                      r"(^|\W)(?P<negative_option>\-\-[\w\-]+)(?![a-zA-Z0-9])"]

    class TypesHighlighter(RegexHighlighter):
        highlights = [r"^(?P<types_sep>(\[|<))", r"(?P<types_sep>\|)", r"(?P<types_sep>(\]|>))(\.\.\.)?$"]

    return OptionHighlighter(), NegativeOptionHighlighter(), TypesHighlighter()


def _markup(text: str, style: str = "") -> Text:
    from rich.text import Text

    return _highlighters()[0](Text.from_markup(text, style=style))


def render(console: Console, listed: list[tuple[str, str]]) -> None:
    """The root's help on ``console``: usage, help text, the Options panel and the Commands panel."""
    from rich.align import Align
    from rich.columns import Columns
    from rich.console import Group
    from rich.padding import Padding
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    option, negative, types = _highlighters()
    console.print(Padding(option(USAGE), 1), style="bold")
    console.print(Padding(Align(Group(_markup(ROOT_HELP)), pad=False), (0, 1, 1, 1)))
    options = Table(highlight=True, show_header=False, expand=True, box=None, show_lines=False, leading=0,
                    border_style=None, row_styles=None, pad_edge=False, padding=(0, 1))
    for name, kind, help_text in OPTIONS:
        row: list[RenderableType] = [option(name), option(""), negative(""), negative(""),
                                     types(Text(kind, style="bold yellow", overflow="fold")),
                                     Columns([_markup(help_text)])]
        options.add_row(*row)
    console.print(Panel(options, border_style="dim", title="Options", title_align="left"))
    table = Table(highlight=False, show_header=False, expand=True, box=None, show_lines=False, leading=0,
                  border_style=None, row_styles=None, pad_edge=False, padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True, width=max(len(name) for name, _ in listed))
    table.add_column("Description", justify="left", no_wrap=False, ratio=10)
    for name, help_text in listed:
        table.add_row(Text(name), _markup(first_paragraph(help_text)))
    console.print(Panel(table, border_style="dim", title="Commands", title_align="left"))
