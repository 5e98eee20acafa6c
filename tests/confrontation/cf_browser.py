"""What the Confrontation browser tests share: two devices on one game, the table's fit on each, committing an
action, the page that offers one, and each round's Tactical roll."""

from __future__ import annotations

from typing import Any

from browser_kit import new_game_links, page_errors, sync_api

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
MIN_TEXT_PX = 11
BASE_TEXT = """() => [...document.querySelectorAll('svg.cftable a.base text')].map(t => ({
    text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a}))"""


def phone_and_laptop(browser: Any, server: str, scenario: str) -> tuple[Any, Any, list[str]]:
    """Side A on a 390×844 phone, side B on a 1366×900 laptop, each on its link of a new game of ``scenario``, and
    the JavaScript errors either page raises from now on."""
    ctx_a = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx_b = browser.new_context(viewport=LAPTOP)
    links = new_game_links(ctx_a, server, scenario)
    pa, pb = ctx_a.new_page(), ctx_b.new_page()
    errors = page_errors(pa, pb)
    pa.goto(links["A"])
    pb.goto(links["B"])
    return pa, pb, errors


def table_fits(page: Any, width: int, bases: int) -> float:
    """No sideways scroll at ``width``, and the marks on the table's ``bases`` bases readable: the smallest mark's
    size in CSS px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    sizes = page.evaluate(BASE_TEXT)
    assert len(sizes) == bases, sizes
    smallest = min(s["px"] for s in sizes)
    assert smallest >= MIN_TEXT_PX, sizes
    return float(smallest)

def commit(page: Any) -> None:
    sync_api.expect(page.locator("#commit")).to_be_visible()
    page.locator("#commit").click()
    sync_api.expect(page.locator("#commit")).to_have_count(0)
    # the next page first: a fight, or a charge on a frightening enemy (its COU tests), shows a Fate Screen
    page.locator("#reveal, #resolve-all, #continue, .wait, a.btn.act, #result").first.wait_for()
    for extra in ("#reveal", "#resolve-all", "#continue"):  # a roll draws chance: its results may be face down
        if page.locator(extra).count():
            try:  # the page follows the battle by itself: the screen may be gone before the tap lands
                page.locator(extra).click(timeout=3000)
            except sync_api.TimeoutError:
                continue
            page.wait_for_load_state()


def offering(kind: str | None, *pages: Any) -> Any:
    """The page that offers an action of ``kind`` (any action when None; the other follows the battle by itself)."""
    wanted = "a.btn.act" if kind is None else f"a.btn.act[data-kind={kind}]"
    for _ in range(TIMEOUT_MS // 100):
        for page in pages:
            if page.locator("#continue").count():  # the other side's roll: its Fate Screen
                try:
                    page.locator("#continue").click(timeout=1000)
                except sync_api.TimeoutError:
                    pass
            if page.locator(wanted).count():
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError(f"neither page offers {'an action' if kind is None else 'a ' + kind}")


def ready_up(*pages: Any) -> None:
    """Before the Tactical roll, each side asked to declare moves under cover (a marksman faces it) taps ready."""
    for _ in range(2):
        page = offering(None, *pages)
        if not page.locator("a.btn.act[data-kind=ready]").count():
            return
        page.locator("a.btn.act[data-kind=ready]").click()
        commit(page)


def lions_act_first(pa: Any, pb: Any) -> None:
    """The Tactical roll, tapped on A's page; its winner, on his own page, chooses that the Lions act first."""
    ready_up(pa, pb)
    roll = offering("tactical", pa, pb)
    roll.locator("a.btn.act[data-kind=tactical]").click()
    commit(roll)
    winner = offering("lead", pa, pb)
    # the winner's own side is offered first: the Lions' page takes the first choice, the Wolfen's the second
    winner.locator("a.btn.act[data-kind=lead]").nth(0 if winner is pa else 1).click()
    commit(winner)
    # the Lions' activation, on A's page: it may still show the roll's Fate Screen, kept there while the Wolfen chose
    # (a live update never wipes revealed results), so go on from it as a player would
    offering(None, pa)
