"""A shot in *Crossbows at the mill race* in a real browser (Playwright, Debian's chromium), issue 24.

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. A taps its crossbowman on
the table, sees a shot offered at each Wolfen in sight with its exact odds, shoots the first, and the shot's Fate
Screen (the AIM test, the damage roll on a hit) and the log line come up on both pages. Screenshots land in
``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from cf_browser import LAPTOP, PHONE, TIMEOUT_MS, lions_act_first, phone_and_laptop, table_fits

from browser_kit import keeper_fixture, shot, sync_api

XBOW = "Alahan crossbowman"

server = keeper_fixture("cf-shoot-browser")


def test_a_crossbowman_shoots_on_a_phone_and_the_laptop_sees_it(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_mill_race")
    board_b = pb.url  # B's link
    expect(pa.locator("svg.cftable")).to_be_visible()
    expect(pa.locator("svg.cftable polygon.obstacle")).to_have_count(2)
    phone_px = table_fits(pa, PHONE["width"], bases=6)
    lions_act_first(pa, pb)  # the Tactical roll; its winner lets the Lions act first

    pa.locator(f"svg.cftable a.base[data-fighter='{XBOW}']").click()
    expect(pa.locator("svg.cftable a.base.picked")).to_have_attribute("data-fighter", XBOW)
    shots = pa.locator("a.btn.act[data-kind=shoot]")
    expect(shots).to_have_count(3)  # the three Wolfen are in sight and within his crossbow's long range
    texts = shots.evaluate_all("els => els.map(e => e.textContent)")
    # difficulty 7 in the open; 8 where the mill hides part of him (cover, +1: docs "Terrain")
    assert all("long range" in t and ("difficulty 7" in t or ("in cover of" in t and "difficulty 8" in t))
               for t in texts), texts
    shot(pa, "cf-shoot-offered-phone")
    shots.first.click()
    expect(pa.locator("body")).to_contain_text("hits")  # the preview: exact odds to hit, wound, kill
    pa.locator("#commit").click()
    expect(pa.locator("#commit")).to_have_count(0)
    for p in (pa, pb):
        p.reload()
        for _ in range(6):  # the shot's Fate Screen (its AIM test, a damage roll on a hit), every result revealed
            extra = next((e for e in ("#resolve-all", "#reveal", "#continue") if p.locator(e).count()), None)
            if extra is None:
                break
            try:  # the page follows the battle by itself: the screen may be gone before the tap lands
                p.locator(extra).click(timeout=3000)
            except sync_api.TimeoutError:
                continue
            p.wait_for_load_state()
            p.wait_for_timeout(300)
        expect(p.locator("body")).to_contain_text(f"{XBOW} shoots")
    pb.get_by_role("link", name="Log").first.click()
    # the log line: the band, the difficulty and the AIM test's final result
    expect(pb.locator("body")).to_contain_text("(long range, ")
    expect(pb.locator("body")).to_contain_text("difficulty 7): AIM")
    pb.goto(board_b)
    expect(pb.locator("svg.cftable")).to_be_visible()
    laptop_px = table_fits(pb, LAPTOP["width"], bases=6)
    shot(pa, "cf-after-shot-phone")
    shot(pb, "cf-after-shot-laptop")
    print(f"\nmill race shot: smallest base text {phone_px:.1f} px on the phone, {laptop_px:.1f} px on the laptop")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
