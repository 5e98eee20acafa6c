"""Issue 26: the table's walk, in Debian's chromium — every shipped game from two devices at once, side A on a
1366×900 laptop and side B on a 390×844 phone, a few actions each, and on every page state reached:

* no choice the player made is lost to a live update (the campaign's half-chosen orders stay while the
  other side gives its orders; a banner says what changed);
* a revealed result stays until dismissed (Ex illis: A's Fate Screen stays while B acts);
* every interactive element's box is at least 44 px in its smaller side, or belongs to a picker listed in
  :data:`PICKERS` (a dense board where each target also has a full-size way in), or is a link inside a sentence;
* nothing scrolls sideways at 390 px;
* every action with chance shows its odds before its Commit.

It prints the counts (pages, elements measured, smallest target) and saves phone screenshots in
``test-artifacts/``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from live_keeper import running_keeper

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
MIN = 44
TIMEOUT_MS = 20_000
#: Dense boards where a target smaller than 44 px also has a full-size way in (the action list beside it).
PICKERS: dict[str, str] = {
    "svg.hexmap a": "the Battle System's and Dragon Noir's hex maps: every counter is also a full-size button of the "
                    "unit list above the actions, every mark and reachable hex an entry of the action list or its picker",
    "svg.cftable a": "Confrontation's table: every base is also a full-size button of the fighter list, every walk dot "
                     "an entry of the action list",
}

#: Every interactive element, with its box; links inside a sentence (WCAG 2.5.8's inline exception) are marked.
MEASURE = """(pickers) => {
  const out = [];
  const els = document.querySelectorAll('a[href], button, select, input:not([type=hidden]), textarea, summary');
  for (const e of els) {
    if (e.closest('[hidden]') || e.closest('.sr')) continue;
    const b = e.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const parent = e.parentElement;
    const inline = e.tagName === 'A' && style.display === 'inline' && parent &&
      parent.textContent.trim().length > e.textContent.trim().length + 8;
    const name = (e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.getAttribute('class') ? '.' + e.getAttribute('class').split(' ').join('.') : ''))
      + ' "' + (e.textContent || e.value || '').trim().slice(0, 30) + '"';
    const picker = pickers.find(sel => e.closest(sel)) || null;
    const where = e.parentElement ? ' in ' + e.parentElement.tagName.toLowerCase() + '.' + (e.parentElement.getAttribute('class') || '') : '';
    out.push({name: name + where, w: b.width, h: b.height, inline, picker});
  }
  return out;
}"""


def _api(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.load(r)


class Walk:
    """The counts, and every fault found on the way (asserted at the end, all of them at once)."""

    def __init__(self) -> None:
        self.pages = 0
        self.measured = 0
        self.in_pickers = 0
        self.smallest: tuple[float, str] = (1e9, "")
        self.faults: list[str] = []

    def check(self, page: Any, where: str) -> None:
        """One page state: tap targets, sideways scroll."""
        self.pages += 1
        for item in page.evaluate(MEASURE, list(PICKERS)):
            if item["inline"]:
                continue
            self.measured += 1
            if item["picker"]:
                self.in_pickers += 1
                continue
            side = min(item["w"], item["h"])
            if side < self.smallest[0]:
                self.smallest = (side, f"{item['name']} on {where}")
            if side < MIN - 0.5:
                self.faults.append(f"{where}: {item['name']} is {item['w']:.0f}×{item['h']:.0f} px")
        width = page.evaluate("window.innerWidth")
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if width <= 400 and scroll > width:
            self.faults.append(f"{where}: the page scrolls sideways ({scroll} px wide at {width})")


@pytest.fixture(scope="module")
def keeper_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_keeper(tmp_path_factory.mktemp("table-walk") / "web.db") as url:
        yield url


@pytest.fixture(scope="module")
def walk() -> Iterator[Walk]:
    w = Walk()
    yield w
    print(f"\ntable walk: {w.pages} page states, {w.measured} elements measured ({w.in_pickers} of them on a dense "
          f"board with a full-size picker beside it), smallest other target {w.smallest[0]:.0f} px ({w.smallest[1]})")


def _devices(browser: Any) -> tuple[Any, Any]:
    laptop = browser.new_context(viewport=LAPTOP)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return laptop, phone


def _create(ctx: Any, url: str, scenario: str) -> dict[str, str]:
    """A battle made from the home page as a player does (seeded, so the walk is the same every run)."""
    page = ctx.new_page()
    page.goto(url + "/")
    page.locator(f"input[name=scenario][value='{scenario}']").check()
    page.locator("form.new-battle").first.locator("input[name=seed]").fill("7")
    page.locator("form.new-battle").first.locator("button[type=submit]").click()
    sync_api.expect(page.locator("h1")).to_have_text("Battle created")
    links = dict(page.evaluate("() => [...document.querySelectorAll('.links input')].map(i => [i.id.slice(5), i.value])"))
    page.close()
    return links


def _has_chance(odds: Any) -> bool:
    """Whether an action's listed odds hold a probability (not only costs such as "points left after")."""
    values = odds.values() if isinstance(odds, dict) else odds if isinstance(odds, list) else []
    return any((isinstance(v, float) and 0 < v < 1) or (isinstance(v, str) and "%" in v) for v in values)


