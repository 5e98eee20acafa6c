"""The log and the replay viewer of a battle: what happened, step by step, as a link may see it.

Both hide what is still face down: the log gives the pending action's text without its
results (and no fingerprint, which would seal them), and the replay stops before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import conceals, face_down
from rulekeeper.persistence.chain import fingerprint

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages, View


def results_of_last(v: View) -> str | None:
    """The Fate Screen of the other side's last action, once its results are shown and its words are not hidden
    from this link: the side that waited saw only "Last action: …", with no way to the dice but the log."""
    last = v.last
    if last is None or v.pending or not last.shown or not face_down(last.result) or v.last_side == v.role:
        return None
    return None if conceals(v.game, v.board_state, last.action, v.role) else v.links.fate(v.position - 1, "all")


def build_history(keeper: Keeper, pages: Pages) -> APIRouter:
    from .page_forms import _opt_int
    from .pages import logged_text

    k, p = keeper, pages
    r = APIRouter(include_in_schema=False)

    @r.get("/b/{bid}/log", response_class=HTMLResponse)
    def log(bid: str, token: str | None = None) -> Response:
        with k.snapshot():  # the rows and what the view hides: one moment
            return log_page(bid, token)

    def log_page(bid: str, token: str | None) -> Response:
        try:
            v = p.view(bid, token)
        except RulekeeperError as exc:
            return p.refusal(exc)
        rows = []
        for e in k.store.entries(v.bid):
            hidden = v.pending and e.index == v.position - 1
            secret = conceals(v.game, v.board_state, e.action, v.role)  # another side's orders, not yet revealed
            hidden = hidden or secret
            rows.append({"index": e.index + 1, "text": logged_text(v, e.action), "acp": e.result.get("acp"),
                         "side": v.game.side_of(e.action), "shown": e.shown, "hidden": hidden,
                         "lines": [] if hidden else v.r.log_lines(e.result.get("report", [])),
                         "chance": bool(e.result.get("chance")),
                         "href": v.links.sub("replay", step=e.index + 1)})
        # while a result is face down the fingerprint would seal it: a client could hash each possible result
        sealed = None if v.pending or not v.rec.head else fingerprint(v.rec.head)
        return p.html("log.html", title=f"Log — {v.rec.title}", v=v, rows=rows, fingerprint=sealed)

    @r.get("/b/{bid}/replay", response_class=HTMLResponse)
    def replay(bid: str, token: str | None = None, step: str | None = None) -> Response:
        """Step through the log: the board after ``step`` actions, replayed from the initial state."""
        with k.snapshot():
            return replay_page(bid, token, step)

    def replay_page(bid: str, token: str | None, step: str | None) -> Response:
        try:
            v = p.view(bid, token)
        except RulekeeperError as exc:
            return p.refusal(exc)
        last = v.position - (1 if v.pending else 0)
        n = _opt_int(step, 0, last)
        n = last if n is None else n
        state = k.service.state_at(bid, n)
        fate = None
        text = "The battle as deployed"
        if n:
            entry = k.store.entry(bid, n - 1)
            fate = v.r.fate(entry.result.get("report", []), None, v.links, n - 1).html
            text = logged_text(v, entry.action)
        nav = {"first": v.links.sub("replay", step=0), "prev": v.links.sub("replay", step=max(0, n - 1)),
               "next": v.links.sub("replay", step=min(last, n + 1)), "last": v.links.sub("replay", step=last)}
        return p.html("replay.html", title=f"Replay — {v.rec.title}", v=v, n=n, last=last, nav=nav, text=text,
                      fate=fate, board=v.r.board(state, v.links), turn_bar=v.r.turn_bar(state),
                      header=v.r.header(state), result=v.r.result(state) if v.game.status(state).over else None)

    return r
