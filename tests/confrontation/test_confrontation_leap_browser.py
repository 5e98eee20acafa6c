"""*The stalker's ford* in a real browser (Playwright, Debian's chromium), issue 24: Leap on the table.

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. The table fits the phone with
its stream, ford, wood, hedge and tower; after the Tactical roll the Wolfen act first and, on the laptop, the stalker
leaps over the south stream (a listed action); the phone's log shows the leap. Screenshots land in
``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from cf_browser import LAPTOP, PHONE, TIMEOUT_MS, commit, offering, phone_and_laptop, ready_up, table_fits

from browser_kit import keeper_fixture, shot, sync_api

STALKER = "Wolfen stalker"

server = keeper_fixture("cf-leap-browser")


def test_the_stalker_leaps_the_stream_from_a_laptop_and_the_phone_sees_it(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_stalkers_ford")
    expect(pa.locator("svg.cftable")).to_be_visible()
    expect(pa.locator(".cf-legend")).to_contain_text("the south stream: water")
    table_fits(pa, PHONE["width"], 7)
    table_fits(pb, LAPTOP["width"], 7)
    ready_up(pa, pb)
    roll = offering("tactical", pa, pb)
    roll.locator("a.btn.act[data-kind=tactical]").click()
    commit(roll)
    winner = offering("lead", pa, pb)  # his own side is offered first: the Wolfen first
    winner.locator("a.btn.act[data-kind=lead]").nth(1 if winner is pa else 0).click()
    commit(winner)
    offering(None, pb)
    pb.locator(f"svg.cftable a.base[data-fighter='{STALKER}']").click()
    leap = pb.locator("a.btn.act[data-kind=leap]")
    expect(leap.first).to_contain_text("Wolfen stalker leaps over the south stream")
    leap.first.click()
    commit(pb)
    pa.reload()
    pa.get_by_role("link", name="Log").first.click()
    expect(pa.locator("body")).to_contain_text(f"{STALKER} leaps over the south stream")
    shot(pa, "cf-leap-after-phone")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
