"""The JSON API of the web keeper (``/api``): everything the pages do, with typed error codes.

Every action checks token → side → active unit; spectators only read; an action carrying
an old log position gets 409 ``stale_state`` and changes nothing. An unknown battle and a
bad token both answer the same 404, so nobody can probe which battles exist.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, asynccontextmanager
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekeeper.core.errors import (
    DataFileError,
    IllegalActionError,
    ImpossibleRequestError,
    InvalidStatError,
    RulekeeperError,
    UnknownNameError,
)
from rulekeeper.core.game import SPECTATOR, JsonDict, SetupRequest, concealed_action, conceals
from rulekeeper.persistence.access import AccessStore
from rulekeeper.persistence.chain import fingerprint
from rulekeeper.persistence.store import BattleNotFoundError, BattleRecord, BattleStore, StaleStateError
from rulekeeper.service.battles import (
    ActRequest,
    BattleService,
    GameOverError,
    NotYourTurnError,
    ResultsShownError,
    game_of,
)
from rulekeeper.service.bot_seat import new_seat, seat_of
from rulekeeper.service.dice import Dice
from rulekeeper.service.scenarios import find_scenario, shipped_scenarios

from .action_form import MAX_FIELDS, fields_problem
from .api_bodies import (
    ActedBody,
    ActionsBody,
    CreatedBody,
    DiceBody,
    LogBody,
    LoggedEntry,
    ReplayBody,
    ShownBody,
    UndoneBody,
    ViewBody,
    dice_body,
)
from .guards import UnauthorizedError, require_last_actor, require_writer
from .public_errors import public_body
from .ratelimit import RateLimit, RateLimits

STATUS = {
    "not_found": 404, "unauthorized": 403, "not_your_turn": 409, "stale_state": 409, "game_over": 409,
    "invalid_action": 422, "unknown_name": 422, "impossible_request": 422, "invalid_stat": 422, "data_file": 422,
    "bad_request": 422, "replay_mismatch": 422, "store": 503, "busy": 503, "damaged_store": 503,
    "dice_not_ready": 409, "dice_contributed": 409, "not_verifiable": 409, "bad_contribution": 422, "bad_export": 422,
    "dice_not_committed": 409, "contribution_mismatch": 409, "results_pending": 409, "results_shown": 409,
    "too_large": 413, "too_slow": 408, "bad_name": 422,
}

NOT_FOUND = {"error": "not_found", "message": "no such battle, or the link is not valid"}
#: The project's error codes for Starlette's own HTTP refusals.
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 415: "bad_request"}
#: An action body carries the game's own fields (``kind``, ``unit``…) beside ``position``: bounded as the form's.
MAX_ACTION_FIELDS = MAX_FIELDS


class NewBattle(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scenario: str = Field(description="A shipped scenario, 'game:key' or a bare key such as 'starter'.",
                          max_length=100)
    seed: int | None = Field(None, ge=0, le=2**63 - 1,
                             description="A seed of your choice makes a plain, reproducible battle; none: verifiable dice.")
    practice: bool = False
    verifiable: bool | None = Field(None, description="Verifiable dice (default: when no seed is given).")
    bot: str | None = Field(None, max_length=40, description="The side the keeper plays itself: a side's name, "
                            "'first' or 'second' (none: two players).")
    strength: str | None = Field(None, max_length=20, description="The keeper side's strength: simple, quick "
                                 "(0.2 s a move), steady (1 s) or strong (2 s).")

    def dice(self) -> tuple[int, bool]:
        """The seed to set the battle up with and whether its dice are verifiable."""
        verifiable = self.seed is None if self.verifiable is None else self.verifiable
        if verifiable and self.seed is not None:
            raise BadRequestError("a battle with verifiable dice takes no seed: its seed is made from the keeper's "
                                  "secret and each side's contribution", field="seed")
        return (self.seed if self.seed is not None else 0 if verifiable else secrets.randbelow(2**63)), verifiable


class BadRequestError(RulekeeperError):
    code = "bad_request"


class Contribution(BaseModel):
    """A side's commitment (first), or its contribution (once every side has committed, or in one step)."""

    model_config = ConfigDict(extra="forbid")
    contribution: str | None = Field(None, min_length=1, max_length=200,
                                     description="32 random bytes as 64 hex digits.")
    commitment: str | None = Field(None, min_length=1, max_length=200, description=(
        "SHA-256 of 'rulekeeper-dice/2 commitment\\n' + side + '\\n' + the contribution's 32 bytes, as 64 hex "
        "digits: sent before the contribution, which is revealed once every side has committed."))


