"""A short hex battle played on the SVG in a real browser: Playwright driving Debian's chromium.

The Battle System draws its board as an inline SVG; this checks what text-only page tests cannot.
Side A plays on a 390×844 phone, side B on a 1366×900 laptop. The map fits the phone without
sideways scrolling and its counter text is at least 11 CSS px (measured: the text's font size times
the SVG's scale on screen); the action list holds only the picked unit's actions, so the phone page
stays short. A picks its archers by tapping their counter, sees their missile range and sight lines,
moves them by tapping a green hex and ends its turn; B's laptop follows by itself, B picks its guns
on the map, lays a barrage by tapping a target mark, and both pages show the barrage marker.
Screenshots land in ``test-artifacts/`` at the repository root, like ``tests/web/test_browser.py``.
A second short test (issue 25) rallies a broken unit from the phone: tap the general, tap the rally mark.
"""

from __future__ import annotations

import re

from browser_kit import keeper_fixture, new_game_links, page_errors, shot, sync_api

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
#: The phone page with every unit's every action listed was about 7,700 px tall; one unit's fit in this.
PHONE_MAX_HEIGHT = 2_000
#: Smallest counter text, CSS px.
MIN_TEXT_PX = 11

#: The rendered size of every counter's text: its font size in SVG units times the SVG's scale on screen,
#: and its box height (the glyphs as drawn), both in CSS px.
COUNTER_TEXT = """() => [...document.querySelectorAll('svg.hexmap a.counter text')].map(t => ({
    text: t.textContent,
    px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    box: t.getBoundingClientRect().height}))"""


server = keeper_fixture("bs-browser")


def on_board(page: object, unit: str, hex_label: str) -> object:
    """The counter of ``unit`` standing on ``hex_label`` (its SVG title says so)."""
    return page.locator("svg.hexmap a.counter title", has_text=f"{unit} (").filter(  # type: ignore[attr-defined]
        has_text=f" on {hex_label}:")


def pick_on_map(page: object, unit: str) -> None:
    """Tap ``unit``'s counter on the SVG and wait for the page to show it picked."""
    page.locator(f"svg.hexmap a.counter[data-unit='{unit}']").click()  # type: ignore[attr-defined]
    sync_api.expect(page.locator(".bs-units a.picked")).to_have_attribute("data-unit", unit)  # type: ignore[attr-defined]
    sync_api.expect(page.locator("svg.hexmap a.counter.picked")).to_have_attribute("data-unit", unit)  # type: ignore[attr-defined]


def commit(page: object) -> None:
    sync_api.expect(page.locator("#commit")).to_be_visible()  # type: ignore[attr-defined]
    page.locator("#commit").click()  # type: ignore[attr-defined]
    sync_api.expect(page.locator("#commit")).to_have_count(0)  # type: ignore[attr-defined]
    for extra in ("#reveal", "#resolve-all", "#continue"):  # an action may draw chance (a barrage firing)
        if page.locator(extra).count():  # type: ignore[attr-defined]
            page.locator(extra).click()  # type: ignore[attr-defined]


def check_fit(page: object, width: int) -> float:
    """Nothing scrolls sideways and every counter's text is at least 11 CSS px: the smallest size."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
    sizes = page.evaluate(COUNTER_TEXT)  # type: ignore[attr-defined]
    assert len(sizes) >= 3 * 8, sizes  # three lines on each counter
    smallest = min(s["px"] for s in sizes)
    assert smallest >= MIN_TEXT_PX and min(s["box"] for s in sizes) >= MIN_TEXT_PX, sizes
    return float(smallest)


def headings(page: object) -> list[str]:
    """The action groups' headings as the DOM has them (the CSS shows them in capitals)."""
    return [h.strip() for h in page.locator(".act-group h3").all_text_contents()]  # type: ignore[attr-defined]


def page_height(page: object) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))  # type: ignore[attr-defined]


