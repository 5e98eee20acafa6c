"""Phone-first pages, measured in Debian's chromium at 390×844 (a phone) and 1366×900 (a laptop).

One Starter battle (five columns) per width: every board column inside the viewport and no
horizontal overflow of the page, full morale names, tap targets of at least 44 px, Commit in
view after choosing an action (a move, then a shot with its long odds tables), every banner
(the undo's confirmation, the refusal of a late undo) inside the viewport and focused after the
action that caused it, the undo disabled and explained once its results were seen, and a
spectator on another context seeing the side's moves without reloading.  Element positions come
from ``getBoundingClientRect`` against the viewport.  Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

# the keeper and chromium of the whole-battle test (it skips, and so this module, without Debian's chromium)
from test_browser import server, shot  # noqa: E402,F401

WIDTHS = {"phone": ({"width": 390, "height": 844}, True), "laptop": ({"width": 1366, "height": 900}, False)}
MORALE_STATES = {"Overconfident", "Confident", "Neutral", "Shaky", "Broken", "Fleeing", "Disabled", "Furious"}
TIMEOUT_MS = 15_000

BOX = "(e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"
#: Every tap target of the battle page that is not a link inside a sentence, and its size.
TARGETS = """() => [...document.querySelectorAll('.top a, a.btn, button, summary, a.counter')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const b = e.getBoundingClientRect(); return [e.id || e.className || e.tagName, b.width, b.height]; })"""


def _api(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def in_view(page: Any, selector: str) -> list[float]:
    """The element's box, asserted wholly inside the viewport (as the player sees it now)."""
    loc = page.locator(selector).first
    loc.wait_for()
    left, top, right, bottom = loc.evaluate(BOX)
    vw, vh = page.evaluate("[window.innerWidth, window.innerHeight]")
    assert 0 <= left and right <= vw + 0.5 and 0 <= top and bottom <= vh + 0.5, (
        f"{selector} at {[round(x) for x in (left, top, right, bottom)]} is outside the {vw}×{vh} viewport")
    return [left, top, right, bottom]


def check_board(page: Any) -> None:
    """The whole board is in the viewport's width and the page itself never scrolls sideways."""
    vw = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= vw
    cols = page.locator(".board thead th[scope=col]")
    assert cols.count() == 5
    for box in page.locator(".board thead th[scope=col], .board td.zone").evaluate_all(
            "els => els.map(e => { const b = e.getBoundingClientRect(); return [b.left, b.right]; })"):
        assert box[0] >= 0 and box[1] <= vw + 0.5, f"a board column at {box} is cut off at {vw} px"
    states = page.locator(".counter .mstate").all_inner_texts()
    assert states and {s.replace("\u00ad", "").replace("\n", "") for s in states} <= MORALE_STATES, states
    small = [t for t in page.evaluate(TARGETS) if t[2] < 43.5]
    assert not small, f"tap targets under 44 px: {small}"
    assert page.locator("#legend summary").count() == 1


def play_until_shot(base: str, bid: str, tokens: dict[str, str]) -> None:
    """Both sides wait (through the API) until side A's turn offers a shot."""
    for _ in range(12):
        acts = _api(base, "GET", f"/api/battles/{bid}/actions?token={tokens['A']}")
        if acts["side"] == "A" and any(a["kind"] == "shoot" for a in acts["actions"]):
            return
        tok = tokens[acts["side"]]
        acts = _api(base, "GET", f"/api/battles/{bid}/actions?token={tok}")
        w = next(a for a in acts["actions"] if a["kind"] == "wait")
        _api(base, "POST", f"/api/battles/{bid}/actions?token={tok}",
             {"kind": "wait", "unit": w["unit"], "position": acts["position"]})
    raise AssertionError("no shot for side A in 12 turns")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_phone_first_pages(server: str, browser: Any, width: str) -> None:  # noqa: F811 (fixtures)
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    made = _api(server, "POST", "/api/battles", {"scenario": "exillis:starter", "seed": 7})
    bid, tokens = made["id"], made["tokens"]
    viewport, mobile = WIDTHS[width]
    ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    other = "laptop" if width == "phone" else "phone"
    ctx_s = browser.new_context(viewport=WIDTHS[other][0], is_mobile=WIDTHS[other][1])
    page, spectator = ctx.new_page(), ctx_s.new_page()
    errors: list[str] = []
    for p in (page, spectator):
        p.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + made["links"]["A"])
    spectator.goto(server + made["links"]["spectator"])
    expect(page.locator("a.btn.act").first).to_be_visible()
    check_board(page)
    check_board(spectator)
    shot(page, f"phone-first-board-{width}")

    # a move: Commit in view; then its undo, confirmed in view where the player is looking
    page.locator("a.btn.act[data-kind=move]").first.click()
    in_view(page, "#commit")
    page.locator("#commit").click()
    expect(spectator.locator("#live")).to_have_attribute("data-version", "1.0")  # live, no reload
    page.locator("#undo").click()
    expect(page.locator(".banner.ok")).to_contain_text("taken back")
    in_view(page, ".banner.ok")
    expect(page.locator(".banner.ok")).to_be_focused()
    expect(spectator.locator("#live")).to_have_attribute("data-version", "0.0")

    # a shot: the odds tables are long, Commit stays in view; its results are revealed, then undo is locked
    play_until_shot(server, bid, tokens)
    page.goto(server + made["links"]["A"])
    page.locator("a.btn.act[data-kind=shoot]").first.click()
    expect(page.locator("#preview")).to_contain_text("How the odds were made")
    in_view(page, "#commit")
    shot(page, f"phone-first-preview-{width}")
    page.locator("#commit").click()
    in_view(page, "#reveal")
    expect(spectator.locator(".wait")).to_contain_text("revealed")
    page.locator("#reveal").click()
    in_view(page, "#reveal-next, #continue")
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#undo-why")).to_contain_text("results were shown")
    # a page from before the lock (here: the button enabled again) is refused, and says so in view
    # enabled and clicked in one step: a live refresh in between would swap in a fresh, disabled button
    page.evaluate("(() => { const b = document.querySelector('#undo'); b.disabled = false; b.click(); })()")
    expect(page.locator(".banner.error")).to_contain_text("Cannot undo")
    in_view(page, ".banner.error")
    expect(page.locator(".banner.error")).to_be_focused()
    shot(page, f"phone-first-refused-{width}")
    check_board(page)
    assert spectator.locator(".fcard").count() == 0  # the spectator sees the board once revealed, never the cards
    assert not errors, errors
    ctx.close()
    ctx_s.close()


def test_the_pages_before_a_battle_never_scroll_sideways_on_a_phone(server: str, browser: Any) -> None:  # noqa: F811
    """Played as a user: the home page was 474 px wide on a 390 px phone. A fieldset is as wide as its widest
    content by default, and the opponent's drop-downs ("Simple: the game's own autoplay policy (instant)") made the
    new-battle form wider than the screen."""
    ctx = browser.new_context(viewport=WIDTHS["phone"][0], is_mobile=True, has_touch=True)
    page = ctx.new_page()
    for path in ("/", "/musters", "/host", "/verify"):
        page.goto(server + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        wide = page.evaluate("() => [...document.querySelectorAll('select, fieldset')]"
                             ".filter(e => e.getBoundingClientRect().right > 390.5).map(e => e.name || e.className)")
        assert wide == [], (path, wide)
    ctx.close()
