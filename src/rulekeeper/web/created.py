"""The creator's "Battle created" page, reopenable from the device that created the battle.

Why (issue 26): the links were shown once, on the answer to the new-battle form; tapping **Open side A**
and then Back brought the empty home form, and the links were gone.  Now the creating browser keeps a
*creator key*: an HttpOnly cookie, scoped to ``/created/{id}``, holding the links it was shown.  Its
page ``/created/{id}`` checks every link in it against the access store (a link the host has since
replaced is shown as replaced) and shows them again; the new-battle answer names that address, so Back
returns to it.  The cookie holds only what its browser was already shown, is never sent to any other
path, and another device (no cookie, or a wrong one) gets the common "not found" page.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from rulekeeper.core.errors import RulekeeperError

from .keeper_side import keeper_of
from .links import qr_svg

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages

#: How long the creating browser keeps its links (seconds): a campaign of evenings.
KEEP_FOR = 180 * 24 * 3600
MAX_COOKIE = 1500


def cookie_name(bid: str) -> str:
    return "rk_created_" + "".join(ch for ch in bid if ch.isalnum() or ch in "-_")[:64]


def created_path(bid: str) -> str:
    return f"/created/{bid}"


def keep_links(response: Response, bid: str, tokens: dict[str, str]) -> None:
    """Give the creating browser its creator key: the links it is shown, for ``/created/{id}`` only."""
    value = base64.urlsafe_b64encode(json.dumps(tokens, separators=(",", ":")).encode()).decode()
    response.set_cookie(cookie_name(bid), value, max_age=KEEP_FOR, path=created_path(bid), httponly=True,
                        samesite="strict")


def kept_tokens(request: Request, bid: str) -> dict[str, str]:
    """The tokens the creator key of ``bid`` holds in this request (empty when none or unreadable)."""
    raw = request.cookies.get(cookie_name(bid), "")
    if not raw or len(raw) > MAX_COOKIE:
        return {}
    try:
        found = json.loads(base64.urlsafe_b64decode(raw.encode()))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(r)[:40]: str(t)[:200] for r, t in list(found.items())[:8] if isinstance(t, str)}


def build_created(keeper: Keeper, pages: Pages) -> APIRouter:
    k, p = keeper, pages
    r = APIRouter(include_in_schema=False)

    @r.get("/created/{bid}", response_class=HTMLResponse)
    def created(bid: str, request: Request) -> Response:
        """The links this browser was given when it created ``bid``; every one checked again now."""
        tokens = kept_tokens(request, bid)
        try:
            valid = {role: tok for role, tok in tokens.items() if k.access.role(bid, tok) == role}
            if not valid:
                return p.not_found()
            rec = k.store.get(bid)
            roles = k.link_roles(bid)  # the keeper's own side has no link to list
        except RulekeeperError as exc:
            return p.refusal(exc)
        links = {role: f"{k.base(request)}/b/{bid}?token={valid[role]}" for role in roles if role in valid}
        replaced = [role for role in roles if role not in valid]
        return p.html("created.html", title="Battle created", rec=rec, links=links, replaced=replaced,
                      created_url=created_path(bid), verifiable=k.store.dice(bid) is not None,
                      keeper=keeper_of(k, rec), qrs={role: qr_svg(url) for role, url in links.items()})

    return r
