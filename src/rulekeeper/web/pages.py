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

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from fastapi.responses import HTMLResponse

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, JsonDict, Status, concealed_text, conceals, face_down
from rulekeeper.core.present import Links, WebPresenter
from rulekeeper.core.ruleset import games
from rulekeeper.persistence.store import BattleNotFoundError, BattleRecord, LogEntry
from rulekeeper.service.battles import is_pending
from rulekeeper.service.bot_seat import DEFAULT_STRENGTH, STRENGTH_WORDS
from rulekeeper.service.scenarios import shipped_scenarios

from .api import NOT_FOUND, STATUS, Keeper
from .history import results_of_last
from .isolation import BattleNames
from .keeper_side import explained, keeper_of
from .live_panels import ActPanel, FatePanel, LiveContext, Panel, ShownError
from .page_forms import MAX_FIELD, _opt_int, option_games
from .presenters import Presenters, side_label
from .public_errors import public_message
from .shown_odds import shown_odds
from .whole import whole_chart

STATIC = Path(__file__).resolve().parent / "static"
#: Notices a redirect may ask the page to show (never free text from the URL).
NOTICES = {"undone": "The last action was taken back.", "created": "Battle created."}


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
PAGE_STATUS = {**STATUS, **EXTRA_STATUS}
#: Banner headlines; the stable code is shown next to them.
ERROR_TITLES = {
    "not_found": "Not found", "unauthorized": "Not allowed", "not_your_turn": "Not your turn",
    "stale_state": "The battle moved on", "game_over": "The battle is over", "invalid_action": "Not a legal action",
    "unknown_name": "Unknown name", "bad_request": "Bad request", "results_pending": "Reveal the results first",
    "results_shown": "Cannot undo", "store": "Storage unavailable", **EXTRA_TITLES,
}



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
        return self.html("error.html", PAGE_STATUS.get(exc.code, 400), title="Error", error=_error_ctx(exc))

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
                     "side": v.last_side, "hidden": conceals(v.game, v.board_state, v.last.action, v.role)}
        elif fate_index is not None and v.position:
            panel, board_state, caption = self._fate_panel(v, q, fate_index)
        elif v.status.over:
            panel = {"mode": "over", "result": r.result(v.state)}
        elif (dice := self.k.dice.status(v.bid)).verifiable and not dice.ready:
            # nobody acts before the dice are sealed: say who is missing, never "Choose an action" with no buttons
            panel = {"mode": "dice", "waiting": list(dice.waiting), "roles": list(dice.roles),
                     "added": [role for role in dice.roles if role not in dice.waiting],
                     "unopened": list(dice.uncommitted),
                     "opened": [role for role in dice.waiting if role not in dice.uncommitted]}
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
        if _taken_back(q.get("since"), v.position):  # else the banner named the action before it as news
            moved = "The last action was taken back"
        return {
            "v": v, "panel": panel, "header": header,
            "board": r.board(board_state, replace(v.links, viewer=v.role), caption),  # the live board: its role's
            "turn_bar": r.turn_bar(board_state), "can_undo": can_undo,
            "undo_locked": bool(v.last is not None and v.last.shown and face_down(v.last.result)),
            "last_text": last_text, "moved": moved, "last_results": results_of_last(v),
            "unit_html": unit_html, "notice": notice, "error": _error_ctx(error),
            # the side the keeper plays, and its reasons on the spectator's page only (web/keeper_side.py)
            "keeper": keeper_of(self.k, v.rec, face_down=v.pending),
            "explained": explained(self.k, v.rec, v.game, v.board_state, v.role, r.action_text),
        }

    def battle_page(self, v: View, q: dict[str, str | None], error: RulekeeperError | None = None,
                    status: int = 200) -> HTMLResponse:
        return self.html("battle.html", status, title=f"{v.rec.title or v.rec.scenario}", **self.live(v, q, error))

    def home(self, status: int = 200, error: ShownError | None = None, seed: int | None = None,
             typed: Mapping[str, str] | None = None) -> HTMLResponse:
        """The home page and its new-battle forms; ``typed``: a refused form's fields, filled in again (the
        page then says its own address, ``/``, so a reload opens the forms rather than sending one again)."""
        army_games = [g for g in games() if getattr(g, "army_list_noun", None)]
        typed = dict(typed or {})
        shown_seed = typed.get("seed", "" if seed is None else str(seed))  # empty: verifiable dice (web/dice.py)
        return self.html("home.html", status, title="Rule keeper",
                         scenarios=shipped_scenarios(), army_games=army_games, option_games=option_games(),
                         strengths=STRENGTH_WORDS,
                         default_strength=DEFAULT_STRENGTH, seed=shown_seed, error=error, typed=typed,
                         address="/" if typed else None)


def _taken_back(since: str | None, position: int) -> bool:
    """Whether the page drawn at version ``since`` ("position.pending") saw more actions than there are now."""
    try:
        return since is not None and int(since.split(".")[0]) > position
    except ValueError:
        return False


def _error_ctx(exc: RulekeeperError | None) -> ShownError | None:
    if exc is None:
        return None
    code = exc.code
    return {"code": code, "title": ERROR_TITLES.get(code, "Refused"), "message": public_message(exc)}
