"""A miracle in *The moonlit shrine* in a real browser (Playwright, Debian's chromium), issue 24.

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. A taps its priest on the
table, sees each miracle he may call with its exact odds, calls the first, and the log line comes up on the laptop.
"""

from __future__ import annotations

from typing import Any

from cf_browser import TIMEOUT_MS, lions_act_first, phone_and_laptop

from browser_kit import keeper_fixture, shot, sync_api

PRIEST = "Alahan priest"

server = keeper_fixture("cf-magic-browser")


def test_a_priest_calls_a_miracle_on_a_phone_and_the_laptop_sees_it(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_moonlit_shrine")
    lions_act_first(pa, pb)
    pa.locator(f"svg.cftable a.base[data-fighter='{PRIEST}']").click()
    calls = pa.locator("a.btn.act[data-kind=cast]")
    expect(calls.first).to_contain_text("Alahan priest calls Wrath of Merin on Wolfen")
    calls.first.click()
    expect(pa.locator("body")).to_contain_text("Wrath of Merin works (FAI vs 5)")  # the exact odds before the roll
    shot(pa, "cf-miracle-offered-phone")
    pa.locator("#commit").click()
    expect(pa.locator("#commit")).to_have_count(0)
    pb.reload()
    pb.get_by_role("link", name="Log").first.click()
    expect(pb.locator("body")).to_contain_text("Alahan priest calls Wrath of Merin on Wolfen")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
