"""A whole battle played through the pages in a real browser: Playwright driving Debian's chromium.

Two browser contexts, one per side (side A on a 1280 px desktop, side B on a 390 px phone),
play the Duel scenario to its end screen: a charge, an undo before the results are seen
(allowed), the Fate Screen revealed one by one, an undo after (disabled, and refused), a shot, side B
acting with the keyboard only, and every update reaching the other device without a reload.
Screenshots of the board, the odds preview, the Fate Screen and the end screen at both widths
land in ``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from browser_kit import shot, sync_api
from live_keeper import running_keeper

PRIORITY = ["charge", "shoot", "fight", "flee", "move", "wait"]
TIMEOUT_MS = 15_000

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_keeper(tmp_path_factory.mktemp("browser") / "web.db") as url:
        yield url


def wait_for_any(pages: dict[str, object], selectors: list[str], timeout: float = 20.0) -> tuple[str, str]:
    """The first (side, selector) that shows up, polling both devices (they update by themselves)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for side, page in pages.items():
            for sel in selectors:
                if page.locator(sel).count():  # type: ignore[attr-defined]
                    return side, sel
        time.sleep(0.2)
    raise AssertionError(f"none of {selectors} appeared on any device in {timeout} s")


def choose(page: object) -> str:
    """The action this test plays: the first kind present in PRIORITY order."""
    for kind in PRIORITY:
        loc = page.locator(f"a.btn.act[data-kind={kind}]")  # type: ignore[attr-defined]
        if loc.count():
            return kind
    raise AssertionError("no playable action on the page")


