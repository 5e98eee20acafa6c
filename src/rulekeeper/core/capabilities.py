"""The optional parts of a game: each a small protocol a game opts into by writing its method.

Why apart from :class:`~rulekeeper.core.game.Game`: most games have no army lists, no campaign,
no duel kernel and no presenter of their own, and the keeper has a working answer for each
absence (no muster pages, no campaign page, the lab's generic path, the generic presenters). So
a game writes these only when it has them, and the keeper asks through the accessors below, which
answer None for a game that does not offer the part (or offers it and returns None). A game that
reads a player's own data files at set-up says so with ``reads_data_files = True``
(:func:`rulekeeper.core.game.check_data_files`); one with hidden simultaneous orders writes
``conceals`` (:func:`rulekeeper.core.game.conceals`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .wording import counted

if TYPE_CHECKING:
    from .armies import ArmyBuilder, CampaignBook
    from .duels import DuelKernel
    from .present import CliPresenter, WebPresenter


@runtime_checkable
class ArmyLists(Protocol):
    """Army lists for the browser: roster, price and problems, file text (``core/armies.py``)."""

    def army_builder(self) -> ArmyBuilder | None: ...


@runtime_checkable
class CampaignBooks(Protocol):
    """A campaign that records a finished battle (the web keeper's ``/b/{id}/campaign``)."""

    def campaign(self) -> CampaignBook | None: ...


@runtime_checkable
class DuelKernels(Protocol):
    """Unit-against-unit fights for ``lab duel``/``lab sweep`` (``core/duels.py``)."""

    def duel_kernel(self) -> DuelKernel | None: ...


@runtime_checkable
class WebPresented(Protocol):
    """The game's own board, action list and Fate Screen in the web keeper (Jinja2 templates)."""

    def web_presenter(self) -> WebPresenter | None: ...


@runtime_checkable
class CliPresented(Protocol):
    """The game's own board and Fate Screen in the terminal (Rich renderables)."""

    def cli_presenter(self) -> CliPresenter | None: ...


@runtime_checkable
class CliCommands(Protocol):
    """The game's own subcommands (``odds``, ``resolve``, ``units``, ``muster``…) on the CLI's hooks."""

    def register_cli(self, hooks: Any) -> None: ...


@runtime_checkable
class QuickCommands(Protocol):
    """Command lines the game runs itself, without the CLI's command tree: for start-up time.

    ``args`` is the whole command line after ``rulekeeper`` (``["odds", "exillis", "melee", "Billmen",
    "Franc Chevalers"]``); the answer is what to run, or None for anything the game's Typer commands must
    read. What it runs must print what those commands print, byte for byte, and raise the same typed errors.
    """

    def quick_command(self, args: Sequence[str]) -> Callable[[], None] | None: ...


def quick_command_of(game: object, args: Sequence[str]) -> Callable[[], None] | None:
    return game.quick_command(args) if isinstance(game, QuickCommands) else None


def army_builder_of(game: object) -> ArmyBuilder | None:
    return game.army_builder() if isinstance(game, ArmyLists) else None


def campaign_of(game: object) -> CampaignBook | None:
    return game.campaign() if isinstance(game, CampaignBooks) else None


def duel_kernel_of(game: object) -> DuelKernel | None:
    return game.duel_kernel() if isinstance(game, DuelKernels) else None


def web_presenter_of(game: object) -> WebPresenter | None:
    return game.web_presenter() if isinstance(game, WebPresented) else None


def cli_presenter_of(game: object) -> CliPresenter | None:
    return game.cli_presenter() if isinstance(game, CliPresented) else None


def capabilities(game: object) -> tuple[str, ...]:
    """The optional parts ``game`` offers, in words (``rulekeeper games``): each part it opted into and
    that is not None, whether it reads data files, hides orders, draws chance, and its options."""
    offered = (("army lists", army_builder_of), ("campaign", campaign_of), ("duel kernel", duel_kernel_of),
               ("web presenter", web_presenter_of), ("terminal presenter", cli_presenter_of))
    found = [label for label, part in offered if part(game) is not None]
    if isinstance(game, CliCommands):
        found.append("CLI commands")
    if getattr(game, "reads_data_files", False):
        found.append("data files")
    if callable(getattr(game, "conceals", None)):
        found.append("hidden orders")
    if not getattr(game, "deterministic", False):
        found.append("chance")
    options = getattr(game, "options", None)
    count = len(options()) if callable(options) else 0
    if count:
        found.append(counted(count, "option"))
    return tuple(found)
