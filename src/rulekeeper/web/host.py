"""The host link: the one page that lists every battle, and issues new links for any of them.

Why: a battle's links are its only way in, shown once when it is created, and nobody may
probe which battles exist — so the home page lists none.  The person who starts the keeper
gets a **host link** (``rulekeeper serve`` prints it at every start): it lists every stored
battle (its scenario, sides, when it was created, its turn and state) and, for one of them, issues
a new link for one role — revoking that role's old link and no other (a lost phone) — or a new set
of every link.  The host key is 192 random bits
made at start-up and kept only in memory, so a restart revokes the old host link; a wrong
key is answered like a missing battle (404) and counted by the per-client guess limit.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING, TypedDict

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.persistence.records import BattleRecord

from .keeper_side import KeeperMove, KeeperSeat, explained, keeper_of
from .links import qr_svg
from .presenters import side_label

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages


class Moment(TypedDict):
    """Where a battle stands as its players see it (a face-down result not counted yet)."""

    turn: int
    position: int
    status: str


class HostRow(Moment):
    """One battle of the host table (``host.html``)."""

    rec: BattleRecord
    roles: tuple[str, ...]
    game: str
    keeper: KeeperSeat | None
    explained: KeeperMove | None
    sides: list[str]


def new_host_key() -> str:
    """A fresh host key (URL-safe, 192 bits), as the battle links are."""
    return secrets.token_urlsafe(24)


def is_host(keeper: Keeper, key: str | None) -> bool:
    """Whether ``key`` is this keeper's host key (in constant time, ASCII or not)."""
    if not key or len(key) > 200:
        return False
    return hmac.compare_digest(key.encode("utf-8"), keeper.host_key.encode("utf-8"))


def host_path(keeper: Keeper) -> str:
    return f"/host?key={keeper.host_key}"


def build_host(keeper: Keeper, pages: Pages) -> APIRouter:
    k, p = keeper, pages
    r = APIRouter(include_in_schema=False)

    def rows() -> list[HostRow]:
        """Every battle as the host table lists it: what tells four battles called "The ford" apart."""
        out: list[HostRow] = []
        for rec in k.store.list():
            # what the players see: a face-down result is not counted yet (its turn, its end of the battle)
            moment: Moment = {"turn": rec.turn, "position": rec.position, "status": rec.status}
            try:
                g = k.service.game(rec.id)
                roles = k.link_roles(rec.id)  # no link for the side the keeper plays
                seen = k.service.visible(rec.id)
                shown = p.presenters.of(g)
                keeper = keeper_of(k, rec, face_down=seen.pending is not None)
                why = explained(k, rec, g, seen.state, "host", shown.action_text)
                sides = shown.header(seen.state).sides
                title = str(getattr(g, "title", "") or rec.ruleset)
                if seen.pending is not None:
                    status = g.status(seen.state)
                    moment = {"turn": status.turn, "position": rec.position - 1, "status": status.label}
            except RulekeeperError:  # a battle of a game not installed here: listed all the same
                roles, sides, title, keeper, why = ("spectator",), {}, rec.ruleset, None, None
            out.append({"rec": rec, "roles": roles, "game": title, **moment, "keeper": keeper, "explained": why,
                        "sides": [side_label(r, sides) for r in roles if r != "spectator"]})
        return out

    @r.get("/host", response_class=HTMLResponse)
    def host(key: str | None = None) -> Response:
        if not is_host(k, key):
            return p.not_found()
        return p.html("host.html", title="Host — every battle", battles=rows(), key=key)

    @r.post("/host/links", response_class=HTMLResponse)
    async def new_links(request: Request) -> Response:
        from .page_forms import read_form

        try:
            form = await read_form(request)
        except RulekeeperError as exc:
            return p.refusal(exc)
        if not is_host(k, form.get("key")):
            return p.not_found()
        bid, one = form.get("battle", ""), form.get("role", "")
        base = k.base(request)

        def issue() -> Response:  # a write: off the event loop
            try:
                roles = k.link_roles(bid)  # never a link for the side the keeper plays
                if one:  # one role's link: the others keep working
                    if one not in roles:
                        return p.not_found()
                    tokens = {one: k.access.reissue(bid, one)}
                else:
                    tokens = k.access.issue(bid, roles)
                rec = k.store.get(bid)
            except RulekeeperError as exc:
                return p.refusal(exc)
            links = {role: f"{base}/b/{bid}?token={t}" for role, t in tokens.items()}
            return p.html("created.html", 201, title="New links", rec=rec, links=links, reissued=True,
                          verifiable=k.store.dice(bid) is not None, host=host_path(k),
                          qrs={role: qr_svg(url) for role, url in links.items()})

        return await run_in_threadpool(issue)

    return r
