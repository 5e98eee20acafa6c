"""The pages of verifiable dice: the dice panel of the battle page, a side's contribution, the verify pages.

See :mod:`rulekeeper.service.dice` for the scheme.  Here:

* the battle page includes ``dice_panel.html``, drawn from :func:`panel` (a Jinja global this
  router installs): the commitment, every side's contribution, who is still to contribute,
  and — once the battle is over and its last results revealed — the secret and the seed;
* the panel's script (``static/dice.js``) makes this device's contribution with
  ``crypto.getRandomValues``, keeps it on the device and posts only its commitment to the JSON
  API on the first visit; once every side has committed it reveals the contribution, and
  reloads the page when the last side's arrives; without JavaScript the panel is a form whose
  field holds a random value made by the keeper, which the player may change, handed over in
  one step (``POST /b/{id}/dice``: the keeper records its commitment);
* ``GET /b/{id}/verify`` checks the stored battle as ``rulekeeper battle verify`` checks its
  export (any link, after the end), and ``GET``/``POST /verify`` check an export pasted or
  chosen as a file: a file is sent as it is (``Content-Type: application/json``, by ``static/keeper.js``),
  a paste as a form, each up to :data:`~.bodylimit.MAX_EXPORT_BODY`; the verdict is always a page.
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Literal, TypedDict

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.service.dice import BadExportError, DiceStatus, DiceStatusJson, Verification, VerificationJson

from .bodylimit import MAX_EXPORT_BODY
from .guards import UnauthorizedError
from .public_errors import public_message
from .verify_budget import verify_on_budget

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages, View

#: The largest export the verify page takes (the body limit of ``/verify``; a paste loses a little to its form).
MAX_EXPORT = MAX_EXPORT_BODY


class NoDicePanel(TypedDict):
    """A battle whose dice are not verifiable: no panel."""

    verifiable: Literal[False]


class DicePanel(DiceStatusJson):
    """The dice panel of a battle page (``dice_panel.html``): the dice, and this link's contribution form."""

    can_contribute: bool
    suggested: str
    api: str
    form: str
    token: str
    verify: str


class ShownRefusal(TypedDict):
    """A refusal as the verify page prints it (its code, and a message that never names the store's file)."""

    code: str
    message: str


class Verified(TypedDict):
    """What the verify page shows of a verification (``result``: ``Verification.to_dict``) or its refusal."""

    result: VerificationJson | None
    error: ShownRefusal | None


def panel(k: Keeper, v: View) -> NoDicePanel | DicePanel:
    """What the dice panel of ``v``'s battle page shows (``verifiable`` False: nothing)."""
    dice = k.dice.status(v.bid)
    if not dice.verifiable:
        return {"verifiable": False}
    mine = (v.role in dice.roles and dice.contributions is not None and dice.contributions.get(v.role) is None
            and v.role in dice.uncommitted)
    return {**dice.to_dict(), "can_contribute": mine, "suggested": secrets.token_hex(32) if mine else "",
            "api": f"/api/battles/{v.bid}/dice?token={v.links.token}", "form": f"/b/{v.bid}/dice",
            "token": v.links.token, "verify": v.links.sub("verify")}


def _verified_ctx(result: Verification | None, error: RulekeeperError | None) -> Verified:
    return {"result": None if result is None else result.to_dict(),
            "error": None if error is None else {"code": error.code, "message": public_message(error)}}


def build_dice(keeper: Keeper, pages: Pages) -> APIRouter:
    from .page_forms import read_form

    k, p = keeper, pages
    r = APIRouter(include_in_schema=False)
    p.env.globals["dice_of"] = lambda v: panel(k, v)

    @r.post("/b/{bid}/dice")
    async def contribute(bid: str, request: Request, token: str | None = None) -> Response:
        """A side's contribution from the panel's form (no JavaScript); answered by a redirect to the page."""
        try:
            form = await read_form(request)
        except RulekeeperError as exc:
            return p.refusal(exc)
        token = form.get("token", token)

        def change() -> Response:  # reads and a write: off the event loop
            try:
                v = p.view(bid, token)
                if not v.is_side:
                    raise UnauthorizedError("spectators do not contribute to the dice")
                k.dice.contribute(bid, v.role, form.get("contribution", ""))
                k.changed(bid)
            except RulekeeperError as exc:
                try:
                    view = p.view(bid, token)
                except RulekeeperError:
                    return p.refusal(exc)
                from .pages import PAGE_STATUS

                return p.battle_page(view, {}, exc, PAGE_STATUS.get(exc.code, 400))
            return RedirectResponse(v.links.page("dice"), status_code=303)

        return await run_in_threadpool(change)

    @r.get("/b/{bid}/verify", response_class=HTMLResponse)
    def verify_battle(bid: str, token: str | None = None) -> Response:
        """The stored battle verified from its revealed secret (any link; after the end)."""
        try:
            with k.snapshot():
                v = p.view(bid, token)
                dice: DiceStatus = k.dice.status(bid)
            result = k.dice.verify(bid) if v.status.over and not v.pending else None
        except RulekeeperError as exc:
            return p.refusal(exc)
        return p.html("verify.html", title=f"Verify — {v.rec.title or v.rec.scenario}", v=v, dice=dice.to_dict(),
                      over=v.status.over and not v.pending, max_kib=MAX_EXPORT // 1024,
                      **_verified_ctx(result, None))

    @r.get("/verify", response_class=HTMLResponse)
    def verify_form() -> Response:
        return p.html("verify.html", title="Verify a battle export", v=None, dice=None, over=False,
                      max_kib=MAX_EXPORT // 1024, **_verified_ctx(None, None))

    @r.post("/verify", response_class=HTMLResponse)
    async def verify_upload(request: Request) -> Response:
        """An export pasted into the form (or read from a file by the page's script), verified."""
        result, error = None, None
        try:
            if request.headers.get("content-type", "").startswith("application/json"):
                text: str | bytes = await request.body()  # a chosen file, as it is (static/keeper.js)
            else:
                text = (await read_form(request, max_form=MAX_EXPORT_BODY, max_field=MAX_EXPORT)).get("export", "")
            try:
                doc = json.loads(text)
            except (ValueError, RecursionError):
                raise BadExportError("the file is not JSON: give the file written by rulekeeper battle export "
                                     "(or the battle's export download)") from None
            result = await run_in_threadpool(verify_on_budget, doc)  # in a child process with limits
        except RulekeeperError as exc:
            error = exc
        status = 200 if error is None else {"too_large": 413, "busy": 503}.get(error.code, 422)
        return p.html("verify.html", status, title="Verify a battle export", v=None, dice=None, over=False,
                      max_kib=MAX_EXPORT // 1024, **_verified_ctx(result, error))

    return r
