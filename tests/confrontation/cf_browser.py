"""Browser steps the Confrontation browser tests share: committing an action, and each round's Tactical roll."""

from __future__ import annotations

from typing import Any

from browser_kit import sync_api

TIMEOUT_MS = 10_000


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


def offering(kind: str, *pages: Any) -> Any:
    """The page that offers an action of ``kind`` (the other follows the battle by itself)."""
    for _ in range(TIMEOUT_MS // 100):
        for page in pages:
            if page.locator("#continue").count():  # the other side's roll: its Fate Screen
                try:
                    page.locator("#continue").click(timeout=1000)
                except sync_api.TimeoutError:
                    pass
            if page.locator(f"a.btn.act[data-kind={kind}]").count():
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError(f"neither page offers a {kind}")


def lions_act_first(pa: Any, pb: Any) -> None:
    """The Tactical roll, tapped on A's page; its winner, on his own page, chooses that the Lions act first."""
    roll = offering("tactical", pa, pb)
    roll.locator("a.btn.act[data-kind=tactical]").click()
    commit(roll)
    winner = offering("lead", pa, pb)
    # the winner's own side is offered first: the Lions' page takes the first choice, the Wolfen's the second
    winner.locator("a.btn.act[data-kind=lead]").nth(0 if winner is pa else 1).click()
    commit(winner)
    sync_api.expect(pa.locator("a.btn.act").first).to_be_visible(timeout=TIMEOUT_MS)  # the Lions' activation