def _odds_before_commit(page: Any, walk: Walk, where: str, base: str, link: str) -> bool:
    """Open this side's first action with chance, check its odds are on screen with its Commit; False if none."""
    bid, token = link.split("/b/")[1].split("?")[0], link.split("token=")[1]
    listed = _api(base, "GET", f"/api/battles/{bid}/actions?token={token}")
    index = next((i for i, x in enumerate(listed.get("actions", [])) if _has_chance(x.get("odds"))), None)
    if index is None:
        return False
    pick = page.locator(f"#panel a[href*='pick={index}&']")
    if not pick.count():
        return False
    pick.first.click()
    sync_api.expect(page.locator("#commit")).to_be_visible()
    preview = page.locator("#preview").inner_text()
    if "%" not in preview and "/" not in preview:
        walk.faults.append(f"{where}: a preview with no odds before its Commit: {preview[:120]!r}")
    walk.check(page, where + " (preview)")
    return True


@pytest.mark.parametrize("scenario", ["battlesystem:river_crossing", "dragonnoir:the_ford", "confrontation:the_ford",
                                      "wartable:oathsworn_vs_bloodless"])
def test_each_game_from_a_laptop_and_a_phone(keeper_url: str, browser: Any, walk: Walk, scenario: str) -> None:
    sync_api.expect.set_options(timeout=TIMEOUT_MS)
    laptop, phone = _devices(browser)
    links = _create(laptop, keeper_url, scenario)
    sides = [role for role in links if role != "spectator"]
    a, b = laptop.new_page(), phone.new_page()
    a.goto(links[sides[0]])
    b.goto(links[sides[1]])
    game = scenario.split(":")[0]
    for page, dev in ((a, "laptop"), (b, "phone")):
        sync_api.expect(page.locator("#live")).to_be_visible()
        walk.check(page, f"{game} board ({dev})")
    if game == "dragonnoir" or game == "confrontation":
        from browser_kit import shot

        shot(b, f"table-walk-{game}-phone")
    for page, dev in ((a, "laptop"), (b, "phone")):
        if _odds_before_commit(page, walk, f"{game} ({dev})", keeper_url, page.url):
            page.locator("#commit").click()
            sync_api.expect(page.locator("#live")).to_be_visible()
            walk.check(page, f"{game} after commit ({dev})")
    for page in (a, b):
        page.goto(page.url.split("#")[0].split("&")[0] if "token=" in page.url else page.url)
        page.locator("nav a", has_text="Log").click()
        walk.check(page, f"{game} log")
    laptop.close()
    phone.close()


