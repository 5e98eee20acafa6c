"""What a game's presenters give the web keeper and the CLI (the protocol's presentation half).

The web keeper's page shell knows battles, links, turns, reveals, undo and replay; the
board, the action list with its odds, the Fate Screen of an action's results, the unit
panel and the end screen come from the battle's game through :class:`WebPresenter`. The
CLI's ``battle`` commands likewise ask a :class:`CliPresenter` for the board and the Fate
Screen as Rich renderables. Both receive the game's own state objects (typed ``Any`` here:
the core knows no rule system) and return escaped HTML or renderables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlencode

from markupsafe import Markup

from .game import LegalAction, OddsPreview

if TYPE_CHECKING:
    from jinja2 import Environment
    from rich.console import RenderableType


@dataclass(frozen=True)
class Links:
    """URLs of one battle page for the holder of one link (the token rides in every URL)."""

    battle: str
    token: str
    position: int
    viewer: str = ""  # the role looking at the live battle page (a side or "spectator"); empty on replays
    selected: str = ""  # the unit the holder picked (``?unit=``): a presenter may draw its moves and actions

    def page(self, anchor: str = "", **query: str | int) -> str:
        q = urlencode({"token": self.token, **{k: str(v) for k, v in query.items()}})
        return f"/b/{self.battle}?{q}" + (f"#{anchor}" if anchor else "")

    def sub(self, path: str, **query: str | int) -> str:
        q = urlencode({"token": self.token, **{k: str(v) for k, v in query.items()}})
        return f"/b/{self.battle}/{path}?{q}"

    def pick(self, index: int) -> str:
        return self.page("panel", pick=index, at=self.position)

    def unit(self, key: str) -> str:
        return self.page("unit-panel", unit=key)

    def fate(self, index: int, shown: int | str) -> str:
        return self.page("fate", fate=index, open=shown)


@dataclass(frozen=True)
class FateScreen:
    """The results of one action, split into what is shown and what is still to reveal."""

    html: Markup
    revealable: int  # cards (duels, shots, casts...) in the whole report
    revealed: int  # cards shown in ``html``


@dataclass(frozen=True)
class Header:
    """The line above the board: the sides' names, the game clock, who acts."""

    sides: dict[str, str] = field(default_factory=dict)  # side → army name
    clock: str = ""  # "Round 1.2 of 6", "Turn 3"
    acting: tuple[str, ...] = ()


class WebPresenter(Protocol):
    """A game's drawing of its battles in the web keeper; every method returns escaped HTML.

    ``template_dir`` holds the game's Jinja2 templates; the keeper mounts it under the
    game's name, so a template ``board.html`` there is ``"<game>/board.html"``.
    """

    def template_dir(self) -> Path | None: ...

    def bind(self, env: Environment) -> None:
        """Receive the keeper's Jinja2 environment (autoescaping, shared filters)."""
        ...

    def board(self, state: Any, links: Links, caption: str = "") -> Markup: ...

    def header(self, state: Any) -> Header: ...

    def turn_bar(self, state: Any) -> Markup: ...

    def actions(self, state: Any, legal: list[LegalAction], previews: list[OddsPreview], links: Links) -> Markup: ...

    def preview(self, state: Any, legal: LegalAction, odds: OddsPreview, links: Links) -> Markup: ...

    def fate(self, report: Sequence[Mapping[str, object]], shown: int | None, links: Links, index: int) -> FateScreen: ...

    def unit_panel(self, state: Any, key: str, links: Links) -> Markup: ...

    def result(self, state: Any) -> Markup: ...

    def action_text(self, action: Mapping[str, object]) -> str: ...

    def log_lines(self, report: Sequence[Mapping[str, object]]) -> list[str]: ...


class CliPresenter(Protocol):
    """A game's drawing of its battles in the terminal (Rich renderables)."""

    def board(self, state: Any) -> RenderableType: ...

    def units(self, state: Any) -> RenderableType: ...

    def outcome(self, report: Sequence[Mapping[str, object]]) -> RenderableType: ...

    def result(self, state: Any) -> RenderableType: ...

    def turn_bar(self, state: Any) -> RenderableType: ...
