"""The JSON API of the web keeper (``/api``): everything the pages do, with typed error codes.

Every action checks token → side → active unit; spectators only read; an action carrying
an old log position gets 409 ``stale_state`` and changes nothing. An unknown battle and a
bad token both answer the same 404, so nobody can probe which battles exist.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from rulekeeper.core.errors import (
    DataFileError,
    IllegalActionError,
    ImpossibleRequestError,
    InvalidStatError,
    RulekeeperError,
    UnknownNameError,
)
from rulekeeper.persistence.access import AccessStore
from rulekeeper.persistence.store import BattleNotFoundError, BattleStore, StaleStateError
from rulekeeper.rulesets.exillis.battle.actions import Action
from rulekeeper.rulesets.exillis.battle.odds import preview
from rulekeeper.rulesets.exillis.battle.result import summary
from rulekeeper.rulesets.exillis.battle.setup import state_to_dict
from rulekeeper.rulesets.exillis.battle.turnbar import predict
from rulekeeper.service.battles import BattleService, GameOverError, NotYourTurnError

from .guards import UnauthorizedError, require_last_actor, require_writer
from .scenarios import scenario_path, shipped_scenarios

STATUS = {
    "not_found": 404, "unauthorized": 403, "not_your_turn": 409, "stale_state": 409, "game_over": 409,
    "invalid_action": 422, "unknown_name": 422, "impossible_request": 422, "invalid_stat": 422, "data_file": 422,
    "bad_request": 422, "replay_mismatch": 422, "store": 503,
}

NOT_FOUND = {"error": "not_found", "message": "no such battle, or the link is not valid"}


class NewBattle(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scenario: str = Field(description="A shipped scenario, e.g. 'starter'.", max_length=100)
    seed: int = Field(0, ge=0, le=2**63 - 1)
    practice: bool = False


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(max_length=20)
    unit: str = Field(max_length=100)
    target: str | None = Field(None, max_length=100)
    option: str | None = Field(None, max_length=40)
    position: int = Field(ge=0, le=10**9, description="The log position the client saw (optimistic check).")


class UndoRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: int = Field(ge=0, le=10**9)


class Keeper:
    """The stores behind the app (one per app instance)."""

    def __init__(self, db: str | None) -> None:
        self.store = BattleStore(db)
        self.access = AccessStore(db)
        self.service = BattleService(self.store)

    def role(self, battle_id: str, token: str | None) -> str:
        role = self.access.role(battle_id, token)
        if role is None:
            raise BattleNotFoundError(battle_id)
        self.store.get(battle_id)
        return role


def token_of(
    x_rulekeeper_token: Annotated[str | None, Header(max_length=200)] = None,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> str | None:
    return x_rulekeeper_token or token


def _view(k: Keeper, bid: str, role: str) -> dict[str, Any]:
    rec = k.store.get(bid)
    state = k.service.state(bid)
    return {
        "id": bid, "scenario": rec.scenario, "position": rec.position, "role": role,
        "active": list(state.active), "over": state.over, "turn_bar": [list(g) for g in predict(state)],
        "state": state_to_dict(state), "result": summary(state) if state.over else None,
    }


def build_router(k: Keeper) -> APIRouter:
    r = APIRouter(prefix="/api")

    @r.get("/scenarios", summary="Shipped scenarios a battle can start from")
    def scenarios() -> list[dict[str, str]]:
        return shipped_scenarios()

    @r.post("/battles", status_code=201, summary="Create a battle; returns the secret side and spectator links")
    def create(body: NewBattle) -> dict[str, Any]:
        bid = k.service.new(scenario_path(body.scenario), body.seed, practice=body.practice)
        tokens = k.access.issue(bid)
        return {"id": bid, "tokens": tokens,
                "links": {role: f"/b/{bid}?token={t}" for role, t in tokens.items()}}

    @r.get("/battles/{battle_id}", summary="The battle as the holder of this link sees it")
    def get(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> dict[str, Any]:
        role = k.role(battle_id, token)
        return _view(k, battle_id, role)

    @r.get("/battles/{battle_id}/actions", summary="Legal actions of the active unit, with AcP and odds")
    def actions(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> dict[str, Any]:
        role = k.role(battle_id, token)
        state, legal = k.service.legal(battle_id)
        side = state.unit(state.active[0]).side if state.active else None
        return {"position": k.store.get(battle_id).position, "active": list(state.active), "side": side,
                "yours": role == side,
                "actions": [{**lg.action.to_dict(), "acp": lg.acp, "note": lg.note, "odds": preview(state, k.service.t, lg)}
                            for lg in legal]}

    @r.post("/battles/{battle_id}/actions", summary="Perform an action (side link only, at the position you saw)")
    def act(battle_id: str, body: ActionRequest, token: Annotated[str | None, Depends(token_of)]) -> dict[str, Any]:
        role = k.role(battle_id, token)
        state = k.service.state(battle_id)
        require_writer(battle_id, role, body.position, k.store.get(battle_id).position, state.over, "act")
        unit = state.find(body.unit)
        if unit.side != role:
            raise UnauthorizedError(f"{unit.key} belongs to the other side")
        # the API answers with the results, so they count as shown: no undo-and-retry of a seen roll
        out, pos = k.service.act(battle_id, Action(body.kind, unit.key, body.target, body.option),
                                 expected_position=body.position, shown=True, side=role)
        return {"position": pos, "action": out.action.to_dict(), "report": list(out.report),
                "chance": [c.to_dict() for c in out.chance], "over": out.state.over}

    @r.post("/battles/{battle_id}/shown", summary="Mark the last action's results as shown (no undo after)")
    def shown(battle_id: str, body: UndoRequest, token: Annotated[str | None, Depends(token_of)]) -> dict[str, Any]:
        role = k.role(battle_id, token)
        current = k.store.get(battle_id).position
        require_writer(battle_id, role, body.position, current, k.service.state(battle_id).over, "reveal results")
        if current < 1:
            raise StaleStateError(battle_id, body.position, current)
        last = k.store.entries(battle_id, current - 1)[-1]
        require_last_actor(role, last.action, "reveal its results")
        k.store.mark_shown(battle_id, current - 1)
        return {"position": body.position, "shown": True}

    @r.post("/battles/{battle_id}/undo", summary="Take back the last action (never after its random results were shown)")
    def undo(battle_id: str, body: UndoRequest, token: Annotated[str | None, Depends(token_of)]) -> dict[str, Any]:
        role = k.role(battle_id, token)
        current = k.store.get(battle_id).position
        require_writer(battle_id, role, body.position, current, k.service.state(battle_id).over, "undo")
        entries = k.store.entries(battle_id, max(0, current - 1))
        require_last_actor(role, entries[-1].action if entries else None, "take it back")
        k.service.undo(battle_id, expected_position=body.position)
        return {"position": k.store.get(battle_id).position}

    @r.get("/battles/{battle_id}/log", summary="Every action and its results, in order")
    def log(battle_id: str, token: Annotated[str | None, Depends(token_of)],
            since: Annotated[int, Query(ge=0, le=10**9)] = 0) -> dict[str, Any]:
        k.role(battle_id, token)
        return {"position": k.store.get(battle_id).position, "entries": [
            {"index": e.index, "action": e.action, "shown": e.shown, "report": e.result.get("report", [])}
            for e in k.store.entries(battle_id, since)]}

    @r.get("/battles/{battle_id}/replay", summary="Replay the log and prove the stored state identical")
    def replay(battle_id: str, token: Annotated[str | None, Depends(token_of)]) -> dict[str, Any]:
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
        if isinstance(exc, (NotYourTurnError, GameOverError, UnauthorizedError)):
            code = exc.code
        elif isinstance(exc, IllegalActionError):
            code = "invalid_action"
        elif isinstance(exc, (UnknownNameError, ImpossibleRequestError, InvalidStatError, DataFileError)):
            code = exc.code
        body = exc.to_dict()
        body["error"] = code
        return JSONResponse(body, status_code=STATUS.get(code, 400))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(problems)[:2000]}, status_code=422)


def create_app(db: str | Path | None = None) -> FastAPI:
    app = FastAPI(title="rulekeeper", description="The web rule keeper: play a battle from several devices.",
                  version="0.1.0")
    keeper = Keeper(None if db is None else str(db))
    app.state.keeper = keeper
    install_errors(app)
    app.include_router(build_router(keeper))
    from fastapi.staticfiles import StaticFiles

    from .pages import STATIC, build_pages

    app.include_router(build_pages(keeper))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
