"""The games' web presenters, the Jinja2 environment they share, and a generic fallback.

Each installed game may ship a :class:`~rulekeeper.core.present.WebPresenter` with its own
templates; the environment mounts each game's template folder under the game's name
(``exillis/board.html``) beside the keeper's own templates (layout, panel, log, replay).
A game without a presenter is drawn by :class:`GenericPresenter` from its per-side view
and its report lines, so a new rule system plays in the web keeper from its first day.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Generic, Literal, TypedDict, TypeVar

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, StrictUndefined
from markupsafe import Markup

from rulekeeper.core.capabilities import campaign_of, web_presenter_of
from rulekeeper.core.game import SPECTATOR, Game, LegalAction, OddsPreview
from rulekeeper.core.present import FateScreen, Header, Links, WebPresenter
from rulekeeper.core.registered import as_game
from rulekeeper.core.ruleset import games
from rulekeeper.core.wording import counted, percent

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
log = logging.getLogger(__name__)


def slug(text: object) -> str:
    """A CSS class fragment: ``"Accurate hit"`` → ``"accurate-hit"``."""
    return "".join(ch if ch.isalnum() else "-" for ch in str(text).lower()).strip("-")


def short(key: str) -> str:
    """``"A:Hobelars #2"`` → ``"Hobelars #2"`` (a unit key without its side)."""
    return str(key).split(":", 1)[-1]


#: the one formatting of a chance (``core.wording.percent``)
pct = percent


def side_label(role: str, sides: Mapping[str, str] | None = None, named: bool = True) -> str:
    """How a page names side ``role``: "Side A — Riverguard" for a letter key, else the side's display name.

    Why: a game whose side keys are words (a campaign's ``oathsworn``) read "Side oathsworn — Oathsworn"
    in the keeper's header. A key of one or two characters is what the links and the rules call the side
    ("Side A"), so it stays, with the display name after it when ``named``; a word key gives way to its
    display name (or itself, capitalised, when the game gives none).
    """
    role = str(role)
    name = (sides or {}).get(role)
    if len(role) <= 2:
        return f"Side {role} — {name}" if named and name and name != role else f"Side {role}"
    return str(name) if name else role.replace("_", " ").replace("-", " ").capitalize()


def bdi(value: object) -> Markup:
    """A name isolated from the text around it (``<bdi>``), escaped.

    Why: a unit, army, player or battle name in a right-to-left script would otherwise reorder the
    words and numbers next to it ("Hebrew-name 3 soldiers" shown as "3 soldiers Hebrew-name").
    Names with direction controls are refused (``core/names.py``); letters of any script are not,
    so every name shown as page text goes through this (issue 23, fault 10).
    """
    return Markup("<bdi>%s</bdi>") % ("" if value is None else value)


def side_html(role: str, sides: Mapping[str, str] | None = None, named: bool = True) -> Markup:
    """:func:`side_label` as page text: the side's display name (any script) isolated in ``<bdi>``."""
    role = str(role)
    name = (sides or {}).get(role)
    if len(role) <= 2:
        if named and name and name != role:
            return Markup("Side %s — <bdi>%s</bdi>") % (role, name)
        return Markup("Side %s") % role
    return bdi(side_label(role, sides, named))


#: Set to 1 while editing templates: every render then checks the template files and reads a changed one again.
RELOAD_ENV = "RULEKEEPER_RELOAD_TEMPLATES"


def reloading_templates() -> bool:
    """Whether templates are read again when their file changes (a developer's switch, off by default)."""
    return os.environ.get(RELOAD_ENV, "") not in ("", "0")


def make_env(game_dirs: dict[str, Path] | None = None, auto_reload: bool | None = None) -> Environment:
    """The keeper's templates, plus each game's folder under its name; autoescaping everywhere.

    ``auto_reload`` (default: :func:`reloading_templates`): Jinja2's default checked every template file's
    modification time on every render of a running keeper (a ``stat`` per template and include); templates are
    compiled once now, and reloaded only in a development keeper (``RULEKEEPER_RELOAD_TEMPLATES=1``).
    """
    loaders: list[BaseLoader] = [FileSystemLoader(TEMPLATES)]
    if game_dirs:
        loaders.append(PrefixLoader({name: FileSystemLoader(d) for name, d in game_dirs.items()}))
    env = Environment(loader=ChoiceLoader(loaders), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True,
                      auto_reload=reloading_templates() if auto_reload is None else auto_reload)
    env.globals["short"] = short
    env.globals["pct"] = pct
    env.globals["counted"] = counted  # "1 action", "3 actions"
    env.globals["side_label"] = side_label  # plain text: attributes, <title>
    env.globals["side_html"] = side_html  # page text: the name in <bdi>
    env.globals["campaign_of"] = campaign_of  # an optional capability: None for a game without a campaign
    env.filters["slug"] = slug
    env.filters["bdi"] = bdi
    env.filters["side_name"] = lambda role, sides=None: side_label(role, sides, False)
    env.filters["side_name_html"] = lambda role, sides=None: side_html(role, sides, False)
    return env


def own_presenter(game: Game) -> tuple[WebPresenter, Path | None]:
    """The game's own presenter and its template folder, or the generic presenter if it cannot be built.

    Why the fallback: the keeper built every game's presenter at start-up with no isolation, so one
    game whose presenter module failed to import (a missing ``web/`` package, a syntax error) stopped
    the whole keeper starting. Now that game is drawn generically, and the log says why.
    """
    try:
        presenter = web_presenter_of(game)
        if presenter is None:
            return GenericPresenter[object](game), None
        where = presenter.template_dir()
        return presenter, None if where is None else Path(where)
    except Exception as exc:  # any failure of one game's own module: that game's fault only
        log.warning("the web presenter of %s cannot be built (%s: %s); its battles are drawn by the generic "
                    "presenter", game.name, type(exc).__name__, exc)
        return GenericPresenter[object](game), None


class Presenters:
    """One presenter per installed game, bound to one shared environment."""

    def __init__(self) -> None:
        self._by_game: dict[str, WebPresenter] = {}
        built: list[tuple[Game, WebPresenter]] = []
        dirs: dict[str, Path] = {}
        for g in games():
            presenter, where = own_presenter(g)
            built.append((g, presenter))
            if where is not None:
                dirs[g.name] = where
        self.env = make_env(dirs)
        for g, presenter in built:
            self._bound(g, presenter)

    def _bound(self, game: Game, presenter: WebPresenter) -> WebPresenter:
        """``presenter`` bound to the shared environment and kept; one that fails to bind falls back too."""
        try:
            presenter.bind(self.env)
        except Exception as exc:  # as in own_presenter: one game's fault only
            log.warning("the web presenter of %s cannot be bound (%s: %s); its battles are drawn by the generic "
                        "presenter", game.name, type(exc).__name__, exc)
            presenter = GenericPresenter[object](game)
            presenter.bind(self.env)
        self._by_game[game.name] = presenter
        return presenter

    def of(self, game: Game) -> WebPresenter:
        if game.name not in self._by_game:  # a game registered after start-up (tests)
            self._bound(game, own_presenter(game)[0])
        return self._by_game[game.name]


#: How much of a view the generic board draws (a view is the game's; it may be large).
MAX_DEPTH, MAX_ITEMS = 7, 60


class TreeNode(TypedDict, total=False):
    """One node of a view as the generic board draws it: a scalar's text, or an object's items."""

    kind: Literal["object", "scalar"]
    text: str
    items: list[tuple[str, TreeNode]]
    more: int


def _tree(value: object, depth: int = 0) -> TreeNode:
    """A view as nested nodes the generic board template draws (scalars, lists, objects)."""
    if isinstance(value, dict) and depth < MAX_DEPTH:
        items = [(str(k), _tree(v, depth + 1)) for k, v in list(value.items())[:MAX_ITEMS]]
        return {"kind": "object", "items": items, "more": max(0, len(value) - MAX_ITEMS)}
    if isinstance(value, (list, tuple)) and depth < MAX_DEPTH:
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return {"kind": "scalar", "text": ", ".join(_scalar(v) for v in value[:MAX_ITEMS]) or "—"}
        items = [(str(i + 1), _tree(v, depth + 1)) for i, v in enumerate(value[:MAX_ITEMS])]
        return {"kind": "object", "items": items, "more": max(0, len(value) - MAX_ITEMS)}
    if isinstance(value, (dict, list, tuple)):
        return {"kind": "scalar", "text": json.dumps(value, ensure_ascii=False)[:200]}
    return {"kind": "scalar", "text": _scalar(value)}


def _scalar(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)[:300]


def words_of(game: Game, action: Mapping[str, object]) -> str:
    """A logged action in the game's own words (``Game.action_text``: "Bank Archers shoots at Raider Horse").

    Why not the action's raw values: the Fate Screen, the log and "Last action" printed
    "shoot A Bank Archers Raider Horse" for every game drawn by a presenter that kept the generic
    wording. A game that has no words for an action (or cannot read it) still gets its values joined.
    """
    say = getattr(game, "action_text", None)
    if callable(say):
        try:
            text = say(action)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            text = None
        if isinstance(text, str) and text:
            return text
    return " ".join(str(v) for v in action.values() if v is not None)


#: The state a presenter draws: a game's own state class in its presenter (``GenericPresenter[MyState]``), an
#: opaque object in the keeper's fallback, which only hands it back to the game.
StateT = TypeVar("StateT")


class GenericPresenter(Generic[StateT]):
    """Draws any game from its per-side view and report lines (no game-specific template)."""

    def __init__(self, game: object) -> None:
        """``game`` is the game itself (a presenter a game builds with ``self``) or its registered wrapper: held
        as the neutral protocol (``core.registered.as_game``), so a typed game is asked with opaque states."""
        self.game: Game = as_game(game)
        self.env: Environment | None = None

    def template_dir(self) -> Path | None:
        return None

    def bind(self, env: Environment) -> None:
        self.env = env

    def _render(self, name: str, **ctx: object) -> Markup:
        assert self.env is not None, "bind() the presenter to an environment first"
        return Markup(self.env.get_template(name).render(**ctx))

    def board(self, state: StateT, links: Links, caption: str = "") -> Markup:
        view = self.game.view(state, SPECTATOR)
        return self._render("generic_board.html", tree=_tree(view), caption=caption)

    def header(self, state: StateT) -> Header:
        status = self.game.status(state)
        return Header({}, f"Turn {status.turn}", status.acting)

    def turn_bar(self, state: StateT) -> Markup:
        return Markup("")

    def actions(self, state: StateT, legal: list[LegalAction], previews: list[OddsPreview], links: Links) -> Markup:
        entries = [{"label": lg.label or lg.text, "href": links.pick(i), "note": lg.note,
                    "odds": p.line()}
                   for i, (lg, p) in enumerate(zip(legal, previews, strict=True))]
        return self._render("generic_actions.html", entries=entries)

    def preview(self, state: StateT, legal: LegalAction, odds: OddsPreview, links: Links) -> Markup:
        draws = [{"label": r.label, "odds": r.odds()} for r in odds.draws]
        return self._render("generic_preview.html", lg=legal, headline=odds.headline, draws=draws, links=links)

    def fate(self, report: Sequence[Mapping[str, object]], shown: int | None, links: Links, index: int) -> FateScreen:
        lines = self.log_lines(report)
        return FateScreen(self._render("generic_fate.html", lines=lines), 0, 0)

    def unit_panel(self, state: StateT, key: str, links: Links) -> Markup:
        return Markup("")

    def result(self, state: StateT) -> Markup:
        result = self.game.result(state)
        return self._render("generic_result.html", result=result)

    def action_text(self, action: Mapping[str, object]) -> str:
        return words_of(self.game, action)

    def log_lines(self, report: Sequence[Mapping[str, object]]) -> list[str]:
        return [str(r.get("text") or json.dumps(r, ensure_ascii=False, sort_keys=True)[:300]) for r in report]
