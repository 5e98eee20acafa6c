"""What the pages read from a browser: bounded urlencoded forms, whole numbers, and the new-battle form.

Why a module of its own: every page that takes a form (the battle page's writes, the dice, the host page, the
muster builder) reads it through these bounds, and ``pages.py`` had grown past 560 lines with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from fastapi import Request

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import ArmySource, Game, SetupRequest
from rulekeeper.core.ruleset import games
from rulekeeper.service.scenarios import find_scenario

if TYPE_CHECKING:
    from .api import Keeper

MAX_FORM = 16_000
MAX_FIELD = 200
#: Fields a form may send: the new-battle form sends every game's rules options when JavaScript is off (~45).
MAX_FIELDS = 120
MAX_MUSTER = 20_000


class PageRequestError(RulekeeperError):
    code = "bad_request"



def _int(value: str | None, name: str, default: int | None = None, lo: int = 0, hi: int = 10**9) -> int:
    if value is None or value == "":
        if default is None:
            raise PageRequestError(f"{name} is missing")
        return default
    try:
        n = int(value)
    except ValueError:
        raise PageRequestError(f"{name} must be a whole number, not {value[:40]!r}") from None
    if not lo <= n <= hi:
        raise PageRequestError(f"{name} must be between {lo} and {hi}")
    return n


def _opt_int(value: str | None, lo: int = 0, hi: int = 10**9) -> int | None:
    """A lenient query number: anything malformed is simply ignored."""
    try:
        n = int(value) if value is not None else None
    except ValueError:
        return None
    return n if n is not None and lo <= n <= hi else None


async def read_form(request: Request, max_form: int = MAX_FORM, max_field: int = MAX_FIELD) -> dict[str, str]:
    """An urlencoded form (what browsers and HTMX send), first value per field, bounded."""
    ctype = request.headers.get("content-type", "")
    body = await request.body()
    if len(body) > max_form:
        raise PageRequestError("the form is too large")
    if body and not ctype.startswith("application/x-www-form-urlencoded"):
        raise PageRequestError("expected a form (application/x-www-form-urlencoded)")
    try:
        raw = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise PageRequestError("the form could not be read") from None
    out = {k: v[0] for k, v in raw.items() if v}
    for k, v in out.items():
        if len(v) > max_field:
            raise PageRequestError(f"field {k[:40]!r} is too long")
    return out


#: A new-battle form's field for one game's option: ``option.GAME.NAME`` (rule_options.html).
OPTION_FIELD = "option."


def option_games() -> list[dict[str, object]]:
    """The games whose rules have options, each with them, for the new-battle forms (rule_options.html)."""
    return [{"name": g.name, "title": g.title, "options": g.options()} for g in games() if g.options()]


def chosen_options(form: dict[str, str], game_name: str) -> tuple[str, ...]:
    """The form's options of ``game_name`` other than their defaults, as ``NAME=VALUE`` (the game's set-up checks
    each: an unknown name or value is refused, naming it); other games' fields (sent by a browser without
    JavaScript, which shows them all) are left out."""
    prefix = f"{OPTION_FIELD}{game_name}."
    defaults = {o.name: o.default for g in games() if g.name == game_name for o in g.options()}
    return tuple(f"{key[len(prefix):]}={value}" for key, value in form.items()
                 if key.startswith(prefix) and value and defaults.get(key[len(prefix):]) != value)


def create_from_form(k: Keeper, form: dict[str, str], seed: int, practice: bool) -> tuple[str, dict[str, str]]:
    """A battle from the new-battle form: a shipped scenario, or two pasted army lists."""
    if form.get("from") == "musters":
        g = army_game(form)
        armies = (ArmySource("muster A", form.get("muster_a", "")), ArmySource("muster B", form.get("muster_b", "")))
        request = SetupRequest(armies=armies, board=form.get("board", "")[:20] or None, seed=seed,
                               options=chosen_options(form, g.name), practice=practice, db=k.store.url)
        return k.create(request, ruleset=g.name, verifiable=not form.get("seed"),  # no seed chosen: verifiable dice
                        bot=form.get("bot", "")[:40], strength=form.get("strength") or None)
    found = find_scenario(form.get("scenario", "")[:100])
    return k.create(SetupRequest(scenario=found.info.path, seed=seed, options=chosen_options(form, found.game),
                                 practice=practice, db=k.store.url),
                    ruleset=found.game, verifiable=not form.get("seed"), bot=form.get("bot", "")[:40],
                    strength=form.get("strength") or None)


def army_game(form: dict[str, str]) -> Game:
    """The game a "battle from army lists" form is for (the first game that takes army lists)."""
    wanted = form.get("game", "")[:40]
    for g in games():
        if getattr(g, "army_list_noun", None) and (not wanted or g.name == wanted):
            return g
    raise PageRequestError("no installed game starts battles from army lists")
