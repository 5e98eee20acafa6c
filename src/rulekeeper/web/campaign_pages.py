"""Record a finished battle in the campaign, and see what it earned: points, level-ups, Renown.

Why in the browser: the players are at the table when the battle ends; recording it used to need
the host's command line (``rulekeeper campaign record ID``). The page asks the battle's game for its
:class:`~rulekeeper.core.armies.CampaignBook` (``Game.campaign()``), which records exactly as that
command does — one transaction, once per battle.

Who may record: **a side's link** of the battle (either side: both players earn the same points),
once the battle is over *and* its last results are revealed — until then the page says only that
there is nothing to record yet, the same words whether the battle goes on or its end is still face
down, so it never tells the end early. The spectator's link sees the record, never records. A
battle is recorded once: the second attempt is refused (409 ``already_recorded``), as on the CLI.
The host, who holds no side link, records from the command line.

| Path | What |
|---|---|
| ``GET /b/{id}/campaign?token=`` | the record (once made) or the form |
| ``POST /b/{id}/campaign`` ``token, player_A, player_B`` | record; answered by a redirect to the page |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from rulekeeper.core.armies import CampaignBook, CampaignReport
from rulekeeper.core.capabilities import campaign_of
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import SPECTATOR, Game
from rulekeeper.persistence.store import BattleNotFoundError

from .guards import UnauthorizedError
from .page_forms import read_form
from .refusals import NoCampaignError, NotRecordableYetError, error_ctx, status_of

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages, View

#: One sentence for "not over" and "over but face down" alike: the page must not tell the end early.
NOT_YET = ("nothing to record yet: the battle is still being fought, or its last results are face down — "
           "come back once the end screen shows")
MAX_PLAYER = 60


def book_of(game: Game) -> CampaignBook | None:
    return campaign_of(game)  # an optional capability: a game without it has no campaign page


def record_in(k: Keeper, v: View, form: dict[str, str]) -> CampaignReport:
    """Check who asks and when, then record (CPU and one write transaction: run off the event loop)."""
    book = book_of(v.game)
    if book is None:
        raise NoCampaignError(f"{v.game.title} keeps no campaign")
    if v.role == SPECTATOR:
        raise UnauthorizedError("the spectator's link cannot record the battle; a side's link can")
    if v.pending or not v.status.over:
        raise NotRecordableYetError(NOT_YET)
    sides = [r for r in k.service.roles(v.bid) if r != SPECTATOR]
    players = {s: " ".join(form.get(f"player_{s}", "").split())[:MAX_PLAYER] for s in sides}
    return book.record(k.service, k.store.url, v.bid, {s: n for s, n in players.items() if n})


class CampaignPage(TypedDict):
    """What ``campaign_record.html`` shows a link (besides the page's title, error and notice)."""

    v: View
    book: CampaignBook | None
    ready: bool
    report: CampaignReport | None
    reason: str | None
    sides: list[str]
    not_yet: str
    can_record: bool


def page_context(k: Keeper, v: View) -> CampaignPage:
    """What the page shows this link: the record, or why there is none yet, or the form."""
    book = book_of(v.game)
    ready = v.status.over and not v.pending
    report = reason = None
    if book is not None:
        reason = book.recordable(v.rec.meta)
        if reason is None and ready:  # before the end nothing is recorded: no need to look (nor to hint)
            report = book.recorded(k.store.url, v.bid)
    sides = [r for r in k.service.roles(v.bid) if r != SPECTATOR]
    return {"v": v, "book": book, "ready": ready, "report": report, "reason": reason, "sides": sides,
            "not_yet": NOT_YET[0].upper() + NOT_YET[1:] + ".",
            "can_record": bool(book and ready and report is None and reason is None and v.role != SPECTATOR)}


def build_campaign(keeper: Keeper, pages: Pages) -> APIRouter:
    k, p = keeper, pages
    r = APIRouter(include_in_schema=False)

    def page(v: View, status: int = 200, error: RulekeeperError | None = None, note: str = "") -> HTMLResponse:
        return p.html("campaign_record.html", status, title=f"Campaign — {v.rec.title}", error=error_ctx(error),
                      notice="The battle is recorded in the campaign." if note == "recorded" else "",
                      **page_context(k, v))

    @r.get("/b/{bid}/campaign", response_class=HTMLResponse)
    def campaign(bid: str, token: str | None = None, note: str | None = None) -> Response:
        try:
            return page(p.view(bid, token), note=note or "")
        except RulekeeperError as exc:
            return p.refusal(exc)

    @r.post("/b/{bid}/campaign", response_class=HTMLResponse)
    async def record(bid: str, request: Request, token: str | None = None) -> Response:
        v: View | None = None
        try:
            form = await read_form(request)
            token = form.get("token", token)
            v = await run_in_threadpool(p.view, bid, token)
            await run_in_threadpool(record_in, k, v, form)
        except RulekeeperError as exc:
            if v is None or isinstance(exc, BattleNotFoundError):
                return p.refusal(exc)
            return page(v, status_of(exc), exc)
        return RedirectResponse(v.links.sub("campaign", note="recorded"), status_code=303)

    return r