class ActionRequest(BaseModel):
    """The game's action fields (e.g. Ex illis: kind, unit, target, option) and the position the client saw."""

    model_config = ConfigDict(extra="allow")
    position: int = Field(ge=0, le=10**9, description="The log position the client saw (optimistic check).")

    @model_validator(mode="after")
    def _bounded(self) -> ActionRequest:
        """The same typed values the Commit form sends (texts, numbers, yes/no, lists of names or positions),
        within the same bounds (``web.action_form.field_problem``); their types are the game's codec's to check."""
        problem = fields_problem(self.model_extra or {})
        if problem is not None:
            raise ValueError(problem[1])
        return self

    def action(self) -> JsonDict:
        """The action's fields as JSON values, a null one left out (as an empty form field is)."""
        return {k: v for k, v in (self.model_extra or {}).items() if v is not None}


class UndoRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: int = Field(ge=0, le=10**9)


class Keeper:
    """The stores behind the app (one per app instance)."""

    def __init__(self, db: str | None, host_key: str | None = None, public_url: str | None = None) -> None:
        from .host import new_host_key
        from .links import check_public_url

        self.host_key = host_key or new_host_key()  # see web/host.py: the host link's secret
        #: the base of the links handed out (web/links.py); None: the address the request came to
        self.public_url = None if public_url is None else check_public_url(public_url)
        from .live import Changes

        self.changes = Changes()  # wakes the live streams of a battle this keeper changed (web/live.py)
        self.store = BattleStore(db)
        self.access = AccessStore(beside=self.store)  # one engine: a link and its battle read in one snapshot
        self.service = BattleService(self.store)
        self.dice = Dice(self.service)
        from .watch import Watcher

        #: wakes the live streams of a battle another process changed (web/watch.py): one per process
        self.watcher = Watcher(self.store, self.changes)
        from rulekeeper.service.bot_runner import BotRunner


        self.bots = BotRunner(self.service, self.changes.notify)  # the keeper's own sides (service/bot_runner.py)

    def changed(self, bid: str, rec: BattleRecord | None = None) -> None:
        """After every write: wake the battle's live pages, and its keeper side if it is now to act.

        ``rec``: the battle's record as the write read it: a battle without a keeper side (its ``meta``
        says so, and no write changes it) then costs its keeper no look at the store."""
        self.changes.notify(bid)
        if rec is None or seat_of(rec.meta) is not None:
            self.bots.poke(bid)

    def snapshot(self) -> AbstractContextManager[None]:
        """Every read of the battle store inside the block from one snapshot (one request, one moment)."""
        return self.store.reading()

    def base(self, request: Request) -> str:
        """Where the links this keeper hands out point: the public URL, else the request's own address."""
        return self.public_url or str(request.base_url).rstrip("/")

    def role(self, battle_id: str, token: str | None, rec: BattleRecord | None = None) -> str:
        """The role ``token`` opens ``battle_id`` with (``rec``: the battle's record, if the caller read it)."""
        role = self.access.role(battle_id, token)
        if role is None:
            raise BattleNotFoundError(battle_id)
        seat = seat_of((rec if rec is not None else self.store.get(battle_id)).meta)
        if seat is not None and role == seat.side:  # the keeper plays it: no link may act for it
            raise BattleNotFoundError(battle_id)
        return role

    def link_roles(self, bid: str) -> tuple[str, ...]:
        """The roles a link is issued for: every side but the one the keeper plays, and the spectator."""
        seat = seat_of(self.store.get(bid).meta)
        return tuple(r for r in self.service.roles(bid) if seat is None or r != seat.side)

    def writer(self, battle_id: str, token: str | None, verb: str) -> str:
        """The side ``token`` plays on ``battle_id`` (one read: the service reads the battle itself when it acts,
        and an unknown battle is refused there the same way); spectators only watch."""
        role = self.access.role(battle_id, token)
        if role is None:
            raise BattleNotFoundError(battle_id)
        if role == SPECTATOR:
            raise UnauthorizedError(f"spectators cannot {verb}")
        return role

    def create(self, request: SetupRequest, ruleset: str | None = None, title: str = "",
               verifiable: bool = False, bot: str = "", strength: str | None = None) -> tuple[str, dict[str, str]]:
        """A new battle and one secret token per role (the game's sides and the spectator).

        ``bot``: the side the keeper plays (a side's name, ``first`` or ``second``; empty: none),
        at ``strength`` (service/bot_seat.py).  It gets no link; with verifiable dice the keeper adds
        its share at once, before any player's, so it cannot be chosen knowing theirs.
        """
        from rulekeeper.service.battles import game_of, guess_ruleset

        g = game_of(ruleset or guess_ruleset(request))
        setup = g.setup(request)
        seat = new_seat(g.roles(setup.document), bot, strength, None if verifiable else request.seed)
        meta = None if seat is None else {"bot": seat.to_meta()}
        bid = self.service.new(setup, title=title, verifiable=verifiable, meta=meta)
        if seat is not None and self.store.dice(bid) is not None:
            self.dice.contribute(bid, seat.side, secrets.token_hex(32))
        tokens = self.access.issue(bid, self.link_roles(bid))
        if seat is not None and seat.policy == "search":
            self.bots.warm()  # its worker starts while the players open their links
        self.bots.poke(bid)  # the keeper may move first
        return bid, tokens


