"""What the polled ``#live`` region of a battle page shows: one panel per mode, and the region's context.

Why typed shapes: ``battle.html`` and ``live.html`` read these keys by name; each mode of the panel
(waiting, a face-down result, a Fate Screen, the end, the dice being sealed, the side to act) has its
own, and mypy checks :meth:`~.pages.Pages.live` builds every one of them whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from markupsafe import Markup

from rulekeeper.core.present import FateScreen, Header

from .keeper_side import KeeperMove, KeeperSeat

if TYPE_CHECKING:
    from .pages import View


class WaitPanel(TypedDict):
    """Another side acts (``side``: which, when one must)."""

    mode: Literal["wait"]
    side: NotRequired[str | None]


class PendingPanel(TypedDict):
    """The last action's results are face down (``mine``: this link's side played it; ``hidden``: what it did is
    secret from this link too, so the panel names no action: "turning over the results of side oathsworn acted
    (hidden until it is revealed)" was the concealed text dropped into the sentence)."""

    mode: Literal["pending"]
    mine: bool
    text: str
    side: str | None
    hidden: bool


class FatePanel(TypedDict):
    """The Fate Screen of logged action ``index``, revealed up to ``next - 1``."""

    mode: Literal["fate"]
    fate: FateScreen
    index: int
    text: str
    next: int
    done: bool


class OverPanel(TypedDict):
    """The battle is over: the game's result."""

    mode: Literal["over"]
    result: Markup


class SealingPanel(TypedDict):
    """Verifiable dice not sealed yet: which sides have added their share, and which are awaited.

    ``unopened``: no commitment yet (its link not opened); ``opened``: committed, its bytes revealed by its own
    device once every side has committed. A side's phone that had opened its link read "not opened yet (this
    device)" until the other side came, since only the revealed bytes were counted.
    """

    mode: Literal["dice"]
    waiting: list[str]
    roles: list[str]
    added: list[str]
    unopened: list[str]
    opened: list[str]


class ActPanel(TypedDict):
    """The side to act: its actions, and the preview of the one picked (``moved_on``: the pick is stale)."""

    mode: Literal["act"]
    actions: Markup
    preview: Markup | None
    moved_on: bool


Panel = WaitPanel | PendingPanel | FatePanel | OverPanel | SealingPanel | ActPanel


class ShownError(TypedDict):
    """A refusal as a page prints it."""

    code: str
    title: str
    message: str


class LiveContext(TypedDict):
    """Everything inside the ``#live`` region (and the battle page around it)."""

    v: View
    panel: Panel
    header: Header
    board: Markup
    turn_bar: Markup
    can_undo: bool
    undo_locked: bool
    last_text: str | None
    moved: str
    last_results: str | None
    unit_html: Markup | None
    notice: str | None
    error: ShownError | None
    keeper: KeeperSeat | None
    explained: KeeperMove | None