def test_a_short_hex_battle_picked_on_the_map_on_a_phone_and_a_laptop(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    ctx_a = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    ctx_b = browser.new_context(viewport=LAPTOP)  # type: ignore[attr-defined]
    links = new_game_links(ctx_a, server, "battlesystem:river_crossing")
    pa, pb = ctx_a.new_page(), ctx_b.new_page()
    errors = page_errors(pa, pb)
    pa.goto(links["A"])
    pb.goto(links["B"])

    # the phone: the whole map inside the screen, readable counters, the first unit's actions only
    svg = pa.locator("svg.hexmap")
    expect(svg).to_be_visible()
    expect(pa.locator("svg.hexmap g.hex polygon")).to_have_count(48)
    box = svg.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    phone_px = check_fit(pa, PHONE["width"])
    first = pa.locator(".bs-units a.picked").get_attribute("data-unit")
    assert headings(pa) == [f"{first}: move", "Turn"]
    heights = {"phone, first unit": page_height(pa)}
    expect(pb.locator(".wait")).to_be_visible()
    shot(pa, "bs-board-phone")
    shot(pb, "bs-board-laptop")

    # A taps its archers on the map: their actions only, their missile range, a sight line to each enemy
    pick_on_map(pa, "Bank Archers")
    assert headings(pa) == ["Bank Archers: shoot", "Bank Archers: move", "Turn"]
    assert all(k in ("shoot", "move", "end_turn") for k in pa.locator("a.btn.act").evaluate_all(
        "els => els.map(e => e.dataset.kind)"))
    expect(pa.locator("svg.hexmap path.range-missile")).to_have_count(1)
    expect(pa.locator("svg.hexmap line.sight-line")).to_have_count(
        pa.locator("svg.hexmap a.counter.side-B").count())
    reach = pa.locator("svg.hexmap a.reach-hex")
    assert reach.count() == pa.locator("form.picker option[data-kind=move]").count() > 0  # the moves' picker
    heights["phone, archers"] = page_height(pa)
    shot(pa, "bs-archers-picked-phone")

    # … and moves them by tapping a green hex, then ends the turn
    to = reach.last.get_attribute("data-hex")
    tapped = re.search(r"[?&]pick=(\d+)", reach.last.get_attribute("href") or "")
    reach.last.click()
    # the moves' drop-down shows the tapped move beside its odds (it showed its first entry: hweb)
    assert tapped is not None
    expect(pa.locator("form.picker[data-kind=move] select[name=pick]")).to_have_value(tapped.group(1))
    commit(pa)
    expect(on_board(pa, "Bank Archers", to)).to_have_count(1)
    expect(on_board(pb, "Bank Archers", to)).to_have_count(1)  # B's page, live, no reload
    pa.locator("a.btn.act[data-kind=end_turn]").click()
    commit(pa)
    expect(pa.locator(".wait")).to_be_visible()

    # B's laptop turns to B's actions by itself; B picks its guns on the map and lays a barrage on A's pikes
    expect(pb.locator("a.btn.act").first).to_be_visible()
    laptop_px = check_fit(pb, LAPTOP["width"])
    pick_on_map(pb, "Hill Guns")
    expect(pb.locator("svg.hexmap path.range-barrage")).to_have_count(1)
    target = pb.locator("svg.hexmap a.counter[data-unit='Ford Pikes']").get_attribute("aria-label")
    pikes_hex = re.search(r" on ([A-H]\d):", pb.locator("svg.hexmap a.counter[data-unit='Ford Pikes'] title")
                          .text_content() or "")
    assert target and pikes_hex, target
    shot(pb, "bs-guns-picked-laptop")
    pb.locator(f"svg.hexmap a.mark[data-kind=barrage][data-hex='{pikes_hex.group(1)}']").click()
    commit(pb)
    for p in (pb, pa):  # the rules hide nothing: both sides see where the barrage will fall
        expect(p.locator(f"svg.hexmap g.barrage-target[data-hex='{pikes_hex.group(1)}']")).to_have_count(1)
        expect(p.locator("svg.hexmap g.barrage-splash")).to_have_count(6)
    heights["laptop, after the barrage"] = page_height(pb)
    heights["phone, waiting"] = page_height(pa)
    shot(pb, "bs-barrage-laptop")
    shot(pa, "bs-barrage-phone")

    assert heights["phone, first unit"] < PHONE_MAX_HEIGHT and heights["phone, archers"] < PHONE_MAX_HEIGHT, heights
    print(f"\nbattlesystem board: page heights {heights}; smallest counter text {phone_px:.1f} px on the phone, "
          f"{laptop_px:.1f} px on the laptop")
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()


def _policy_until_a_rally(seed: int) -> tuple[list[dict[str, object]], dict[str, object]]:
    """The default policy's actions of River crossing (this seed) until a general may rally, and that rally."""
    from pathlib import Path

    from rulekeeper.core.game import SetupRequest
    from rulekeeper.core.ruleset import game

    g = game("battlesystem")
    river = next(sc for sc in g.scenarios() if sc.key == "river_crossing")
    s = g.initial_state(g.setup(SetupRequest(scenario=Path(river.path), seed=seed)).document)
    played: list[dict[str, object]] = []
    while True:
        rally = [lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "rally"]
        if rally:
            return played, rally[0]
        action = g.policy(s)
        played.append(action)
        s = g.apply(s, action).state


def test_a_general_rallies_a_broken_unit_on_the_phone(server: str, browser: object) -> None:
    """Issue 25 (6): "their general will be able to rally them back into the fight". The battle is played by the
    default policy (through the API) until the Riverguard's general may rally a broken unit; the phone taps the
    general on the map, then the rally's mark on the fleeing counter, commits, and both pages show it rallied."""
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    played, rally = _policy_until_a_rally(7)
    ctx_a = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    ctx_b = browser.new_context(viewport=LAPTOP)  # type: ignore[attr-defined]
    links = new_game_links(ctx_a, server, "battlesystem:river_crossing")
    bid = re.search(r"/b/([^/?]+)", links["A"]).group(1)  # type: ignore[union-attr]
    tokens = {side: re.search(r"token=([^&#]+)", links[side]).group(1) for side in "AB"}  # type: ignore[union-attr]
    for position, action in enumerate(played):
        r = ctx_a.request.post(f"{server}/api/battles/{bid}/actions?token={tokens[str(action['side'])]}",
                               data={**action, "position": position})
        assert r.status == 200, r.text()
    pa, pb = ctx_a.new_page(), ctx_b.new_page()
    errors = page_errors(pa, pb)
    pa.goto(links["A"])
    pb.goto(links["B"])
    unit, general = str(rally["target"]), str(rally["unit"])
    fleeing = f"svg.hexmap a.counter[data-unit='{unit}']"
    expect(pa.locator(fleeing)).to_have_class(re.compile(r"\bfleeing\b"))
    pick_on_map(pa, general)
    assert f"{general}: rally" in headings(pa)
    pa.locator("svg.hexmap a.mark[data-kind=rally]").click()
    expect(pa.locator("#commit")).to_be_visible()
    assert "expected morale restored" in (pa.locator("body").text_content() or "")
    pa.locator("#commit").click()
    # the rally draws a roll, face down until revealed: "Resolve all" shows it to both sides
    expect(pa.get_by_text("Fate has spoken")).to_be_visible()
    pa.locator("#reveal-all:visible, #resolve-all:visible").first.click()
    expect(pa.get_by_text("Fate has spoken")).to_have_count(0)
    for p, side in ((pa, "A"), (pb, "B")):  # rallied: no longer fleeing, on both screens
        p.goto(links[side])
        expect(p.locator(fleeing)).not_to_have_class(re.compile(r"\bfleeing\b"))
    shot(pa, "bs-rally-phone")
    shot(pb, "bs-rally-laptop")
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()
