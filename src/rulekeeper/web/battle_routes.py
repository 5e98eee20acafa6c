"""The routes of the battle pages: home, new battle, the battle page, its live fragment and stream, the unit panel,
and the three writes (act, reveal, undo), each answered by a redirect to the page.

Why apart from ``pages.py``: that module draws a battle as one link sees it (``View``, ``Pages``); this one only
reads requests, calls the keeper and answers, and mounts the other pages' routers.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.present import Links
from rulekeeper.persistence.store import BattleNotFoundError
from rulekeeper.service.battles import ActRequest

from .action_form import fields_of_form
from .api import NOT_FOUND, Keeper
from .created import build_created, created_path, keep_links
from .guards import require_last_actor, require_writer
from .keeper_side import keeper_of
from .links import qr_svg
from .live import version_events
from .page_forms import MAX_MUSTER, _int, create_from_form, read_form
from .pages import PAGE_STATUS, Pages, _error_ctx


def _see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def build_pages(keeper: Keeper) -> APIRouter:
    from . import campaign_pages, downloads, musters
    from .dice import build_dice
    from .history import build_history
    from .host import build_host

    p = Pages(keeper)
    k = keeper
    r = APIRouter(include_in_schema=False)
    r.include_router(build_host(keeper, p))
    r.include_router(build_created(keeper, p))  # "Battle created", reopened by its creator (web/created.py)
    r.include_router(build_dice(keeper, p))
    r.include_router(musters.build_musters(keeper, p))  # the muster builder (web/musters.py)
    r.include_router(campaign_pages.build_campaign(keeper, p))  # record a finished battle (web/campaign_pages.py)
    r.include_router(downloads.build_downloads(keeper, p))  # the log and the export (web/downloads.py)
    r.include_router(build_history(keeper, p))  # the log and the replay viewer (web/history.py)

    def fail(exc: RulekeeperError, bid: str | None, token: str | None) -> Response:
        """A typed error as a readable page: the battle with a banner, or the common 404 (in a worker thread)."""
        if isinstance(exc, BattleNotFoundError):
            return p.not_found()
        status = PAGE_STATUS.get(exc.code, 400)
        if bid is not None:
            try:
                v = p.view(bid, token)
            except RulekeeperError:  # refused before the link was read: the error alone, no battle
                return p.refusal(exc)
            page = p.battle_page(v, {}, exc, status)
            # htmx would leave /b/{id}/act in the address bar: a phone's pull-to-refresh then got a bare 405
            page.headers["HX-Replace-Url"] = v.links.page()
            return page
        return p.refusal(exc)

    # -- home and new battles ------------------------------------------------------------------

    @r.get("/", response_class=HTMLResponse)
    def home() -> HTMLResponse:
        return p.home()

    @r.get("/new")
    def new_get() -> RedirectResponse:
        return _see_other("/")

    @r.post("/new", response_class=HTMLResponse)
    async def new(request: Request) -> Response:
        form: dict[str, str] = {}  # what the player typed, kept on a refusal
        try:
            form = await read_form(request, max_form=MAX_MUSTER * 3, max_field=MAX_MUSTER)
            seed = _int(form.get("seed"), "seed", default=0, hi=2**63 - 1)
            practice = form.get("practice") in ("1", "on", "true", "yes")
            # parsing musters and setting a battle up is CPU work: off the event loop
            bid, tokens = await run_in_threadpool(create_from_form, k, form, seed, practice)
        except RulekeeperError as exc:
            # the form again, as the player filled it, at its own address: a reload must not send it again
            page = p.home(PAGE_STATUS.get(exc.code, 400), _error_ctx(exc), typed=form)
            page.headers["HX-Replace-Url"] = "/"
            return page
        links = {role: f"{k.base(request)}/b/{bid}?token={t}" for role, t in tokens.items()}

        def created() -> Response:  # reads the store: off the event loop
            rec = k.store.get(bid)
            page = p.html("created.html", 201, title="Battle created", rec=rec, links=links, replaced=[],
                          keeper=keeper_of(k, rec),
                          created_url=created_path(bid), verifiable=k.store.dice(bid) is not None,
                          qrs={role: qr_svg(url) for role, url in links.items()})
            # the creator key (web/created.py), and Back returns to these links, not to an empty form
            keep_links(page, bid, tokens)
            page.headers["HX-Push-Url"] = created_path(bid)
            return page

        return await run_in_threadpool(created)

    # -- the battle page and its fragments -------------------------------------------------------

    @r.get("/b/{bid}", response_class=HTMLResponse)
    def battle(bid: str, request: Request, token: str | None = None) -> Response:
        q = {key: request.query_params.get(key) for key in ("pick", "at", "fate", "open", "unit", "note")}
        try:
            with k.snapshot():  # the page, its fate screen and its previews: one moment
                v = p.view(bid, token, q.get("unit"))
                if "bot" in v.rec.meta:
                    k.bots.poke(bid)  # a keeper side left to act (a restart, a write from the CLI) resumes
                return p.battle_page(v, q)
        except RulekeeperError as exc:
            return p.refusal(exc)

    @r.get("/b/{bid}/live", response_class=HTMLResponse)
    def live(bid: str, token: str | None = None, v: str | None = None) -> Response:
        """The polled fragment: 204 while nothing changed, else the new ``#live`` region."""
        try:
            with k.snapshot():
                if v == p.version(bid, token):
                    return Response(status_code=204)
                view = p.view(bid, token)
                return p.html("live.html", **p.live(view, {"since": v}))  # the page's version: an undo is told
        except BattleNotFoundError:
            return p.html("live_gone.html", 404, message=NOT_FOUND["message"])

    @r.get("/b/{bid}/events")
    async def events(bid: str, request: Request, token: str | None = None, v: str | None = None) -> Response:
        """Server-sent events: ``changed`` whenever the battle's version moves (see web/live.py)."""
        try:
            seen = await run_in_threadpool(p.version, bid, token)  # checks the link as every page does
        except RulekeeperError as exc:
            return p.refusal(exc)
        if not k.changes.admit(bid, token or ""):
            return JSONResponse({"error": "busy", "message": "too many live pages are open; try again"},
                                status_code=503, headers={"Retry-After": "5"})

        async def version() -> str:
            return await run_in_threadpool(p.version, bid, token)

        stream = version_events(k.changes, bid, v if v is not None else seen, version, request.is_disconnected,
                                token or "", k.watcher)
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @r.get("/b/{bid}/unit", response_class=HTMLResponse)
    def unit(bid: str, token: str | None = None, key: str | None = None) -> Response:
        """The unit panel alone (HTMX swaps it in; the battle page shows it with ``?unit=``)."""
        try:
            view = p.view(bid, token)
            if not key:
                return HTMLResponse("", headers={"Cache-Control": "no-store"})
            html = p.names.page(view.r.unit_panel(view.board_state, key, view.links), {"v": view})
        except RulekeeperError as exc:
            return p.refusal(exc)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def write(request: Request, bid: str, token: str | None,
                    change: Callable[[dict[str, str], str | None], Response]) -> Response:
        """A page's change: the form read on the event loop, everything else in a worker thread.

        Why: the store's writes wait for its lock (up to its busy timeout); on the event loop
        that wait froze the whole keeper — every page, every static file — while another
        program held the SQLite write lock.
        """
        try:
            form = await read_form(request)
        except RulekeeperError as exc:
            return await run_in_threadpool(fail, exc, bid, token)
        token = form.get("token", token)

        def run() -> Response:
            try:
                return change(form, token)
            except RulekeeperError as exc:
                return fail(exc, bid, token)

        return await run_in_threadpool(run)

    @r.post("/b/{bid}/act")
    async def act(bid: str, request: Request, token: str | None = None) -> Response:
        def change(form: dict[str, str], token: str | None) -> Response:
            fields = fields_of_form(form)  # text fields as they are, lists and numbers from their JSON
            with k.snapshot():  # the link and the battle read at one moment; the append is a compare-and-set on it
                role = k.writer(bid, token, "act")
                position = _int(form.get("position"), "position")
                # the service checks the rest once, the results still face down included (issue 22, point 4)
                done = k.service.play(bid, fields, ActRequest(position, link=role), shown=False)
            k.changed(bid, done.record)
            # the last blow too: its results face down like any other, then its Fate Screen, then the end screen
            return _see_other(Links(bid, token or "", position + 1).page("panel"))

        return await write(request, bid, token, change)

    @r.post("/b/{bid}/reveal")
    async def reveal(bid: str, request: Request, token: str | None = None) -> Response:
        """Show the last action's results: the first one, or all (marks them shown: no undo after)."""
        def change(form: dict[str, str], token: str | None) -> Response:
            with k.snapshot():  # a compare-and-set on this moment's revision: an undo in between makes it stale
                v = p.view(bid, token)
                position = _int(form.get("position"), "position", lo=1)
                require_writer(bid, v.role, position, v.position, v.status.over, "reveal results", allow_over=True)
                require_last_actor(v.role, v.last_side, "reveal its results")
                if v.last is not None and not v.last.shown and k.service.reveal(bid, position):
                    k.changed(bid)  # the last blow's too: then the end screen
            shown = "all" if form.get("all") in ("1", "on", "true") else 1
            return _see_other(v.links.fate(position - 1, shown))

        return await write(request, bid, token, change)

    @r.post("/b/{bid}/undo")
    async def undo(bid: str, request: Request, token: str | None = None) -> Response:
        def change(form: dict[str, str], token: str | None) -> Response:
            with k.snapshot():  # a compare-and-set on this moment's revision: a reveal in between makes it stale
                v = p.view(bid, token)
                # the link's checks (its role, the battle's end as it sees it, the last actor) are the service's
                k.service.undo(bid, expected_position=_int(form.get("position"), "position"), link=v.role)
            k.changed(bid)
            return _see_other(v.links.page("panel", note="undone"))

        return await write(request, bid, token, change)

    return r
