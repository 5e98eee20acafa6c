"""What playing every game by hand in chromium found, measured in the browser (hui's session): Dragon Noir's terrain
names cut by the next row's hexes, Ex illis's unit names broken mid-word on a phone ("Arbalesti|ers"), and the
Battle System's board and actions on one laptop screen. Positions come from ``getBoundingClientRect`` and SVG
``getBBox``; screenshots land in ``test-artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest

from browser_kit import keeper_fixture, new_game_links, page_errors, shot

server = keeper_fixture("hand-play-browser")

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
BOX = "(e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"

#: Each terrain name's box in SVG units, the viewBox, and the box of what the map draws above the name.
TERRAIN_WORDS = """() => {
  const svg = document.querySelector('svg.hexmap'); const vb = svg.viewBox.baseVal;
  const hexes = svg.querySelector('g.hexes'); const words = svg.querySelector('g.terrain-words');
  return {view: [vb.x, vb.y, vb.x + vb.width, vb.y + vb.height],
          after: !!(hexes.compareDocumentPosition(words) & Node.DOCUMENT_POSITION_FOLLOWING),
          inHexes: hexes.querySelectorAll('text').length - hexes.querySelectorAll('g.hex').length,
          words: [...words.querySelectorAll('text')].map(t => { const b = t.getBBox();
            return [t.dataset.hex, t.textContent, b.x, b.y, b.x + b.width, b.y + b.height]; })};
}"""

#: Every unit name whose line breaks inside a word, or whose letters run past its counter.
BROKEN_NAMES = """() => [...document.querySelectorAll('.cname')].flatMap(e => {
  const edge = e.closest('.counter').getBoundingClientRect().right;
  const bad = []; let top = null, prev = ' ';
  const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const b = r.getBoundingClientRect(); const ch = n.data[i];
      if (ch === ' ' || b.width === 0) { prev = ' '; continue; }
      if (top !== null && b.top > top + 2 && prev !== ' ') bad.push(e.textContent.trim() + ': broken before ' + ch);
      if (b.right > edge + .5) bad.push(e.textContent.trim() + ': runs past its counter at ' + ch);
      top = b.top; prev = ch;
    }
  }
  return bad;
})"""


@pytest.mark.parametrize("scenario", ["the_ford", "the_mill_house", "the_dragons_lair"])
def test_dragon_noir_terrain_names_sit_whole_above_the_hexes(server: str, browser: Any, scenario: str) -> None:
    ctx = browser.new_context(**LAPTOP)
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(new_game_links(ctx, server, f"dragonnoir:{scenario}", "3")["A"])
    page.locator("svg.hexmap g.terrain-words").wait_for(state="attached")
    found = page.evaluate(TERRAIN_WORDS)
    shot(page, f"dn-terrain-words-{scenario}")
    left, top, right, bottom = found["view"]
    assert found["after"] and found["inHexes"] == 0  # no name drawn with its hex, under the next row's
    assert len(found["words"]) >= 3
    for hex_, word, x1, y1, x2, y2 in found["words"]:
        assert left <= x1 and x2 <= right and top <= y1 and y2 <= bottom, f"{word} on {hex_} leaves the map"
        assert x2 - x1 <= 34.5, f"{word} on {hex_} is {x2 - x1:.1f} units wide: it runs into the next hexes"
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("scenario", ["hastings", "starter", "skirmish", "forest_fence"])
def test_ex_illis_names_break_between_words_on_a_phone(server: str, browser: Any, scenario: str) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(new_game_links(ctx, server, f"exillis:{scenario}")["spectator"])
    page.locator(".cname").first.wait_for()
    shot(page, f"exillis-names-phone-{scenario}")
    assert page.locator(".cname").count() >= 2
    assert page.evaluate(BROKEN_NAMES) == []
    ctx.close()


@pytest.mark.parametrize("scenario", ["hill_road", "river_crossing"])
def test_a_battle_system_board_leaves_its_actions_on_a_laptops_screen(server: str, browser: Any, scenario: str) -> None:
    """With verifiable dice (no seed: the players' way) the dice line above the title pushed a map of 78 % of the
    screen's height down to its last pixel: the map's own line ("tap a green hex to move") fell below the fold."""
    ctx = browser.new_context(**LAPTOP)
    page = ctx.new_page()
    page.goto(new_game_links(ctx, server, f"battlesystem:{scenario}", "")["A"])
    page.locator(".dice, details").first.wait_for()
    board = page.locator("svg.hexmap").evaluate(BOX)
    assert board[1] > 140  # under the dice line
    assert page.locator(".bs-focus").evaluate(BOX)[3] <= 768, f"the map ends at {board[3]:.0f} px"
    shot(page, f"bs-laptop-dice-{scenario}")
    # a seeded battle: the first of the actions beside the map, and Commit once one is chosen, on the same screen
    page.goto(new_game_links(ctx, server, f"battlesystem:{scenario}", "3")["A"])
    page.locator("#panel").wait_for()
    assert page.locator("svg.hexmap").evaluate(BOX)[3] <= 768
    assert page.locator("#panel form, #panel a.btn.act").first.evaluate(BOX)[3] <= 768
    page.get_by_role("button", name="See it").first.click()
    page.locator("#commit").wait_for()
    assert page.locator("#commit").evaluate(BOX)[3] <= 768
    shot(page, f"bs-laptop-{scenario}")
    ctx.close()
