"""A flight in *The broken line* in a real browser (Playwright, Debian's chromium), issue 24: "flee".

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. After the Tactical roll (its
winner lets the Lions act first), the phone taps its routed swordsman: his only action is his flight, with the run's
length; he flees, and the laptop's log shows it. Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from cf_browser import TIMEOUT_MS, commit, lions_act_first, phone_and_laptop

from browser_kit import keeper_fixture, shot, sync_api

ALDO = "Swordsman Aldo"

server = keeper_fixture("cf-flee-browser")


def test_a_routed_swordsman_flees_on_a_phone_and_the_laptop_sees_it(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_broken_line")
    expect(pa.locator("svg.cftable")).to_be_visible()
    lions_act_first(pa, pb)
    pa.locator(f"svg.cftable a.base[data-fighter='{ALDO}']").click()
    expect(pa.locator("svg.cftable a.base.picked")).to_have_attribute("data-fighter", ALDO)
    buttons = pa.locator("a.btn.act")
    assert buttons.evaluate_all("els => els.map(e => e.dataset.kind)") == ["flee"]  # in rout: his flight only
    expect(buttons.first).to_contain_text("flees")
    shot(pa, "cf-flee-offered-phone")
    buttons.first.click()
    expect(pa.locator("body")).to_contain_text("run")  # the preview: the run's length
    commit(pa)
    pb.reload()
    pb.get_by_role("link", name="Log").first.click()
    expect(pb.locator("body")).to_contain_text(f"{ALDO} flees")
    shot(pb, "cf-after-flee-laptop")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
