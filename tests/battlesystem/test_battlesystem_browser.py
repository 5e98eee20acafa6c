"""A short hex battle played through the pages in a real browser: Playwright driving Debian's chromium.

The Battle System draws its board as an inline SVG; this checks what text-only page tests cannot:
that the 48-hex map fits a 390 px phone without sideways scrolling, that a move picked from the
grouped action list ("Ford Pikes: move" → "→ A1") commits, that side A can end its turn, and that
side B's laptop page shows A's move by itself (live update, no reload) before B moves too.
Screenshots land in ``test-artifacts/`` at the repository root, like ``tests/web/test_browser.py``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest

from browser_kit import shot, sync_api
from live_keeper import running_keeper

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_keeper(tmp_path_factory.mktemp("bs-browser") / "web.db") as url:
        yield url


def new_battle(ctx: object, server: str) -> dict[str, str]:
    """The three links of a fresh seeded river crossing, made the way a script would: POST /new."""
    r = ctx.request.post(server + "/new", form={"scenario": "battlesystem:river_crossing", "seed": "7"})  # type: ignore[attr-defined]
    assert r.status == 201, r.text()
    found = dict(re.findall(r'id="link-(\w+)"[^>]*value="([^"]+)"', r.text()))
    return {role: html.unescape(url) for role, url in found.items()}


def move_once(page: object) -> tuple[str, str]:
    """Pick the first move in the action list and commit it: (unit, hex), read from its group heading."""
    expect = sync_api.expect
    link = page.locator("a.btn.act[data-kind=move]").first  # type: ignore[attr-defined]
    heading = link.locator("xpath=ancestor::div[contains(@class,'act-group')]/h3").text_content()
    label = link.inner_text().splitlines()[0]
    unit, kind = (heading or "").strip().split(": ")  # the DOM text: the CSS shows headings in capitals
    assert kind == "move" and label.startswith("→ ")
    link.click()
    expect(page.locator("#commit")).to_be_visible()  # type: ignore[attr-defined]
    page.locator("#commit").click()  # type: ignore[attr-defined]
    expect(page.locator("#commit")).to_have_count(0)  # type: ignore[attr-defined]
    return unit, label.removeprefix("→ ").strip()


def on_board(page: object, unit: str, hex_label: str) -> object:
    """The counter of ``unit`` standing on ``hex_label`` (its SVG title says so)."""
    return page.locator("svg.hexmap a.counter title", has_text=f"{unit} (").filter(  # type: ignore[attr-defined]
        has_text=f" on {hex_label}:")


def test_a_short_hex_battle_on_a_phone_and_a_laptop(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    ctx_a = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    ctx_b = browser.new_context(viewport=LAPTOP)  # type: ignore[attr-defined]
    links = new_battle(ctx_a, server)
    pa, pb = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for p in (pa, pb):
        p.on("pageerror", lambda e: errors.append(str(e)))
    pa.goto(links["A"])
    pb.goto(links["B"])

    # the phone: the whole map, inside the screen, and nothing scrolls sideways
    svg = pa.locator("svg.hexmap")
    expect(svg).to_be_visible()
    expect(pa.locator("svg.hexmap polygon")).to_have_count(48)
    box = svg.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    assert pa.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(pb.locator(".wait")).to_be_visible()
    shot(pa, "bs-board-phone")
    shot(pb, "bs-board-laptop")

    # A moves one unit, then ends its turn
    unit, to = move_once(pa)
    expect(on_board(pa, unit, to)).to_have_count(1)
    expect(on_board(pb, unit, to)).to_have_count(1)  # B's page, live, no reload
    pa.locator("a.btn.act[data-kind=end_turn]").first.click()
    pa.locator("#commit").click()
    expect(pa.locator("#commit")).to_have_count(0)
    for extra in ("#reveal", "#resolve-all", "#continue"):  # an end turn may fire barrages (none here)
        if pa.locator(extra).count():
            pa.locator(extra).click()
    expect(pa.locator(".wait")).to_be_visible()
    shot(pa, "bs-after-a-phone")

    # B's laptop page turns to B's actions by itself, and B moves
    expect(pb.locator("a.btn.act[data-kind=move]").first).to_be_visible()
    expect(on_board(pb, unit, to)).to_have_count(1)
    b_unit, b_to = move_once(pb)
    expect(on_board(pb, b_unit, b_to)).to_have_count(1)
    expect(on_board(pa, b_unit, b_to)).to_have_count(1)
    shot(pb, "bs-after-b-laptop")
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()
