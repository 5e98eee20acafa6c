"""A short Dragon Noir battle played on the SVG map in a real browser: Playwright driving Debian's chromium.

Side A plays on a 390×844 phone, side B on a 1366×900 laptop, the mill house scenario. The map fits the phone
without sideways scrolling. A picks Laberne on the map: his lines of fire are drawn on the SVG, the ones through
the mill house's walls blocked (dashed red, a cross on what blocks them, the reason listed under the map), and
the verdicts are the rules' (``fire.line_of_fire``). A picks Jon, whose line to Crazy Ork is clear, shoots by
tapping the target mark, ends the offensive fire, moves Laberne by tapping a green hex and ends the player turn;
B's laptop follows by itself and shows B's actions. Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest

from browser_kit import shot, sync_api
from live_keeper import running_keeper

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_keeper(tmp_path_factory.mktemp("dn-browser") / "web.db") as url:
        yield url


def new_battle(ctx: object, server: str) -> dict[str, str]:
    r = ctx.request.post(server + "/new", form={"scenario": "dragonnoir:the_mill_house", "seed": "7"})  # type: ignore[attr-defined]
    assert r.status == 201, r.text()
    found = dict(re.findall(r'id="link-(\w+)"[^>]*value="([^"]+)"', r.text()))
    return {role: html.unescape(url) for role, url in found.items()}


def pick_on_map(page: object, unit: str) -> None:
    page.locator(f"svg.hexmap a.counter[data-unit='{unit}']").click()  # type: ignore[attr-defined]
    sync_api.expect(page.locator("svg.hexmap a.counter.picked")).to_have_attribute("data-unit", unit)  # type: ignore[attr-defined]


def commit(page: object) -> None:
    sync_api.expect(page.locator("#commit")).to_be_visible()  # type: ignore[attr-defined]
    page.locator("#commit").click()  # type: ignore[attr-defined]
    sync_api.expect(page.locator("#commit")).to_have_count(0)  # type: ignore[attr-defined]
    page.wait_for_load_state()  # type: ignore[attr-defined]
    if page.locator("#reveal-all").count():  # a shot's results are dealt face down: reveal them all
        page.locator("#reveal-all").click()  # type: ignore[attr-defined]
        sync_api.expect(page.locator("#continue")).to_be_visible()  # type: ignore[attr-defined]
        page.locator("#continue").click()  # type: ignore[attr-defined]
        page.wait_for_load_state()  # type: ignore[attr-defined]


def end_phase(page: object) -> None:
    page.locator("a.btn.act[data-kind=end_phase]").click()  # type: ignore[attr-defined]
    commit(page)


def fits(page: object, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
    box = page.locator("svg.hexmap").bounding_box()  # type: ignore[attr-defined]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box


def test_a_short_battle_with_lines_of_fire_on_a_phone_and_a_laptop(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    ctx_a = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    ctx_b = browser.new_context(viewport=LAPTOP)  # type: ignore[attr-defined]
    links = new_battle(ctx_a, server)
    pa, pb = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for p in (pa, pb):
        p.on("pageerror", lambda e: errors.append(str(e)))
    pa.goto(links["A"])
    pb.goto(links["B"])
    expect(pa.locator("svg.hexmap g.hex polygon")).to_have_count(7 * 5)
    expect(pa.locator("svg.hexmap line.edge-wall")).to_have_count(13)
    fits(pa, PHONE["width"])
    shot(pa, "dn-board-phone")

    # Laberne, behind the mill house: his lines of fire are drawn, those through its walls blocked and explained
    pick_on_map(pa, "Laberne")
    lines = pa.locator("svg.hexmap g.fire-line")
    expect(lines).to_have_count(3)
    blocked = pa.locator("svg.hexmap g.fire-line.blocked")
    assert blocked.count() >= 1
    expect(blocked.first.locator("path.blocker")).to_have_count(1)
    assert "no shot" in (blocked.first.locator("title").text_content() or "")
    listed = pa.locator(".dn-lines li.blocked").first.text_content() or ""
    assert "blocked" in listed and ("wall" in listed or "house" in listed), listed
    shot(pa, "dn-laberne-lines-phone")

    # Jon sees Crazy Ork: a clear line; he shoots by tapping the target mark
    pick_on_map(pa, "Jon")
    expect(pa.locator("svg.hexmap g.fire-line.clear[data-target='Crazy Ork']")).to_have_count(1)
    pa.locator("svg.hexmap a.mark[data-kind=shoot]").first.click()
    commit(pa)
    end_phase(pa)

    # the movement: Laberne steps onto a green hex, then A ends its movement and its combat
    pick_on_map(pa, "Laberne")
    reach = pa.locator("svg.hexmap a.reach-hex")
    assert reach.count() > 0
    to = reach.first.get_attribute("data-hex")
    reach.first.click()
    commit(pa)
    expect(pa.locator("svg.hexmap a.counter[data-unit='Laberne'] title")).to_contain_text(f" on {to}:")
    expect(pb.locator("svg.hexmap a.counter[data-unit='Laberne'] title")).to_contain_text(f" on {to}:")
    end_phase(pa)
    end_phase(pa)

    # B's laptop turns to B's movement by itself
    expect(pb.locator("a.btn.act").first).to_be_visible()
    fits(pb, LAPTOP["width"])
    pick_on_map(pb, "Goblin 2")
    expect(pb.locator("svg.hexmap a.reach-hex").first).to_be_visible()
    shot(pb, "dn-goblins-laptop")
    shot(pa, "dn-waiting-phone")
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()
