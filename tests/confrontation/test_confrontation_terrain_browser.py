"""*The hunters' wood* in a real browser (Playwright, Debian's chromium), issue 24: terrain on the table.

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. The table fits the phone with
its terrain drawn (the field wall, the bog, the old wood, the mere, the standing stone) and explained in the legend;
after the Tactical roll the phone's crossbowman shoots the tracker in the old wood: the action names the cover and
its difficulty, and the laptop's log shows the shot. Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from cf_browser import LAPTOP, PHONE, TIMEOUT_MS, commit, lions_act_first, phone_and_laptop, table_fits

from browser_kit import keeper_fixture, shot, sync_api

XBOW, TRACKER = "Alahan crossbowman", "Wolfen tracker"

server = keeper_fixture("cf-terrain-browser")


def test_the_crossbowman_shoots_into_the_wood_from_a_phone_and_the_laptop_sees_it(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_hunters_wood")
    expect(pa.locator("svg.cftable")).to_be_visible()
    kinds = pa.locator("svg.cftable g.terrain polygon").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert kinds == ["obstacle", "encumbered", "encumbered", "water", "obstacle"]
    expect(pa.locator(".cf-legend")).to_contain_text("the bog: encumbered ground: every cm costs two")
    expect(pb.locator(".cf-legend")).to_contain_text("the old wood: encumbered ground: every cm costs two; it gives cover")
    table_fits(pa, PHONE["width"], 7)
    table_fits(pb, LAPTOP["width"], 7)
    shot(pa, "cf-terrain-phone")
    lions_act_first(pa, pb)
    pa.locator(f"svg.cftable a.base[data-fighter='{XBOW}']").click()
    shoot = pa.locator(f"a.btn.act[data-kind=shoot][data-target='{TRACKER}']")
    if not shoot.count():
        shoot = pa.locator("a.btn.act[data-kind=shoot]").filter(has_text=TRACKER)
    expect(shoot.first).to_contain_text("in cover of the old wood")
    shoot.first.click()
    commit(pa)
    pb.reload()
    pb.get_by_role("link", name="Log").first.click()
    expect(pb.locator("body")).to_contain_text(f"{XBOW} shoots {TRACKER}")
    expect(pb.locator("body")).to_contain_text("in cover of the old wood")
    shot(pb, "cf-terrain-after-shot-laptop")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