def token_of(
    x_rulekeeper_token: Annotated[str | None, Header(max_length=200)] = None,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> str | None:
    return x_rulekeeper_token or token


def _view(k: Keeper, bid: str, role: str) -> ViewBody:
    """The battle as ``role`` may see it: the game's per-side view, before any face-down result."""
    with k.snapshot():
        rec = k.store.get(bid)
        visible = k.service.visible(bid)
    g = k.service.game(bid)
    status = g.status(visible.state)
    result = g.result(visible.state)
    return {
        "id": bid, "ruleset": rec.ruleset, "scenario": rec.scenario, "position": rec.position, "role": role,
        "pending": visible.pending is not None, "active": list(status.acting), "to_act": list(status.to_act),
        "over": status.over, "state": g.view(visible.state, role), "result": None if result is None else result.summary,
        "keeper_side": None if (seat := seat_of(rec.meta)) is None else seat.side,
    }


def build_router(k: Keeper) -> APIRouter:
    r = APIRouter(prefix="/api")

    @r.get("/scenarios", summary="Shipped scenarios a battle can start from")
    def scenarios() -> list[dict[str, str]]:
        return [s.to_dict() for s in shipped_scenarios()]

    @r.post("/battles", status_code=201, summary="Create a battle; returns the secret side and spectator links")
    def create(body: NewBattle) -> CreatedBody:
        found = find_scenario(body.scenario)
        seed, verifiable = body.dice()
        bid, tokens = k.create(SetupRequest(scenario=found.info.path, seed=seed, practice=body.practice,
                                            db=k.store.url), ruleset=found.game, verifiable=verifiable,
                               bot=body.bot or "", strength=body.strength)
        dice = k.dice.status(bid)
        seat = seat_of(k.store.get(bid).meta)
        return {"id": bid, "tokens": tokens, "bot": None if seat is None else seat.to_meta(), "verifiable": dice.verifiable, "commitment": dice.commitment,
                "links": {role: f"/b/{bid}?token={t}" for role, t in tokens.items()}}

    @r.get("/battles/{battle_id}/dice", summary="The verifiable dice: commitment, contributions; the secret after the end")
    def dice(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> DiceBody:
        with k.snapshot():
            role = k.role(battle_id, token)
            return dice_body(k.dice.status(battle_id), role)

    @r.post("/battles/{battle_id}/dice", summary="Commit to this side's random contribution, then reveal it (once)")
    def contribute(battle_id: str, body: Contribution,
                   token: Annotated[str | None, Depends(token_of)]) -> DiceBody:
        role = k.role(battle_id, token)
        if role == "spectator":
            raise UnauthorizedError("spectators do not contribute to the dice")
        if (body.commitment is None) == (body.contribution is None):
            raise BadRequestError("send either a commitment (first) or a contribution (once every side has "
                                  "committed)", field="commitment")
        if body.commitment is not None:
            status = k.dice.commit(battle_id, role, body.commitment)
        else:
            status = k.dice.contribute(battle_id, role, body.contribution or "")
        k.changed(battle_id)
        return dice_body(status, role)

    @r.get("/battles/{battle_id}", summary="The battle as the holder of this link sees it")
    def get(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> ViewBody:
        role = k.role(battle_id, token)
        return _view(k, battle_id, role)

    @r.get("/battles/{battle_id}/actions", summary="Legal actions of the side(s) to act, with their cost and odds")
    def actions(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> ActionsBody:
        with k.snapshot():  # the list and its position: one moment
            role = k.role(battle_id, token)
            visible = k.service.visible(battle_id)
        rec = visible.record
        assert rec is not None
        g = game_of(rec.ruleset)
        status = g.status(visible.state)
        legal = [] if visible.pending is not None else g.legal_actions(visible.state)
        side = status.to_act[0] if status.to_act else None
        return {"position": rec.position, "active": list(status.acting), "side": side,
                "to_act": list(status.to_act), "yours": role in status.to_act, "pending": visible.pending is not None,
                "actions": [{**lg.action, "text": lg.text, "acp": lg.cost, "note": lg.note,
                             "odds": g.preview(visible.state, lg.action).headline_dict()} for lg in legal]}

    @r.post("/battles/{battle_id}/actions", summary="Perform an action (side link only, at the position you saw)")
    def act(battle_id: str, body: ActionRequest, token: Annotated[str | None, Depends(token_of)]) -> ActedBody:
        with k.snapshot():  # the link and the battle read at one moment; the append is a compare-and-set on it
            role = k.writer(battle_id, token, "act")
            # the service checks the rest once (issue 22, point 4); the API answers with the results, so they
            # count as shown: no undo-and-retry of a seen roll
            done = k.service.play(battle_id, body.action(), ActRequest(body.position, link=role), shown=True)
        k.changed(battle_id, done.record)
        out = done.outcome
        return {"position": done.position, "action": out.action, "report": list(out.report),
                "chance": [c.to_dict() for c in out.chance], "over": done.game.status(out.state).over}

    @r.post("/battles/{battle_id}/shown", summary="Mark the last action's results as shown (no undo after)")
    def shown(battle_id: str, body: UndoRequest, token: Annotated[str | None, Depends(token_of)]) -> ShownBody:
        with k.snapshot():  # a compare-and-set on this moment's revision: an undo in between wins, this is stale
            role = k.role(battle_id, token)
            current = k.store.get(battle_id).position
            require_writer(battle_id, role, body.position, current, k.service.status(battle_id).over,
                           "reveal results", allow_over=True)  # the last blow's results are revealed like any other
            if current < 1:
                raise StaleStateError(battle_id, body.position, current)
            last = k.store.entry(battle_id, current - 1)
            require_last_actor(role, k.service.game(battle_id).side_of(last.action), "reveal its results")
            k.service.reveal(battle_id, body.position)
        k.changed(battle_id)
        return {"position": body.position, "shown": True}

    @r.post("/battles/{battle_id}/undo", summary="Take back the last action (never after its random results were shown)")
    def undo(battle_id: str, body: UndoRequest, token: Annotated[str | None, Depends(token_of)]) -> UndoneBody:
        with k.snapshot():  # a compare-and-set on this moment's revision: a reveal in between wins, this is stale
            # the link's checks (its role, the battle's end as it sees it, the last actor) are the service's
            k.service.undo(battle_id, expected_position=body.position, link=k.role(battle_id, token))
        k.changed(battle_id)
        return {"position": body.position - 1}

    @r.get("/battles/{battle_id}/log", summary="Every action and its results, in order (face-down results withheld)")
    def log(battle_id: str, token: Annotated[str | None, Depends(token_of)],
            since: Annotated[int, Query(ge=0, le=10**9)] = 0) -> LogBody:
        with k.snapshot():  # the entries, the pending flag and the fingerprint: one moment
            role = k.role(battle_id, token)
            visible = k.service.visible(battle_id)
            rec = k.store.get(battle_id)
            logged = k.store.entries(battle_id, since)
        hidden = None if visible.pending is None else visible.pending.index
        sealed = None if visible.pending is not None or not rec.head else fingerprint(rec.head)  # would seal it
        g = k.service.game(battle_id)
        entries: list[LoggedEntry] = []
        for e in logged:
            secret = conceals(g, visible.state, e.action, role)  # another side's orders, not yet revealed
            entries.append({"index": e.index, "action": concealed_action(g, e.action) if secret else e.action,
                            "shown": e.shown,
                            "report": [] if e.index == hidden or secret else e.result.get("report", [])})
        return {"position": rec.position, "fingerprint": sealed, "entries": entries}

    @r.get("/battles/{battle_id}/replay", summary="Replay the log and prove the stored states identical")
    def replay(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> ReplayBody:
        with k.snapshot():
            k.role(battle_id, token)
            rep = k.service.replay(battle_id)
        return {"identical": rep.identical, "actions": rep.actions, "differences": rep.differences[:20]}

    return r


def install_errors(app: FastAPI) -> None:
    @app.exception_handler(BattleNotFoundError)
    async def not_found(_: Request, exc: BattleNotFoundError) -> JSONResponse:
        return JSONResponse(NOT_FOUND, status_code=404)

    @app.exception_handler(RulekeeperError)
    async def typed(_: Request, exc: RulekeeperError) -> JSONResponse:
        code = exc.code
        if isinstance(exc, (NotYourTurnError, GameOverError, UnauthorizedError, ResultsShownError)):
            code = exc.code
        elif isinstance(exc, IllegalActionError):
            code = "invalid_action"
        elif isinstance(exc, (UnknownNameError, ImpossibleRequestError, InvalidStatError, DataFileError)):
            code = exc.code
        body = public_body(exc)  # a store's failure never names the store's location
        body["error"] = code
        headers = {"Retry-After": "2"} if code == "busy" else None  # another writer holds the lock: soon free
        return JSONResponse(body, status_code=STATUS.get(code, 400), headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Starlette's own refusals (no such route, wrong method...) in the project's error format."""
        code = HTTP_CODES.get(exc.status_code, "bad_request")
        return JSONResponse({"error": code, "message": str(exc.detail)[:500]}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(problems)[:2000]}, status_code=422)


#: Sent with every answer: nothing but our own scripts run, no page of ours in a frame, no type sniffing.
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every answer (a pure ASGI middleware).

    Not ``@app.middleware("http")``: its ``call_next`` turned a client leaving mid-request into
    a "No response returned" traceback, and it buffered every streamed answer through a queue.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, with_headers)


def install_security_headers(app: FastAPI) -> None:
    app.add_middleware(SecurityHeaders)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """On shutdown, the keeper's thinking sides stop and their worker processes end (service/bot_runner.py)."""
    yield
    keeper = getattr(app.state, "keeper", None)
    if isinstance(keeper, Keeper):
        keeper.bots.close()


def create_app(db: str | Path | None = None, rate_limits: RateLimits | None = None,
               host_key: str | None = None, public_url: str | None = None) -> FastAPI:
    # no /docs or /redoc: FastAPI serves them with scripts from a CDN, and the keeper works offline
    # (the schema stays at /openapi.json)
    app = FastAPI(title="rulekeeper", description="The web rule keeper: play a battle from several devices.",
                  version="0.1.0", docs_url=None, redoc_url=None, lifespan=_lifespan)
    from starlette.middleware.gzip import GZipMiddleware

    from .bodylimit import BodyLimit

    # pages, scripts and styles compressed (74-79 KB uncompressed); Starlette never compresses text/event-stream
    app.add_middleware(GZipMiddleware, minimum_size=512)
    app.add_middleware(BodyLimit)
    app.add_middleware(RateLimit, limits=rate_limits)
    install_security_headers(app)  # added last: outermost, so refusals above carry the headers too
    keeper = Keeper(None if db is None else str(db), host_key, public_url)
    app.state.keeper = keeper
    install_errors(app)
    app.include_router(build_router(keeper))
    from fastapi.staticfiles import StaticFiles

    from .battle_routes import build_pages
    from .pages import STATIC

    app.include_router(build_pages(keeper))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
