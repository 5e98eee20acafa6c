"""The owner taps a highlighted hex to choose where his retreating character goes (issue 24, point 5).

A battle on a small field (Thrug against two goblins) is set up and played through the keeper's own service until a
combat throws Goblin 1 back one hex; then the Goblins' player, on a 390×844 phone and again on a 1366×900 laptop,
sees the legal retreat hexes highlighted on the map (the keeper's proposal among them) and taps another one: the
goblin stands there, and the Exiles' page shows it. Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_kit import page_errors, shot, sync_api
from live_keeper import running_keeper
from rulekeeper.core.game import SetupRequest
from rulekeeper.web.api import create_app

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
FIELD = """ruleset: dragonnoir
name: The retreat
description: Thrug against two goblins.
width: 7
height: 5
turn_limit: 5
sides:
  A: {name: The Exiles}
  B: {name: The Goblins}
terrain: {}
edges: []
characters:
  Thrug: {at: C3, side: A}
  Goblin 1: {at: D3, side: B}
  Goblin 2: {at: G1, side: B}
"""


@pytest.fixture(scope="module")
def keeper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    folder = tmp_path_factory.mktemp("dn-place")
    (folder / "the_retreat.yaml").write_text(FIELD, encoding="utf-8")
    with running_keeper(folder / "web.db") as url:
        yield url, folder / "web.db", folder / "the_retreat.yaml"


def _retreating(db: Path, scenario: Path) -> tuple[str, dict[str, str]]:
    """A battle where Goblin 1 has just been thrown back and his player owes where he goes."""
    k = create_app(db).state.keeper
    for seed in range(1, 200):
        bid, tokens = k.create(SetupRequest(scenario=scenario, seed=seed, db=k.store.url), ruleset="dragonnoir")
        k.service.act(bid, {"kind": "end_phase", "side": "A"})  # nobody shoots: the movement ends
        k.service.act(bid, {"kind": "attack", "side": "A", "units": ["Thrug"], "targets": ["Goblin 1"]})
        state = k.service.state(bid)
        if state.placing:
            return bid, tokens
    raise AssertionError("no retreat in 200 seeds")


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_the_goblins_player_taps_a_highlighted_hex_to_place_his_retreat(
        keeper: tuple[str, Path, Path], browser: object, viewport: dict[str, int], name: str) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    url, db, scenario = keeper
    bid, tokens = _retreating(db, scenario)
    ctx = browser.new_context(viewport=viewport, **({"is_mobile": True, "has_touch": True} if name == "phone"  # type: ignore[attr-defined]
                                                   else {}))
    page = ctx.new_page()
    errors = page_errors(page)
    page.goto(f"{url}/b/{bid}?token={tokens['B']}")
    marks = page.locator("svg.hexmap a.mark[data-kind=place]")
    expect(marks.first).to_be_visible()
    assert marks.count() >= 2
    expect(page.locator("body")).to_contain_text("Goblin 1 retreats: tap one of the highlighted hexes")
    now = page.locator("svg.hexmap a.counter[data-unit='Goblin 1'] title").text_content() or ""
    spots = [marks.nth(i).get_attribute("data-hex") for i in range(marks.count())]
    to = next(h for h in spots if f" on {h}:" not in now)  # not the keeper's proposal
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"dn-retreat-choice-{name}")
    page.locator(f"svg.hexmap a.mark[data-kind=place][data-hex='{to}']").click()
    expect(page.locator("#commit")).to_be_visible()
    page.locator("#commit").click()
    page.wait_for_load_state()
    expect(page.locator("svg.hexmap a.counter[data-unit='Goblin 1'] title")).to_contain_text(f" on {to}:")
    other = ctx.new_page()
    other.goto(f"{url}/b/{bid}?token={tokens['A']}")
    expect(other.locator("svg.hexmap a.counter[data-unit='Goblin 1'] title")).to_contain_text(f" on {to}:")
    shot(page, f"dn-retreat-placed-{name}")
    assert not errors, errors
    ctx.close()
