"""The HTML pages of the web keeper: home, new battle, the battle page and its fragments, the log
and the replay viewer.

Pages call the same :class:`~rulekeeper.web.api.Keeper` objects as the JSON API (never the API
over HTTP) and apply the same authorization: ``Keeper.role`` for every request, the side link
for every change, the log position for every write. An unknown battle and a bad link give the
same 404 page.

Results stay hidden until revealed: after an action that drew chance, its side sees a closed
Fate Screen (reveal the first result, resolve all, or undo) and everyone else sees the board
as it was before the action. Revealing marks the log entry *shown*, after which it can never
be undone (the CLI's rule). Every page works without JavaScript; HTMX (vendored) boosts links
and forms into in-place swaps and polls a small fragment, keyed by the log position, so the
other side's device follows the battle without reloading.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.core.game import (
    ArmySource,
    Game,
    JsonDict,
    SetupRequest,
    Status,
    concealed_text,
    conceals,
    face_down,
)
from rulekeeper.core.present import Links, WebPresenter
from rulekeeper.core.ruleset import games
from rulekeeper.persistence.store import BattleNotFoundError, BattleRecord, LogEntry
from rulekeeper.service.battles import ActRequest, is_pending
from rulekeeper.service.bot_seat import DEFAULT_STRENGTH, STRENGTH_WORDS

from .action_form import fields_of_form
from .api import NOT_FOUND, STATUS, Keeper
from .created import build_created, created_path, keep_links
from .guards import require_last_actor, require_writer
from .history import results_of_last
from .isolation import BattleNames
from .keeper_side import explained, keeper_of
from .links import qr_svg
from .live import version_events
from .live_panels import ActPanel, FatePanel, LiveContext, Panel, ShownError
from .presenters import Presenters, side_label
from .public_errors import public_message
from .scenarios import find_scenario, shipped_scenarios
from .shown_odds import shown_odds
from .whole import whole_chart

STATIC = Path(__file__).resolve().parent / "static"

MAX_FORM = 16_000
MAX_FIELD = 200
MAX_MUSTER = 20_000
#: Notices a redirect may ask the page to show (never free text from the URL).
NOTICES = {"undone": "The last action was taken back.", "created": "Battle created."}


class PageRequestError(RulekeeperError):
    code = "bad_request"


#: Codes of the muster, campaign and download pages (web/refusals.py), and the status each answers.
EXTRA_STATUS = {
    "already_recorded": 409, "battle_not_over": 409, "not_from_musters": 409, "campaign_mismatch": 409,
    "no_campaign": 409, "export_not_ready": 409, "invalid_muster": 422, "battle_setup": 422,
    "board_too_small": 422, "too_large": 413,
}
EXTRA_TITLES = {
    "already_recorded": "Already recorded", "battle_not_over": "Nothing to record yet",
    "not_from_musters": "Not a battle from musters", "campaign_mismatch": "The campaign disagrees",
    "no_campaign": "No campaign", "export_not_ready": "Not yet", "data_file": "Cannot read it",
    "too_large": "Too large",
}
PAGE_STATUS = {**STATUS, "results_pending": 409, "results_shown": 409, **EXTRA_STATUS}
#: Banner headlines; the stable code is shown next to them.
ERROR_TITLES = {
    "not_found": "Not found", "unauthorized": "Not allowed", "not_your_turn": "Not your turn",
    "stale_state": "The battle moved on", "game_over": "The battle is over", "invalid_action": "Not a legal action",
    "unknown_name": "Unknown name", "bad_request": "Bad request", "results_pending": "Reveal the results first",
    "results_shown": "Cannot undo", "store": "Storage unavailable", **EXTRA_TITLES,
}


def error_code(exc: RulekeeperError) -> str:
    """The code the JSON API would answer (IllegalActionError subclasses keep theirs)."""
    detail = exc.details.get("code_detail") if isinstance(exc.details, dict) else None
    if type(exc) is IllegalActionError and detail == "results_shown":
        return "results_shown"
    return exc.code


def _int(value: str | None, name: str, default: int | None = None, lo: int = 0, hi: int = 10**9) -> int:
    if value is None or value == "":
        if default is None:
            raise PageRequestError(f"{name} is missing")
        return default
    try:
        n = int(value)
    except ValueError:
        raise PageRequestError(f"{name} must be a whole number, not {value[:40]!r}") from None
    if not lo <= n <= hi:
        raise PageRequestError(f"{name} must be between {lo} and {hi}")
    return n


def _opt_int(value: str | None, lo: int = 0, hi: int = 10**9) -> int | None:
    """A lenient query number: anything malformed is simply ignored."""
    try:
        n = int(value) if value is not None else None
    except ValueError:
        return None
    return n if n is not None and lo <= n <= hi else None


async def read_form(request: Request, max_form: int = MAX_FORM, max_field: int = MAX_FIELD) -> dict[str, str]:
    """An urlencoded form (what browsers and HTMX send), first value per field, bounded."""
    ctype = request.headers.get("content-type", "")
    body = await request.body()
    if len(body) > max_form:
        raise PageRequestError("the form is too large")
    if body and not ctype.startswith("application/x-www-form-urlencoded"):
        raise PageRequestError("expected a form (application/x-www-form-urlencoded)")
    try:
        raw = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=50)
    except (UnicodeDecodeError, ValueError):
        raise PageRequestError("the form could not be read") from None
    out = {k: v[0] for k, v in raw.items() if v}
    for k, v in out.items():
        if len(v) > max_field:
            raise PageRequestError(f"field {k[:40]!r} is too long")
    return out


def create_from_form(k: Keeper, form: dict[str, str], seed: int, practice: bool) -> tuple[str, dict[str, str]]:
    """A battle from the new-battle form: a shipped scenario, or two pasted army lists."""
    if form.get("from") == "musters":
        g = army_game(form)
        armies = (ArmySource("muster A", form.get("muster_a", "")), ArmySource("muster B", form.get("muster_b", "")))
        request = SetupRequest(armies=armies, board=form.get("board", "")[:20] or None, seed=seed,
                               practice=practice, db=k.store.url)
        return k.create(request, ruleset=g.name, verifiable=not form.get("seed"),  # no seed chosen: verifiable dice
                        bot=form.get("bot", "")[:40], strength=form.get("strength") or None)
    found = find_scenario(form.get("scenario", "")[:100])
    return k.create(SetupRequest(scenario=found.info.path, seed=seed, practice=practice, db=k.store.url),
                    ruleset=found.game, verifiable=not form.get("seed"), bot=form.get("bot", "")[:40],
                    strength=form.get("strength") or None)


def army_game(form: dict[str, str]) -> Game:
    """The game a "battle from army lists" form is for (the first game that takes army lists)."""
    wanted = form.get("game", "")[:40]
    for g in games():
        if getattr(g, "army_list_noun", None) and (not wanted or g.name == wanted):
            return g
    raise PageRequestError("no installed game starts battles from army lists")


@dataclass
class View:
    """One battle as the holder of one link sees it now."""

    bid: str
    role: str
    rec: BattleRecord
    game: Game
    state: object  # the true current state
    status: Status
    board_state: object  # what the board shows (before an action whose results are hidden)
    last: LogEntry | None
    pending: bool  # the last action drew chance and nobody has revealed it yet
    links: Links
    r: WebPresenter

    @property
    def position(self) -> int:
        return self.rec.position

    @property
    def version(self) -> str:
        """What the live fragment is keyed by: the log position and whether results are hidden."""
        return f"{self.rec.position}.{int(self.pending)}"

    @property
    def last_side(self) -> str | None:
        return None if self.last is None else self.game.side_of(self.last.action)

    @property
    def is_side(self) -> bool:
        return self.role != "spectator"


def logged_text(v: View, action: JsonDict) -> str:
    """A logged action in words, or only that its side acted while it is hidden from this link."""
    if conceals(v.game, v.board_state, action, v.role):
        return concealed_text(v.game, action)
    return v.r.action_text(action)


class Pages:
    def __init__(self, keeper: Keeper) -> None:
        self.k = keeper
        self.presenters = Presenters()
        self.env = self.presenters.env
        self.names = BattleNames(keeper.store.initial)

    def html(self, name: str, status: int = 200, **ctx: object) -> HTMLResponse:
        text = self.names.page(self.env.get_template(name).render(**ctx), ctx)
        return HTMLResponse(text, status_code=status, headers={"Referrer-Policy": "no-referrer",
                                                                "Cache-Control": "no-store"})

    def not_found(self) -> HTMLResponse:
        return self.html("error.html", 404, title="Not found", error={
            "code": NOT_FOUND["error"], "title": ERROR_TITLES["not_found"], "message": NOT_FOUND["message"]})

    def _head(self, bid: str, token: str | None) -> tuple[str, BattleRecord, LogEntry | None, bool]:
        """Role, record, last log entry and whether its results are face down (cheap: no state)."""
        if token is not None and len(token) > MAX_FIELD:
            raise BattleNotFoundError(bid)
        role = self.k.role(bid, token)
        rec = self.k.store.get(bid)
        last = self.k.store.entry(bid, rec.position - 1) if rec.position else None
        return role, rec, last, last is not None and is_pending(last, rec)

    def version(self, bid: str, token: str | None) -> str:
        """What a live stream compares (read on every wake-up): two statements, the battle with its last
        entry (one moment) and the link, instead of a snapshot around four (the convention-hall bench)."""
        if token is not None and len(token) > MAX_FIELD:
            raise BattleNotFoundError(bid)
        rec, last = self.k.store.get_with_last(bid)
        self.k.role(bid, token, rec)
        return f"{rec.position}.{int(last is not None and is_pending(last, rec))}"

    def refusal(self, exc: RulekeeperError) -> HTMLResponse:
        """A typed error as a page of its own (the common 404 for a missing battle or bad link)."""
        if isinstance(exc, BattleNotFoundError):
            return self.not_found()
        return self.html("error.html", PAGE_STATUS.get(error_code(exc), 400), title="Error", error=_error_ctx(exc))

    def view(self, bid: str, token: str | None, unit: str | None = None) -> View:
        """The battle as ``token``'s holder sees it, every part read from one snapshot."""
        with self.k.snapshot():
            role, rec, last, pending = self._head(bid, token)
            g = self.k.service.game(bid)
            state = self.k.service.state(bid)
            board_state = self.k.service.state_at(bid, rec.position - 1) if pending else state
        links = Links(bid, token or "", rec.position, selected=(unit or "")[:MAX_FIELD])
        return View(bid, role, rec, g, state, g.status(state), board_state, last, pending, links,
                    self.presenters.of(g))

    # -- the battle page -----------------------------------------------------------------------

    def _fate_panel(self, v: View, q: dict[str, str | None], fate_index: int) -> tuple[FatePanel, object, str]:
        """The Fate Screen of logged action ``fate_index``, revealed as far as the query asks."""
        r = v.r
        entry = self.k.store.entry(v.bid, fate_index)
        shown_q = q.get("open")
        shown = None if shown_q == "all" else (_opt_int(shown_q) or 0)
        fate = r.fate(entry.result.get("report", []), shown, v.links, fate_index)
        # in words only if this link may read them: ?fate=N of another side's hidden orders printed them
        text = logged_text(v, entry.action)
        panel: FatePanel = {"mode": "fate", "fate": fate, "index": fate_index, "text": text,
                 "next": fate.revealed + 1, "done": fate.revealed >= fate.revealable}
        if fate_index == v.position - 1:
            caption = f"Before: {text} — continue to see the board after it"
            return panel, self.k.service.state_at(v.bid, fate_index), caption
        return panel, v.board_state, ""

    def _act_panel(self, v: View, q: dict[str, str | None]) -> ActPanel:
        """The side to act: its actions with their odds, and the preview of the one picked."""
        # sides acting at once (simultaneous orders) each see only their own actions
        legal = [lg for lg in v.game.legal_actions(v.state) if lg.side == v.role]
        # the odds of the actions the presenter shows, when it shows them (the picked unit's, the picked one)
        previews = shown_odds(v.game.preview, v.state, [lg.action for lg in legal])
        pick = _opt_int(q.get("pick"), 0, len(legal) - 1) if legal else None
        at = _opt_int(q.get("at"))
        panel: ActPanel = {"mode": "act", "actions": v.r.actions(v.state, legal, previews, v.links),
                                 "preview": None, "moved_on": pick is not None and at != v.position}
        if pick is not None and at == v.position:
            # the whole action's distribution first (games with a ``whole_odds`` hook), then the per-draw odds
            panel["preview"] = (whole_chart(self.env, v.game, v.state, legal[pick].action)
                                + v.r.preview(v.state, legal[pick], previews[pick], v.links))
        return panel

    def live(self, v: View, q: dict[str, str | None], error: RulekeeperError | None = None) -> LiveContext:
        """Everything inside the polled ``#live`` region."""
        r = v.r
        panel: Panel = {"mode": "wait"}
        board_state: object = v.board_state
        caption = ""
        fate_index = _opt_int(q.get("fate"), 0, max(0, v.position - 1))
        if v.pending:
            assert v.last is not None
            caption = f"Before: {logged_text(v, v.last.action)} — its results are not revealed yet"
            # no count of the face-down results: it can depend on the dice (a reaction drawn or not), and
            # the side that played may still undo — a count would let it peek and take the action back
            panel = {"mode": "pending", "mine": v.last_side == v.role, "text": logged_text(v, v.last.action),
                     "side": v.last_side}
        elif fate_index is not None and v.position:
            panel, board_state, caption = self._fate_panel(v, q, fate_index)
        elif v.status.over:
            panel = {"mode": "over", "result": r.result(v.state)}
        elif (dice := self.k.dice.status(v.bid)).verifiable and not dice.ready:
            # nobody acts before the dice are sealed: say who is missing, never "Choose an action" with no buttons
            panel = {"mode": "dice", "waiting": list(dice.waiting), "roles": list(dice.roles),
                     "added": [role for role in dice.roles if role not in dice.waiting]}
        elif v.is_side and v.role in v.status.to_act:
            panel = self._act_panel(v, q)
        else:
            panel = {"mode": "wait", "side": v.status.to_act[0] if v.status.to_act else None}
        header = r.header(board_state)
        can_undo = (v.is_side and v.last is not None and v.last_side == v.role and not v.status.over
                    and not v.pending)
        unit_key = q.get("unit")
        unit_html = None
        if unit_key:
            try:
                unit_html = r.unit_panel(board_state, unit_key, v.links)
            except RulekeeperError:
                unit_html = None
        notice = NOTICES.get(q.get("note") or "")
        last_text = None if v.last is None else logged_text(v, v.last.action)
        # what a held live update says (static/keeper.js): who acted and what, as the page's own "Last action"
        who = side_label(v.last_side or "", header.sides, False)
        moved = "" if v.last is None else (f"{who} acted (hidden until it is revealed)" if conceals(
            v.game, v.board_state, v.last.action, v.role) else f"{who}: {last_text}")
        return {
            "v": v, "panel": panel, "header": header,
            "board": r.board(board_state, replace(v.links, viewer=v.role), caption),  # the live board: its role's
            "turn_bar": r.turn_bar(board_state), "can_undo": can_undo,
            "undo_locked": bool(v.last is not None and v.last.shown and face_down(v.last.result)),
            "last_text": last_text, "moved": moved, "last_results": results_of_last(v),
            "unit_html": unit_html, "notice": notice, "error": _error_ctx(error),
            # the side the keeper plays, and its reasons on the spectator's page only (web/keeper_side.py)
            "keeper": keeper_of(self.k, v.rec), "explained": explained(self.k, v.rec, v.game, v.board_state, v.role),
        }

    def battle_page(self, v: View, q: dict[str, str | None], error: RulekeeperError | None = None,
                    status: int = 200) -> HTMLResponse:
        return self.html("battle.html", status, title=f"{v.rec.title or v.rec.scenario}", **self.live(v, q, error))

    def home(self, status: int = 200, error: ShownError | None = None, seed: int | None = None) -> HTMLResponse:
        army_games = [g for g in games() if getattr(g, "army_list_noun", None)]
        return self.html("home.html", status, title="Rule keeper",
                         scenarios=shipped_scenarios(), army_games=army_games, strengths=STRENGTH_WORDS,
                         default_strength=DEFAULT_STRENGTH,
                         seed="" if seed is None else seed, error=error)  # empty: verifiable dice (web/dice.py)


