"""A battle's log (text or JSON) and its export, as downloads for the holder of one of its links.

Who may: any link of the battle — a side or the spectator — given as ``?token=`` or in the
``X-Rulekeeper-Token`` header, checked as every page checks it (``Pages.view``): an unknown battle
and a bad or missing link get the keeper's one 404 page, so a download cannot probe which battles
exist.

What is withheld, and why:

* **The log** is what the log page shows (action, side, report lines): while the last action's
  results are face down its entry carries no report, the file gives no fingerprint (it would seal
  the hidden result) and the status is the one before it (a last blow would tell the battle is
  over). Chance records are left out — the API's log leaves them out too.
* **The export** (``rulekeeper battle export``'s file, which ``battle import`` reads back) holds the
  battle's seed and every draw: from it anyone could foresee every roll still to come. So a link
  gets it only once the battle is over and its last results are revealed (409 ``export_not_ready``
  before); the host exports any battle at any time with ``rulekeeper battle export ID FILE``.

| Path | What |
|---|---|
| ``GET /b/{id}/download/log?token=[&format=txt\\|json]`` | ``text/plain`` or ``application/json``, ``rulekeeper-{id}-log.txt\\|json`` |
| ``GET /b/{id}/download/export?token=`` | ``application/json``, ``rulekeeper-{id}.json`` |
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Final, Literal, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import ConcealedAction, JsonDict, concealed_action, conceals
from rulekeeper.core.wording import counted
from rulekeeper.persistence.chain import fingerprint

from .refusals import ExportNotReadyError, refuse

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages, View

LOG_FORMAT: Final = "rulekeeper-log"
LOG_VERSION: Final = 1
MEDIA = {"txt": "text/plain; charset=utf-8", "json": "application/json"}


class LoggedBattle(TypedDict):
    """Which battle a log file is of."""

    id: str
    title: str
    ruleset: str
    scenario: str


class LoggedAction(TypedDict):
    """One action of the log file: numbered from 1, in the game's words and as logged (``acp`` as the game
    stored it in the result, if it did; ``report`` the game's own lines, empty while hidden from the link)."""

    index: int
    side: str
    action: JsonDict | ConcealedAction
    text: str
    acp: object
    shown: bool
    hidden: bool
    lines: list[str]
    report: list[JsonDict]


class LogDocument(TypedDict):
    """The log file (format ``rulekeeper-log`` version 1): the log page's content as JSON."""

    format: Literal["rulekeeper-log"]
    version: Literal[1]
    battle: LoggedBattle
    position: int
    over: bool
    winner: str | None
    reason: str
    fingerprint: str | None
    entries: list[LoggedAction]


def _token(request: Request) -> str | None:
    return request.headers.get("x-rulekeeper-token") or request.query_params.get("token")


def _attachment(body: str, media: str, name: str) -> Response:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:120]
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{safe}"',
                                                     "Cache-Control": "no-store"})


def log_document(k: Keeper, v: View) -> LogDocument:
    """The battle's log as this link may see it (the log page's content, as JSON)."""
    from .pages import logged_text

    visible_state = v.board_state  # before a face-down action: its results and any end it brought stay hidden
    status = v.game.status(visible_state)
    result = v.game.result(visible_state) if status.over else None
    entries: list[LoggedAction] = []
    for e in k.store.entries(v.bid):
        hidden = v.pending and e.index == v.position - 1
        secret = conceals(v.game, visible_state, e.action, v.role)  # another side's orders, not yet revealed
        hidden = hidden or secret
        report = [] if hidden else list(e.result.get("report", []))
        action = concealed_action(v.game, e.action) if secret else e.action
        entries.append({"index": e.index + 1, "side": v.game.side_of(e.action), "action": action,
                        "text": logged_text(v, e.action), "acp": e.result.get("acp"), "shown": e.shown,
                        "hidden": hidden, "lines": v.r.log_lines(report), "report": report})
    return {
        "format": LOG_FORMAT, "version": LOG_VERSION,
        "battle": {"id": v.bid, "title": v.rec.title, "ruleset": v.rec.ruleset, "scenario": v.rec.scenario},
        "position": v.position, "over": status.over,
        "winner": None if result is None else result.winner_name or result.winner,
        "reason": "" if result is None else result.reason,
        "fingerprint": None if v.pending or not v.rec.head else fingerprint(v.rec.head),
        "entries": entries,
    }


def log_text(doc: LogDocument, game_title: str) -> str:
    """The same log for people: one block per action, its report lines indented."""
    b = doc["battle"]
    out = [f"rulekeeper battle log: {b['title'] or b['scenario']}", f"Battle {b['id']} · {game_title} · scenario "
           f"{b['scenario']}", counted(doc["position"], "action") + (f" · over: {doc['winner'] or 'no winner'}"
                                                               f"{' — ' + doc['reason'] if doc['reason'] else ''}"
                                                               if doc["over"] else "")]
    if doc["fingerprint"]:
        out.append(f"Fingerprint {doc['fingerprint']}")
    for e in doc["entries"]:
        acp = f" · {round(e['acp'])} AcP" if isinstance(e["acp"], (int, float)) else ""
        out += ["", f"#{e['index']} [{e['side']}] {e['text']}{acp}"]
        out += ["    Results not revealed yet."] if e["hidden"] else [f"    {line}" for line in e["lines"]]
    return "\n".join(out) + "\n"


def build_downloads(keeper: Keeper, pages: Pages) -> APIRouter:
    k, p = keeper, pages
    r = APIRouter(include_in_schema=False)

    @r.get("/b/{bid}/download/log")
    def log(bid: str, request: Request, format: str = "txt") -> Response:  # noqa: A002 - the query's name
        try:
            with k.snapshot():  # the entries and what the view hides: one moment
                v = p.view(bid, _token(request))
                doc = log_document(k, v)
        except RulekeeperError as exc:
            return refuse(p, exc)
        if format == "json":
            return _attachment(json.dumps(doc, indent=1, ensure_ascii=False), MEDIA["json"],
                               f"rulekeeper-{bid}-log.json")
        return _attachment(log_text(doc, v.game.title), MEDIA["txt"], f"rulekeeper-{bid}-log.txt")

    @r.get("/b/{bid}/download/export")
    def export(bid: str, request: Request) -> Response:
        try:
            with k.snapshot():  # "over and revealed" and the export: one moment
                v = p.view(bid, _token(request))
                if v.pending or not v.status.over:
                    raise ExportNotReadyError(
                        "the export holds the battle's seed of fate, from which every roll still to come could be "
                        "foreseen: a link gets it once the battle is over and its last results are revealed (the "
                        f"host can export it now: rulekeeper battle export {bid} FILE)")
                doc = k.store.export(bid)
        except RulekeeperError as exc:
            return refuse(p, exc)
        return _attachment(json.dumps(doc, indent=1, sort_keys=True), MEDIA["json"], f"rulekeeper-{bid}.json")

    return r
