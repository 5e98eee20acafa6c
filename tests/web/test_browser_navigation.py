"""A live update never lands on top of the page the player asked for.

Side A clicks "Reveal the first result"; the keeper reveals and tells every open page the battle changed, so
A's own page fetches a live fragment (the board) while the Fate Screen A asked for is still on its way. In the
CI run of 2026-12-01 that fragment was swapped in first: for a moment A's page showed the board, the test's
checks ran on it, and the Fate Screen arrived behind them. Here the answer to the click is held back for
2.5 s (Playwright's route) so the live fragment surely arrives first: the page must keep what it showed
until the Fate Screen comes, never the board in between.
"""

from __future__ import annotations

from typing import Any

from browser_kit import keeper_fixture, new_game_links, sync_api

server = keeper_fixture("browser-navigation")


WATCH = """() => {
  window.seenStates = [];
  const state = () => document.querySelector("#fate[data-hold]") ? "fate"
    : document.querySelector("#reveal") ? "pending" : document.querySelector("#live") ? "board" : "";
  new MutationObserver(() => {
    const now = state();
    if (now && window.seenStates[window.seenStates.length - 1] !== now) { window.seenStates.push(now); }
  }).observe(document, {subtree: true, childList: true});
}"""


def test_a_live_update_does_not_flash_over_the_reveal_the_player_asked_for(server: str, browser: Any) -> None:
    expect = sync_api.expect
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    links = new_game_links(ctx, server, "exillis:duel", seed="3")
    page = ctx.new_page()
    page.goto(links["A"])
    page.locator("a.btn.act[data-kind=charge]").first.click()
    page.locator("#commit").click()
    expect(page.locator("#reveal")).to_be_visible()

    held: list[tuple[Any, Any]] = []
    page.route("**/reveal*", lambda route: held.append((route, route.fetch())))  # the keeper reveals now...
    page.evaluate(WATCH)
    live_asked: list[str] = []
    page.on("request", lambda r: live_asked.append(r.url) if "/live" in r.url else None)
    page.locator("#reveal").click()
    page.wait_for_timeout(2500)  # ...and the page hears of it (SSE "changed", or the 2 s poll) before the answer
    assert len(held) == 1 and live_asked, (held, live_asked)
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(page.locator("#fate[data-hold]")).to_be_visible()
    expect(page.locator("#reveal-next, #continue").first).to_be_visible()
    seen = page.evaluate("window.seenStates")
    assert seen == ["fate"], f"the page showed {seen} on its way from the closed Fate Screen to the open one"
    ctx.close()


def test_a_phone_home_page_folds_its_long_list_of_battles(server: str, browser: Any) -> None:
    """hweb: "Your battles" listed all 50 battles a browser remembers above the new-battle form (5,000 px on a
    phone); the first five are listed, the rest folded under "N more"."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.add_init_script("""localStorage.setItem("rulekeeper-battles", JSON.stringify(Array.from({length: 8},
      (_, i) => ({url: "/b/b-x" + i + "?token=t", title: "Battle " + i, role: "Side A", seen: "2026-12-02T15:00"}))));""")
    page.goto(server + "/")
    sync_api.expect(page.locator("#more-battles summary")).to_have_text("3 more")
    assert page.locator("#your-battles > ul > li").count() == 5 and page.locator("#more-battles li").count() == 3
    ctx.close()