def _error_ctx(exc: RulekeeperError | None) -> ShownError | None:
    if exc is None:
        return None
    code = error_code(exc)
    return {"code": code, "title": ERROR_TITLES.get(code, "Refused"), "message": public_message(exc)}


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
        status = PAGE_STATUS.get(error_code(exc), 400)
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
        try:
            form = await read_form(request, max_form=MAX_MUSTER * 3, max_field=MAX_MUSTER)
            seed = _int(form.get("seed"), "seed", default=0, hi=2**63 - 1)
            practice = form.get("practice") in ("1", "on", "true", "yes")
            # parsing musters and setting a battle up is CPU work: off the event loop
            bid, tokens = await run_in_threadpool(create_from_form, k, form, seed, practice)
        except RulekeeperError as exc:
            return p.home(PAGE_STATUS.get(error_code(exc), 400), _error_ctx(exc))
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
                return p.html("live.html", **p.live(view, {}))
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
                position = _int(form.get("position"), "position")
                require_writer(bid, v.role, position, v.position, v.status.over, "undo")
                require_last_actor(v.role, v.last_side, "take it back")
                k.service.undo(bid, expected_position=position)
            k.changed(bid)
            return _see_other(v.links.page("panel", note="undone"))

        return await write(request, bid, token, change)

    return r
