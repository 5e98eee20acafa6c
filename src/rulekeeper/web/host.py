"""The host link: the one page that lists every battle, and issues new links for any of them.

Why: a battle's links are its only way in, shown once when it is created, and nobody may
probe which battles exist — so the home page lists none.  The person who starts the keeper
gets a **host link** (``rulekeeper serve`` prints it at every start): it lists every stored
battle and, for one of them, issues a new set of side and spectator links, which revokes the
old ones (a link sent to the wrong person, a lost phone).  The host key is 192 random bits
made at start-up and kept only in memory, so a restart revokes the old host link; a wrong
key is answered like a missing battle (404) and counted by the per-client guess limit.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from rulekeeper.core.errors import RulekeeperError

from .links import qr_svg

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages


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

    @r.get("/host", response_class=HTMLResponse)
    def host(key: str | None = None) -> Response:
        if not is_host(k, key):
            return p.not_found()
        return p.html("host.html", title="Host — every battle", battles=k.store.list(), key=key)

    @r.post("/host/links", response_class=HTMLResponse)
    async def new_links(request: Request) -> Response:
        from .pages import read_form

        try:
            form = await read_form(request)
        except RulekeeperError as exc:
            return p.refusal(exc)
        if not is_host(k, form.get("key")):
            return p.not_found()
        bid = form.get("battle", "")
        base = k.base(request)

        def issue() -> Response:  # a write: off the event loop
            try:
                roles = k.service.roles(bid)
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