def test_revealed_results_stay_while_the_other_side_acts(keeper_url: str, browser: Any, walk: Walk) -> None:
    """Ex illis: A reveals a charge's results; B acts; A's Fate Screen stays, a banner says B moved."""
    from browser_kit import shot

    sync_api.expect.set_options(timeout=TIMEOUT_MS)
    laptop, phone = _devices(browser)
    links = _create(laptop, keeper_url, "exillis:duel")
    bid = links["A"].split("/b/")[1].split("?")[0]
    tokens = {role: url.split("token=")[1] for role, url in links.items()}
    first = _api(keeper_url, "GET", f"/api/battles/{bid}/actions?token={tokens['A']}")["side"]
    other = "B" if first == "A" else "A"
    pages = {"A": laptop.new_page(), "B": phone.new_page()}
    mine, theirs = pages[first], pages[other]
    mine.goto(links[first])
    theirs.goto(links[other])
    assert _odds_before_commit(mine, walk, "exillis", keeper_url, links[first])
    mine.locator("#commit").click()
    mine.locator("#reveal-all").click()
    sync_api.expect(mine.locator("#fate[data-hold=results]")).to_be_visible()
    fate_text = mine.locator("#fate").inner_text()
    walk.check(mine, "exillis Fate Screen")
    # the other side acts (through the API: the point is what the first page does meanwhile)
    for _ in range(3):
        listed = _api(keeper_url, "GET", f"/api/battles/{bid}/actions?token={tokens[other]}")
        if listed["side"] != other:
            break
        action = next((x for x in listed["actions"] if x["kind"] in ("wait", "move")), listed["actions"][0])
        body = {k: v for k, v in action.items() if k in ("kind", "unit", "target", "option", "position") and v is not None}
        _api(keeper_url, "POST", f"/api/battles/{bid}/actions?token={tokens[other]}",
             {**body, "position": listed["position"]})
        break
    sync_api.expect(mine.locator("#held-update")).to_be_visible()
    time.sleep(2.5)  # a poll or two more: still held
    assert mine.locator("#fate").inner_text() == fate_text
    walk.check(mine, "exillis Fate Screen with a held update")
    shot(pages["B"] if first == "B" else mine, "table-walk-held-results")
    mine.locator("#held-see").click()
    sync_api.expect(mine.locator("#fate")).to_have_count(0)
    laptop.close()
    phone.close()


def test_half_chosen_campaign_orders_are_never_wiped(keeper_url: str, browser: Any, walk: Walk) -> None:
    """Shroudfall: Oathsworn picks two orders; Bloodless gives its orders; Oathsworn's choices stay."""
    from browser_kit import shot

    sync_api.expect.set_options(timeout=TIMEOUT_MS)
    laptop, phone = _devices(browser)
    links = _create(laptop, keeper_url, "wartable-campaign:shroudfall")
    roles = [r for r in links if r != "spectator"]
    oath, blood = laptop.new_page(), phone.new_page()
    oath.goto(links[roles[0]])
    blood.goto(links[roles[1]])
    selects = oath.locator("#orders-form select[data-unit]")
    sync_api.expect(selects.first).to_be_visible()
    drawn = blood.evaluate("""() => [...document.querySelectorAll('svg.region-map text')].map(
        t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)""")
    assert drawn and min(drawn) >= 10, f"the campaign map's text is drawn at {min(drawn):.1f} px on a phone"
    assert oath.locator(".delve-odds").count() + blood.locator(".delve-odds").count() >= 1  # Delve odds first
    walk.check(oath, "campaign orders (laptop)")
    walk.check(blood, "campaign orders (phone)")
    shot(blood, "table-walk-campaign-phone")
    chosen = {}
    for i in range(min(2, selects.count())):
        values = selects.nth(i).evaluate("s => [...s.options].map(o => o.value)")
        selects.nth(i).select_option(values[-1])
        chosen[i] = values[-1]
    blood.locator("#give-orders").click()
    sync_api.expect(oath.locator("#held-update")).to_be_visible()
    time.sleep(2.5)
    for i, value in chosen.items():
        assert selects.nth(i).input_value() == value, "a live update wiped a chosen order"
    shot(oath, "table-walk-campaign-held")
    oath.locator("#give-orders").click()  # the update first, the choices kept
    sync_api.expect(oath.locator("#kept-note")).to_be_visible()
    for i, value in chosen.items():
        assert oath.locator("#orders-form select[data-unit]").nth(i).input_value() == value
    oath.locator("#give-orders").click()
    sync_api.expect(oath.locator("#orders-form")).to_have_count(1)  # the next round's orders
    walk.check(oath, "campaign after the round (laptop)")
    laptop.close()
    phone.close()


def test_the_walk_found_nothing(browser: Any, walk: Walk) -> None:
    """Every fault of the walk at once (tap targets, sideways scroll, odds), after every game was walked (skipped,
    as the walk itself is, where Debian's chromium is not installed: ``browser``)."""
    assert walk.pages >= 10 and walk.measured >= 200
    from browser_kit import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "table-walk-faults.txt").write_text("\n".join(walk.faults) + "\n")
    assert not walk.faults, "\n".join(walk.faults)
