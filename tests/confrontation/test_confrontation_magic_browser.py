"""Mystic actions in a real browser (Playwright, Debian's chromium), issue 24.

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. In *The moonlit shrine* A taps
its priest on the table, sees each miracle he may call with its exact odds, calls the first, and the log line comes
up on the laptop. In *The seer's circle* the laptop's moon-seer absorbs the shaman's Gems (Absorb/X), its tracker
charges the phone's sentry with assault fire (the phone's sentry fires first, reaction fire), and the phone's champion, engaged, concentrates before his fight
(Concentration/X) with the fray's odds recomputed.
"""

from __future__ import annotations

from typing import Any

from cf_browser import TIMEOUT_MS, commit, lions_act_first, offering, phone_and_laptop

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


def test_a_seer_absorbs_and_a_tracker_fires_on_a_laptop_and_a_champion_concentrates_on_a_phone(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_seers_circle")
    lions_act_first(pa, pb)
    pa.locator("svg.cftable a.base[data-fighter='Alahan champion']").click()
    pa.locator("a.btn.act[data-kind=charge]", has_text="Wolfen hunter").click()
    commit(pa)
    offering("hold", pb)  # the Wolfen act: the hunter, charged, is picked first
    pb.locator("svg.cftable a.base[data-fighter='Wolfen moon-seer']").click()
    pb.locator("a.btn.act[data-kind=absorb]").first.click()
    expect(pb.locator("body")).to_contain_text("5 → 6 Gems")  # the reserves before and after, no draw
    commit(pb)
    pb.locator("a.btn.act[data-kind=hold]").first.click()  # the hunter stays in his fight
    commit(pb)
    offering("hold", pa).locator("a.btn.act[data-kind=hold]").first.click()  # the Lions' sentry
    commit(pa)
    offering("hold", pb)
    pb.locator("svg.cftable a.base[data-fighter='Wolfen tracker']").click()
    pb.locator("a.btn.act[data-kind=charge]", has_text="with assault fire").click()
    expect(pb.locator("body")).to_contain_text("AIM 3 vs 7")  # the assault fire's exact odds before the roll
    commit(pb)
    answers = offering("react", pa).locator("a.btn.act")  # the charged sentry's reaction fire, his player's choice
    assert answers.evaluate_all("els => els.map(e => e.dataset.kind)") == ["react", "withhold"]
    answers.first.click()
    expect(pa.locator("body")).to_contain_text("reaction fire: difficulty")
    commit(pa)
    for _ in range(2):  # the moon-seer (after his Mystic action) and the shaman hold
        offering("hold", pb).locator("a.btn.act[data-kind=hold]").first.click()
        commit(pb)
    choices = offering("concentrate", pa).locator("a.btn.act")
    assert choices.evaluate_all("els => els.map(e => e.dataset.kind)") == ["steady", *["concentrate"] * 3]
    choices.nth(1).click()
    expect(pa.locator("body")).to_contain_text("Alahan champion loses HP")  # the fray's odds with the bonus
    shot(pa, "cf-concentration-offered-phone")
    commit(pa)
    pb.reload()
    pb.get_by_role("link", name="Log").first.click()
    expect(pb.locator("body")).to_contain_text("Alahan champion concentrates: ATT +2")
    expect(pb.locator("body")).to_contain_text("Wolfen moon-seer absorbs")
    expect(pb.locator("body")).to_contain_text("Alahan sentry fires at Wolfen tracker, who charges him")
    expect(pb.locator("body")).to_contain_text("Wolfen tracker fires as he charges Alahan sentry")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