def test_a_whole_battle_through_the_pages(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    home = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    hp = home.new_page()
    hp.goto(server + "/")
    shot(hp, "home-desktop")
    form = hp.locator("form.new-battle").first
    form.locator('input[name=scenario][value="exillis:duel"]').check()  # by key: 'Duel' is in two names
    form.locator("input[name=seed]").fill("3")
    form.get_by_role("button", name="Create the battle").click()
    expect(hp.locator("#link-A")).to_be_visible()
    links = {role: hp.locator(f"#link-{role}").input_value() for role in ("A", "B", "spectator")}
    assert len(set(links.values())) == 3

    ctx_a = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    ctx_b = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    ctx_s = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    pa, pb, ps = ctx_a.new_page(), ctx_b.new_page(), ctx_s.new_page()
    errors: list[str] = []
    for p in (pa, pb, ps):
        p.on("pageerror", lambda e: errors.append(str(e)))
    pa.goto(links["A"])
    pb.goto(links["B"])
    ps.goto(links["spectator"])
    expect(pa.locator("a.btn.act").first).to_be_visible()
    expect(pb.locator(".wait")).to_be_visible()
    shot(pa, "board-desktop")
    shot(pb, "board-phone")
    # the page fits a phone: nothing but the board scrolls sideways
    assert pb.evaluate("document.documentElement.scrollWidth") <= 392
    # the spectator watches: no action, no undo
    assert ps.locator("a.btn.act").count() == 0 and ps.locator("#undo").count() == 0

    pages = {"A": pa, "B": pb}
    seen: set[str] = set()
    undone_before_reveal = refused_after_reveal = keyboard_turn = False
    for _turn in range(30):
        side, sel = wait_for_any(pages, ["a.btn.act", "#result"])
        if sel == "#result":
            break
        page = pages[side]
        kind = choose(page)
        seen.add(kind)
        if side == "B" and not keyboard_turn:
            # side B plays this turn with the keyboard only: focus an action, Enter, Enter on Commit
            page.locator(f"a.btn.act[data-kind={kind}]").first.focus()
            page.keyboard.press("Enter")
            expect(page.locator("#commit")).to_be_focused()
            shot(page, "preview-phone")
            page.keyboard.press("Enter")
            keyboard_turn = True
        else:
            page.locator(f"a.btn.act[data-kind={kind}]").first.click()
            expect(page.locator("#commit")).to_be_visible()
            if kind == "charge" and not undone_before_reveal:
                expect(page.locator("#preview")).to_contain_text("How the odds were made")
                shot(page, "preview-desktop")
            page.locator("#commit").click()
        expect(page.locator("#commit")).to_have_count(0)  # the page has moved on
        # and the next page is there (its panel), before anything is counted on it
        page.locator("#reveal, #reveal-next, #continue, .wait, a.btn.act, #result").first.wait_for()
        # results stay face down until revealed; before that the action may be taken back
        if page.locator("#reveal").count() and kind == "charge" and not undone_before_reveal:
            page.locator("#undo").click()
            expect(page.locator(".banner.ok")).to_contain_text("taken back")
            undone_before_reveal = True
            page.locator(f"a.btn.act[data-kind={kind}]").first.click()
            page.locator("#commit").click()
            expect(page.locator("#reveal")).to_be_visible()
        revealed_now = False
        if page.locator("#reveal").count():
            other = pages["B" if side == "A" else "A"]
            expect(other.locator(".wait")).to_contain_text("revealed")  # the other device waits, live
            shot(page, f"fate-hidden-{'desktop' if side == 'A' else 'phone'}")
            page.locator("#reveal").click()
            # the Fate Screen the click asked for (not merely "#reveal gone": a live update could swap the
            # board in first — keeper.js now drops those while a page is on its way — and the checks below
            # would then run on the board while the Fate Screen arrives behind them)
            expect(page.locator("#fate[data-hold]")).to_be_visible()
            revealed_now = True
        if page.locator("#reveal-next").count():
            if not page.locator("#card-1").count():  # the last blow: nothing revealed yet
                page.locator("#reveal-next").click()
                expect(page.locator("#card-1")).to_be_visible()
            if page.locator("#reveal-next").count():
                page.locator("#reveal-next").click()
                expect(page.locator("#card-2")).to_be_visible()
            shot(page, f"fate-{'desktop' if side == 'A' else 'phone'}-{kind}")
            if page.locator("#resolve-all").count():
                page.locator("#resolve-all").click()
                expect(page.locator(".f-hidden")).to_have_count(0)
        if revealed_now and kind == "charge" and not refused_after_reveal and page.locator("#undo").count():
            # however many cards the charge drew, once one is seen the charge cannot be taken back: the undo
            # is disabled and says why; a page from before the lock (the button enabled again) is refused
            undo = page.locator("#undo")
            expect(undo).to_be_disabled()
            expect(page.locator("#undo-why")).to_contain_text("results were shown")
            # enabled and clicked in one step: a live refresh between two steps would swap in a fresh,
            # disabled button (this raced under load)
            undo.evaluate("b => { b.disabled = false; b.click(); }")
            expect(page.locator(".banner.error")).to_contain_text("cannot undo")
            expect(page.locator(".banner.error")).to_be_focused()
            refused_after_reveal = True
            shot(page, "undo-refused-desktop")
        if page.locator("#continue").count():
            page.locator("#continue").click()
            expect(page.locator("#continue")).to_have_count(0)
    else:
        raise AssertionError("the battle did not end in 30 turns")

    # the end screen reaches both devices and the spectator, without reloading
    for p in (pa, pb, ps):
        expect(p.locator("#result")).to_be_visible()
    shot(pa, "result-desktop")
    shot(pb, "result-phone")
    assert {"charge", "shoot"} <= seen, seen
    assert undone_before_reveal and refused_after_reveal and keyboard_turn

    # a unit panel with every stat, fetched into the page by HTMX (no navigation)
    url = pb.url
    pb.locator("a.counter").first.click()
    expect(pb.locator("#unit-panel")).to_contain_text("Statistics")
    assert pb.url == url
    shot(pb, "unit-phone")

    # the replay viewer steps back and forth through the log
    pa.get_by_role("link", name="Replay").first.click()
    step = pa.locator(".step")
    expect(step).to_contain_text("Step")
    last = step.inner_text()
    pa.locator("#prev").click()
    expect(step).not_to_have_text(last)
    pa.locator("#first").click()
    expect(step).to_contain_text("Step 0 of")
    pa.locator("#next").click()
    expect(step).to_contain_text("Step 1 of")
    expect(pa.locator(".fcard").first).to_be_visible()
    shot(pa, "replay-desktop")
    pb.goto(links["B"].replace("?", "/replay?") + "&step=1")
    shot(pb, "replay-phone")
    pa.get_by_role("link", name="Log").first.click()
    expect(pa.locator("ol.log > li").first).to_be_visible()
    shot(pa, "log-desktop")
    assert not errors, errors
    for c in (home, ctx_a, ctx_b, ctx_s):
        c.close()
