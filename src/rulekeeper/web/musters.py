"""The muster builder: pick units, levels and heroes, see the list priced and checked as you go.

Why here and not on the command line only: players build their army at the table, on a phone.
The page asks the game's :class:`~rulekeeper.core.armies.ArmyBuilder` (``Game.army_builder()``)
for the roster, the price — cost lines, the shape with its Shortage colours, the total, the points
it brings — and **every** problem, exactly as ``rulekeeper muster check`` reports them, and for the
muster's file text. It stores nothing, so it needs no link: the result is a file to download, or
text carried to the "battle from two musters" form on the same page.

Without JavaScript every button is a plain form post that draws the page again; with htmx a change
to any field re-prices the list in place (``POST /musters/report``, the report alone).

| Path | What |
|---|---|
| ``GET /musters[?game=]`` | the builder, empty |
| ``POST /musters`` | ``do=price`` (default), ``load`` (a pasted file), ``use_a``/``use_b`` (carry the muster to the battle form), ``yaml``/``toml`` (download the file) |
| ``POST /musters/report`` | the report fragment (htmx) |
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from rulekeeper.core.armies import ArmyBuilder, PricedArmy
from rulekeeper.core.capabilities import army_builder_of
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game
from rulekeeper.core.ruleset import games

from .muster_form import BLANK_ROWS, MAX_ROWS, BuilderForm, army_of, form_from_army, form_of, read_builder_form
from .page_forms import PageRequestError
from .refusals import error_ctx, refuse, status_of

if TYPE_CHECKING:
    from .api import Keeper
    from .pages import Pages

log = logging.getLogger(__name__)
MEDIA = {"yaml": "application/yaml; charset=utf-8", "toml": "application/toml; charset=utf-8"}


def builders() -> list[tuple[Game, ArmyBuilder]]:
    """Every installed game that builds army lists, with its builder (a game without one is left out)."""
    out = []
    for g in games():
        try:
            builder = army_builder_of(g)  # an optional capability: a game without it plays on
        except Exception as exc:  # one game's broken module: that game has no builder, the others keep theirs
            log.warning("the army builder of %s cannot be built (%s: %s)", g.name, type(exc).__name__, exc)
            builder = None
        if builder is not None:
            out.append((g, builder))
    return out


def pick(wanted: str | None) -> tuple[Game, ArmyBuilder] | None:
    """The game the page is for: the one asked for, else the first that builds lists (None: none does)."""
    found = builders()
    if wanted:
        for g, b in found:
            if g.name == wanted[:40]:
                return g, b
        raise PageRequestError(f"no installed game called {wanted[:40]!r} builds army lists")
    return found[0] if found else None


def filename(name: str, fmt: str) -> str:
    """A safe download name from the muster's name (``Brec'Helean`` → ``brec-helean.yaml``)."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "muster"
    return f"{stem}.{fmt}"


@dataclass
class Built:
    """One drawing of the builder: the form as typed, its price, and the texts carried along."""

    game: Game
    builder: ArmyBuilder
    form: BuilderForm
    sides: dict[str, str]
    priced: PricedArmy | None = None
    text: str = ""  # the muster file (YAML) of the priced list
    paste: str = ""
    error: RulekeeperError | None = None
    blank: int = 1
    download: str | None = None  # "yaml" or "toml": answer with the file instead of the page


def build(data: dict[str, str], game: Game, builder: ArmyBuilder) -> Built:
    """Do what the form asks (CPU work: run off the event loop). Typed errors come back in ``error``."""
    do = data.get("do", "price")
    sides = {"a": data.get("side_a", ""), "b": data.get("side_b", "")}
    out = Built(game, builder, form_of(data), sides, paste=data.get("paste", ""))
    try:
        if do == "load":  # priced as the file reads (as `muster check` does), even what the form cannot hold
            army = builder.read(out.paste, "the pasted muster")
            if len(army.units) > MAX_ROWS:
                raise PageRequestError(f"the muster has {len(army.units)} entries; the builder holds {MAX_ROWS}")
            out.form = form_from_army(army)
        else:
            army = army_of(out.form, game.name)
        out.priced = builder.price(army)
        out.text = builder.write(army, "yaml")
    except RulekeeperError as exc:
        out.error = exc
        return out
    if do in ("use_a", "use_b"):
        sides[do[-1]] = out.text
    elif do in builder.catalog().formats:
        out.download = do
        if do != "yaml":
            out.text = builder.write(army, do)
    return out


def build_musters(keeper: Keeper, pages: Pages) -> APIRouter:
    p = pages
    r = APIRouter(include_in_schema=False)

    def page(b: Built, status: int = 200) -> HTMLResponse:
        catalog = b.builder.catalog()
        return p.html("muster_builder.html", status, title=f"{catalog.noun.capitalize()} builder", b=b,
                      catalog=catalog, rows=b.form.with_blank_rows(b.blank), error=error_ctx(b.error),
                      others=[g for g, _ in builders() if g.name != b.game.name])

    def none_page() -> HTMLResponse:
        return p.html("muster_none.html", title="Army lists", names=[g.title for g in games()])

    @r.get("/musters", response_class=HTMLResponse)
    def builder_page(game: str | None = None) -> Response:
        try:
            found = pick(game)
        except RulekeeperError as exc:
            return refuse(p, exc)
        if found is None:
            return none_page()
        return page(Built(found[0], found[1], BuilderForm(), {"a": "", "b": ""}, blank=BLANK_ROWS))

    async def posted(request: Request) -> Built | Response:
        """The posted form, done (a refused or game-less post is its answer already)."""
        try:
            data = await read_builder_form(request)
            found = pick(data.get("game"))
        except RulekeeperError as exc:
            return refuse(p, exc)
        if found is None:
            return none_page()
        return await run_in_threadpool(build, data, found[0], found[1])

    @r.post("/musters", response_class=HTMLResponse)
    async def builder_post(request: Request) -> Response:
        built = await posted(request)
        if isinstance(built, Response):
            return built
        fmt = built.download
        if fmt is not None and built.error is None:
            name = filename(built.form.head.get("name", ""), fmt)
            return Response(built.text, media_type=MEDIA.get(fmt, "text/plain; charset=utf-8"), headers={
                "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})
        return page(built, status_of(built.error) if built.error is not None else 200)

    @r.post("/musters/report", response_class=HTMLResponse)
    async def report(request: Request) -> Response:
        """The report alone, for htmx's live update of the page."""
        built = await posted(request)
        if isinstance(built, Response):
            return built
        status = status_of(built.error) if built.error is not None else 200
        return p.html("muster_report.html", status, b=built, catalog=built.builder.catalog(),
                      error=error_ctx(built.error))

    return r
