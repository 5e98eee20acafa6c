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

import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import yaml
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.persistence.store import BattleNotFoundError, BattleRecord, LogEntry
from rulekeeper.rulesets.exillis.battle.actions import Action
from rulekeeper.rulesets.exillis.battle.engine import apply
from rulekeeper.rulesets.exillis.battle.state import BattleState

from .api import NOT_FOUND, STATUS, Keeper
from .guards import UnauthorizedError, require_last_actor, require_writer
from .renderers import Links, Renderer, renderer_for, short, side_of_key
from .scenarios import scenario_path, shipped_scenarios

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"

MAX_FORM = 16_000
MAX_FIELD = 200
MAX_MUSTER = 20_000
#: Notices a redirect may ask the page to show (never free text from the URL).
NOTICES = {"undone": "The last action was taken back.", "created": "Battle created."}


class PageRequestError(RulekeeperError):
    code = "bad_request"


class ResultsPendingError(RulekeeperError):
    code = "results_pending"


PAGE_STATUS = {**STATUS, "results_pending": 409, "results_shown": 409}
#: Banner headlines; the stable code is shown next to them.
ERROR_TITLES = {
    "not_found": "Not found", "unauthorized": "Not allowed", "not_your_turn": "Not your turn",
    "stale_state": "The battle moved on", "game_over": "The battle is over", "invalid_action": "Not a legal action",
    "unknown_name": "Unknown name", "bad_request": "Bad request", "results_pending": "Reveal the results first",
    "results_shown": "Cannot undo", "store": "Storage unavailable",
}


def make_env() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["short"] = short
    env.filters["slug"] = slug
    return env


def slug(text: object) -> str:
    """A CSS class fragment: ``"Accurate hit"`` → ``"accurate-hit"``."""
    return "".join(ch if ch.isalnum() else "-" for ch in str(text).lower()).strip("-")


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


def _muster(text: str, where: str) -> Any:
    """A muster pasted into the new-battle form: TOML if it reads as TOML, else YAML."""
    from rulekeeper.core.datafiles import StrictLoader
    from rulekeeper.rulesets.exillis.muster import Muster

    if not text.strip():
        raise PageRequestError(f"{where} is empty: paste a muster file (YAML or TOML)")
    try:
        return Muster.from_dict(tomllib.loads(text), where=where, text=text, suffix=".toml")
    except tomllib.TOMLDecodeError:
        pass
    try:
        data = yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise PageRequestError(f"{where}: neither TOML nor YAML ({str(exc).splitlines()[0]})") from None
    return Muster.from_dict(data, where=where, text=text, suffix=".yaml")


def battle_from_musters(k: Keeper, text_a: str, text_b: str, board: str, seed: int, practice: bool) -> str:
    """A battle between two pasted musters, set up exactly as ``battle new --muster --muster``."""
    from rulekeeper.persistence.campaign import CampaignStore
    from rulekeeper.rulesets.exillis.muster_battle import parse_board, scenario_from_musters
    from rulekeeper.rulesets.exillis.musters_data import load_musters_data
    from rulekeeper.service.campaign import check_musters, muster_meta

    a, b = _muster(text_a, "muster A"), _muster(text_b, "muster B")
    width, height = parse_board(board or "5x4")
    data = load_musters_data()
    t = k.service.t
    sc = scenario_from_musters(a, b, width, height, roster=t.roster, rules=t.rules, data=data)
    with CampaignStore(k.store._url) as campaign:  # the campaign lives in the keeper's database
        check_musters(campaign, (a, b), t.roster)
    return k.service.new(sc, seed, practice=practice, meta=muster_meta(a, b, t.roster, data))


@dataclass
class View:
    """One battle as the holder of one link sees it now."""

    bid: str
    role: str
    rec: BattleRecord
    state: BattleState  # the true current state
    board_state: BattleState  # what the board shows (before an action whose results are hidden)
    last: LogEntry | None
    pending: bool  # the last action drew chance and nobody has revealed it yet
    links: Links
    r: Renderer

    @property
    def position(self) -> int:
        return self.rec.position

    @property
    def version(self) -> str:
        """What the live fragment is keyed by: the log position and whether results are hidden."""
        return f"{self.rec.position}.{int(self.pending)}"

    @property
    def last_side(self) -> str | None:
        return None if self.last is None else side_of_key(str(self.last.action.get("unit", "")))

    @property
    def is_side(self) -> bool:
        return self.role != "spectator"


def state_at(k: Keeper, bid: str, n: int) -> BattleState:
    """The battle after its first ``n`` actions, replayed from the initial state."""
    state = k.service._initial(bid)
    for e in k.store.entries(bid)[:n]:
        state = apply(state, Action.from_dict(e.action), k.service.t).state
    return state


