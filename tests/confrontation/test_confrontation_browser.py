"""A short Confrontation skirmish played on the SVG table in a real browser (Playwright, Debian's chromium).

Side A (the Lions) plays on a 390×844 phone, side B (the Wolfen) on a 1366×900 laptop. The table fits the
phone without sideways scrolling and the marks on the bases are at least 11 CSS px. A taps its guard's
base, sees his walking and charge reach and a measured line to each enemy, and walks him by tapping a green
dot; B's laptop follows by itself. The sides then play on by tapping the first offered action (a charge or a
fight when there is one) until a fight has begun; each side then places its fighters' combat dice on its own
screen (the keeper's proposal, listed first), and the fight's Fate Screen is shown on both pages.
Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from cf_browser import LAPTOP, PHONE, TIMEOUT_MS, commit, lions_act_first, offering, phone_and_laptop, table_fits

from browser_kit import keeper_fixture, shot, sync_api

#: Actions at most before a fight must have been fought (the Wolfen charge in round 1 or 2).
MAX_ACTIONS = 16

server = keeper_fixture("cf-browser")


def pick_on_table(page: Any, fighter: str) -> None:
    page.locator(f"svg.cftable a.base[data-fighter='{fighter}']").click()
    sync_api.expect(page.locator("svg.cftable a.base.picked")).to_have_attribute("data-fighter", fighter)
    sync_api.expect(page.locator(".cf-fighters a.picked")).to_have_attribute("data-fighter", fighter)


def play_first(page: Any) -> str:
    """Tap the best offered action of the picked fighter: a fight or a charge when offered, else the first."""
    buttons = page.locator("a.btn.act")
    kinds = buttons.evaluate_all("els => els.map(e => e.dataset.kind)")
    for kind in ("fight", "charge"):
        if kind in kinds:
            page.locator(f"a.btn.act[data-kind={kind}]").first.click()
            commit(page)
            return str(kind)
    buttons.first.click()
    commit(page)
    return str(kinds[0])


def test_a_short_skirmish_on_a_phone_and_a_laptop(server: str, browser: Any) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    pa, pb, errors = phone_and_laptop(browser, server, "confrontation:the_ford")

    # the phone: the whole table on the screen, readable marks, the obstacle and five bases with front arcs
    svg = pa.locator("svg.cftable")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    phone_px = table_fits(pa, PHONE["width"], bases=5)
    expect(pa.locator("svg.cftable polygon.obstacle")).to_have_count(1)
    expect(pa.locator("svg.cftable path.front-arc")).to_have_count(5)
    shot(pa, "cf-table-phone")

    # the round begins with the Tactical roll; its winner lets the Lions act first
    lions_act_first(pa, pb)

    # A taps its guard: his reach circles and a measured line to each of the two Wolfen
    pick_on_table(pa, "Alahan guard")
    expect(pa.locator("svg.cftable circle.move-reach")).to_have_count(1)
    expect(pa.locator("svg.cftable circle.charge-reach")).to_have_count(1)
    lines = pa.locator("svg.cftable .charge-line")
    expect(lines).to_have_count(2)
    assert sorted(lines.evaluate_all("els => els.map(e => e.dataset.cm)")) == ["24.8", "24.8"]
    walks = pa.locator("svg.cftable a.walk")
    assert walks.count() == pa.locator("a.btn.act[data-kind=move]").count() > 0
    shot(pa, "cf-guard-picked-phone")
    walks.first.click()
    commit(pa)
    guard = "svg.cftable a.base[data-fighter='Alahan guard'] title"
    for p in (pa, pb):  # B's page, live, without a reload
        expect(p.locator(guard)).not_to_contain_text("at (7.0, 15.0)")

    # the sides play on, each on its own screen, until a fight has been fought
    played: list[str] = []
    for _ in range(MAX_ACTIONS):
        if "fight" in played:
            break
        played.append(play_first(offering(None, pa, pb)))
    assert "fight" in played, played
    # War fury is the player's to use: before the INI test its fighter's player declares it on his own screen, the
    # keeper's proposal (used) first (before_ini.py); a fight without it goes straight to its INI tests
    declarations = 0
    while True:
        page = offering(None, pa, pb)
        kinds = page.locator("a.btn.act").evaluate_all("els => els.map(e => e.dataset.kind)")
        if "declare" not in kinds:
            break
        assert set(kinds) == {"declare"}, kinds
        expect(page.locator("a.btn.act").first).to_contain_text("uses War fury")
        expect(page.locator("a.btn.act").first).to_contain_text("(the keeper's proposal)")
        played.append(play_first(page))
        declarations += 1
    # the fight drew its INI tests; each fighter's player places his dice, the losing camp first, on his own
    # screen ("the winner of the roll places their combat dice … after the loser"; placing.py)
    placements = 0
    while True:
        page = offering(None, pa, pb)
        kinds = page.locator("a.btn.act").evaluate_all("els => els.map(e => e.dataset.kind)")
        if "place" not in kinds:
            break
        assert set(kinds) == {"place"}, kinds
        expect(page.locator("a.btn.act").first).to_contain_text("(the keeper's proposal)")
        played.append(play_first(page))
        placements += 1
    assert placements >= 2, played
    for p in (pa, pb):
        p.reload()
        for _ in range(4):  # Fate Screens of earlier charges (their COU tests) come before the fight's
            if p.locator("#continue").count() and "fights" not in p.locator("body").inner_text():
                p.locator("#continue").click()
                expect(p.locator("#continue")).to_have_count(0)
        expect(p.locator("body")).to_contain_text("places his combat dice")  # the last placement: the fight's end
    standing = pb.locator("svg.cftable a.base").count()  # the first fight may have killed one
    assert standing in (4, 5), standing
    laptop_px = table_fits(pb, LAPTOP["width"], bases=standing)
    shot(pa, "cf-after-fight-phone")
    shot(pb, "cf-after-fight-laptop")
    print(f"\nconfrontation table: {played}; smallest base text {phone_px:.1f} px on the phone, "
          f"{laptop_px:.1f} px on the laptop")
    assert not errors, errors
    pa.context.close()
    pb.context.close()