class Pages:
    def __init__(self, keeper: Keeper) -> None:
        self.k = keeper
        self.env = make_env()

    def renderer(self, rec: BattleRecord) -> Renderer:
        return renderer_for(rec.ruleset, self.env, self.k.service.t)

    def html(self, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        text = self.env.get_template(name).render(**ctx)
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
        last = self.k.store.entries(bid, rec.position - 1)[-1] if rec.position else None
        pending = bool(last is not None and not last.shown and last.result.get("chance") and rec.status != "over")
        return role, rec, last, pending

    def version(self, bid: str, token: str | None) -> str:
        _, rec, _, pending = self._head(bid, token)
        return f"{rec.position}.{int(pending)}"

    def refusal(self, exc: RulekeeperError) -> HTMLResponse:
        """A typed error as a page of its own (the common 404 for a missing battle or bad link)."""
        if isinstance(exc, BattleNotFoundError):
            return self.not_found()
        return self.html("error.html", PAGE_STATUS.get(error_code(exc), 400), title="Error", error=_error_ctx(exc))

    def view(self, bid: str, token: str | None) -> View:
        role, rec, last, pending = self._head(bid, token)
        state = self.k.service.state(bid)
        board_state = state_at(self.k, bid, rec.position - 1) if pending else state
        links = Links(bid, token or "", rec.position)
        return View(bid, role, rec, state, board_state, last, pending, links, self.renderer(rec))

    # -- the battle page -----------------------------------------------------------------------

    def live(self, v: View, q: dict[str, str | None], error: RulekeeperError | None = None) -> dict[str, Any]:
        """Everything inside the polled ``#live`` region."""
        r, state = v.r, v.state
        panel: dict[str, Any] = {"mode": "wait"}
        board_state, caption = v.board_state, ""
        fate_index = _opt_int(q.get("fate"), 0, max(0, v.position - 1))
        if v.pending:
            assert v.last is not None
            caption = f"Before: {r.action_text(v.last.action)} — its results are not revealed yet"
            panel = {"mode": "pending", "mine": v.last_side == v.role, "text": r.action_text(v.last.action),
                     "count": r.fate_count(v.last.result.get("report", [])), "side": v.last_side}
        elif fate_index is not None and v.position:
            entry = self.k.store.entries(v.bid, fate_index)[0]
            report = entry.result.get("report", [])
            shown_q = q.get("open")
            shown = None if shown_q == "all" else (_opt_int(shown_q) or 0)
            fate = r.fate(report, shown, v.links, fate_index)
            panel = {"mode": "fate", "fate": fate, "index": fate_index, "text": r.action_text(entry.action),
                     "next": fate.revealed + 1, "done": fate.revealed >= fate.revealable}
            if fate_index == v.position - 1:
                board_state = state_at(self.k, v.bid, fate_index)
                caption = f"Before: {r.action_text(entry.action)} — continue to see the board after it"
        elif state.over:
            panel = {"mode": "over", "result": r.result(state)}
        else:
            active_side = r.side_of(state, state.active[0]) if state.active else None
            if v.is_side and v.role == active_side:
                _, legal = self.k.service.legal(v.bid)
                pick = _opt_int(q.get("pick"), 0, len(legal) - 1) if legal else None
                at = _opt_int(q.get("at"))
                panel = {"mode": "act", "actions": r.actions(state, legal, v.links), "preview": None,
                         "moved_on": pick is not None and at != v.position}
                if pick is not None and at == v.position:
                    panel["preview"] = r.preview(state, legal, pick, v.links)
            else:
                panel = {"mode": "wait", "side": active_side}
        header = r.header(board_state)
        can_undo = (v.is_side and v.last is not None and v.last_side == v.role and not state.over
                    and not v.pending)
        unit_key = q.get("unit")
        unit_html = None
        if unit_key:
            try:
                unit_html = r.unit_panel(board_state, unit_key, v.links)
            except RulekeeperError:
                unit_html = None
        notice = NOTICES.get(q.get("note") or "")
        return {
            "v": v, "panel": panel, "header": header, "board": r.board(board_state, v.links, caption),
            "turn_bar": r.turn_bar(board_state), "can_undo": can_undo,
            "undo_locked": bool(v.last is not None and v.last.shown and v.last.result.get("chance")),
            "last_text": None if v.last is None else r.action_text(v.last.action),
            "unit_html": unit_html, "notice": notice, "error": _error_ctx(error),
        }

    def battle_page(self, v: View, q: dict[str, str | None], error: RulekeeperError | None = None,
                    status: int = 200) -> HTMLResponse:
        return self.html("battle.html", status, title=f"{v.rec.title or v.rec.scenario}", **self.live(v, q, error))


def _error_ctx(exc: RulekeeperError | None) -> dict[str, str] | None:
    if exc is None:
        return None
    code = error_code(exc)
    return {"code": code, "title": ERROR_TITLES.get(code, "Refused"), "message": exc.message}


def _see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def build_pages(keeper: Keeper) -> APIRouter:
    p = Pages(keeper)
    k = keeper
    r = APIRouter(include_in_schema=False)

    async def fail(request: Request, exc: RulekeeperError, bid: str | None, token: str | None) -> Response:
        """A typed error as a readable page: the battle with a banner, or the common 404."""
        if isinstance(exc, BattleNotFoundError):
            return p.not_found()
        status = PAGE_STATUS.get(error_code(exc), 400)
        if bid is not None:
            try:
                v = p.view(bid, token)
            except RulekeeperError:  # refused before the link was read: the error alone, no battle
                return p.refusal(exc)
            return p.battle_page(v, {}, exc, status)
        return p.refusal(exc)

    # -- home and new battles ------------------------------------------------------------------

    @r.get("/", response_class=HTMLResponse)
    def home() -> HTMLResponse:
        return p.html("home.html", title="Rule keeper", battles=k.store.list(), scenarios=shipped_scenarios(),
                      seed=secrets.randbelow(1_000_000), error=None)

    @r.get("/new")
    def new_get() -> RedirectResponse:
        return _see_other("/")

    @r.post("/new", response_class=HTMLResponse)
    async def new(request: Request) -> Response:
        try:
            form = await read_form(request, max_form=MAX_MUSTER * 3, max_field=MAX_MUSTER)
            seed = _int(form.get("seed"), "seed", default=0, hi=2**63 - 1)
            practice = form.get("practice") in ("1", "on", "true", "yes")
            if form.get("from") == "musters":
                bid = battle_from_musters(k, form.get("muster_a", ""), form.get("muster_b", ""),
                                          form.get("board", "")[:20], seed, practice)
            else:
                bid = k.service.new(scenario_path(form.get("scenario", "")[:100]), seed, practice=practice)
        except RulekeeperError as exc:
            return p.html("home.html", PAGE_STATUS.get(error_code(exc), 400), title="Rule keeper",
                          battles=k.store.list(), scenarios=shipped_scenarios(), seed=0, error=_error_ctx(exc))
        tokens = k.access.issue(bid)
        base = str(request.base_url).rstrip("/")
        links = {role: f"{base}/b/{bid}?token={t}" for role, t in tokens.items()}
        rec = k.store.get(bid)
        return p.html("created.html", 201, title="Battle created", rec=rec, links=links)

    # -- the battle page and its fragments -------------------------------------------------------

    @r.get("/b/{bid}", response_class=HTMLResponse)
    def battle(bid: str, request: Request, token: str | None = None) -> Response:
        q = {key: request.query_params.get(key) for key in ("pick", "at", "fate", "open", "unit", "note")}
        try:
            v = p.view(bid, token)
            return p.battle_page(v, q)
        except RulekeeperError as exc:
            return p.refusal(exc)

    @r.get("/b/{bid}/live", response_class=HTMLResponse)
    def live(bid: str, token: str | None = None, v: str | None = None) -> Response:
        """The polled fragment: 204 while nothing changed, else the new ``#live`` region."""
        try:
            if v == p.version(bid, token):
                return Response(status_code=204)
            view = p.view(bid, token)
        except BattleNotFoundError:
            return p.html("live_gone.html", 404, message=NOT_FOUND["message"])
        return p.html("live.html", **p.live(view, {}))

    @r.get("/b/{bid}/unit", response_class=HTMLResponse)
    def unit(bid: str, token: str | None = None, key: str | None = None) -> Response:
        """The unit panel alone (HTMX swaps it in; the battle page shows it with ``?unit=``)."""
        try:
            view = p.view(bid, token)
            if not key:
                return HTMLResponse("", headers={"Cache-Control": "no-store"})
            html = view.r.unit_panel(view.board_state, key or "", view.links)
        except RulekeeperError as exc:
            return p.refusal(exc)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    @r.post("/b/{bid}/act")
    async def act(bid: str, request: Request, token: str | None = None) -> Response:
        form: dict[str, str] = {}
        try:
            form = await read_form(request)
            token = form.get("token", token)
            v = p.view(bid, token)
            position = _int(form.get("position"), "position")
            require_writer(bid, v.role, position, v.position, v.state.over, "act")
            if v.pending:
                raise ResultsPendingError(f"reveal the results of {v.r.action_text(v.last.action if v.last else {})} first")
            action = Action.from_dict({"kind": form.get("kind"), "unit": form.get("unit", ""),
                                       "target": form.get("target") or None, "option": form.get("option") or None})
            unit = v.state.find(action.unit)
            if unit.side != v.role:
                raise UnauthorizedError(f"{unit.key} belongs to the other side")
            out, _ = k.service.act(bid, Action(action.kind, unit.key, action.target, action.option),
                                   expected_position=position, shown=False, side=v.role)
        except RulekeeperError as exc:
            return await fail(request, exc, bid, token)
        if out.state.over and out.chance:  # the last blow: its Fate Screen, then the end screen
            return _see_other(v.links.fate(position, 0))
        return _see_other(v.links.page("panel"))

    @r.post("/b/{bid}/reveal")
    async def reveal(bid: str, request: Request, token: str | None = None) -> Response:
        """Show the last action's results: the first one, or all (marks them shown: no undo after)."""
        try:
            form = await read_form(request)
            token = form.get("token", token)
            v = p.view(bid, token)
            position = _int(form.get("position"), "position", lo=1)
            require_writer(bid, v.role, position, v.position, v.state.over, "reveal results", allow_over=True)
            require_last_actor(v.role, v.last.action if v.last else None, "reveal its results")
            if not v.state.over and v.last is not None and not v.last.shown:
                k.store.mark_shown(bid, position - 1)
        except RulekeeperError as exc:
            return await fail(request, exc, bid, token)
        shown = "all" if form.get("all") in ("1", "on", "true") else 1
        return _see_other(v.links.fate(position - 1, shown))

    @r.post("/b/{bid}/undo")
    async def undo(bid: str, request: Request, token: str | None = None) -> Response:
        try:
            form = await read_form(request)
            token = form.get("token", token)
            v = p.view(bid, token)
            position = _int(form.get("position"), "position")
            require_writer(bid, v.role, position, v.position, v.state.over, "undo")
            require_last_actor(v.role, v.last.action if v.last else None, "take it back")
            k.service.undo(bid, expected_position=position)
        except RulekeeperError as exc:
            return await fail(request, exc, bid, token)
        return _see_other(v.links.page("panel", note="undone"))

    # -- the log and the replay viewer -----------------------------------------------------------

    @r.get("/b/{bid}/log", response_class=HTMLResponse)
    def log(bid: str, token: str | None = None) -> Response:
        try:
            v = p.view(bid, token)
        except RulekeeperError as exc:
            return p.refusal(exc)
        rows = []
        for e in k.store.entries(v.bid):
            hidden = v.pending and e.index == v.position - 1
            rows.append({"index": e.index + 1, "text": v.r.action_text(e.action), "acp": e.result.get("acp"),
                         "side": side_of_key(str(e.action.get("unit", ""))), "shown": e.shown, "hidden": hidden,
                         "lines": [] if hidden else v.r.log_lines(e.result.get("report", [])),
                         "chance": bool(e.result.get("chance")),
                         "href": v.links.sub("replay", step=e.index + 1)})
        return p.html("log.html", title=f"Log — {v.rec.title}", v=v, rows=rows)

    @r.get("/b/{bid}/replay", response_class=HTMLResponse)
    def replay(bid: str, token: str | None = None, step: str | None = None) -> Response:
        """Step through the log: the board after ``step`` actions, replayed from the initial state."""
        try:
            v = p.view(bid, token)
        except RulekeeperError as exc:
            return p.refusal(exc)
        last = v.position - (1 if v.pending else 0)
        n = _opt_int(step, 0, last)
        n = last if n is None else n
        state = state_at(k, bid, n)
        fate = None
        text = "The battle as deployed"
        if n:
            entry = k.store.entries(bid, n - 1)[0]
            fate = v.r.fate(entry.result.get("report", []), None, v.links, n - 1).html
            text = v.r.action_text(entry.action)
        nav = {"first": v.links.sub("replay", step=0), "prev": v.links.sub("replay", step=max(0, n - 1)),
               "next": v.links.sub("replay", step=min(last, n + 1)), "last": v.links.sub("replay", step=last)}
        return p.html("replay.html", title=f"Replay — {v.rec.title}", v=v, n=n, last=last, nav=nav, text=text,
                      fate=fate, board=v.r.board(state, v.links), turn_bar=v.r.turn_bar(state),
                      header=v.r.header(state), result=v.r.result(state) if state.over else None)

    return r
