"""The Battle System's own web presenter: the battle page draws the hex map as an inline SVG.

The generic presenter printed the view as nested lists; a player needs the hexes, terrain and
counters. These tests read the page as text (no browser): the SVG, its 48 hexes of the 8×6
river crossing, each unit's name and link, the picked unit's actions, and that a hostile name
from a scenario is escaped. ``test_battlesystem_board_svg.py`` checks the overlay against the rules.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.boards.hexes import Hex, hex_centre, hex_corners, offset_to_hex
from rulekeeper.core.game import SetupRequest
from rulekeeper.rulesets.battlesystem.scenario import read_scenario
from rulekeeper.web.api import create_app

RIVER = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/battlesystem/data/scenarios/river_crossing.yaml"
UNITS = ("Riverguard Foot", "Ford Pikes", "Bank Archers", "Old Guard", "Raider Horse")


def _page(tmp_path: Path, scenario: Path, unit: str = "") -> str:
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=7, db=keeper.store.url), ruleset="battlesystem")
    page = TestClient(app).get(f"/b/{bid}", params={"token": tokens["A"], **({"unit": unit} if unit else {})})
    assert page.status_code == 200, page.text
    return str(page.text)


def _svg(html: str) -> str:
    m = re.search(r"<svg class=\"hexmap\".*?</svg>", html, re.S)
    assert m, "no hex map SVG on the page"
    return m.group(0)


def test_the_river_crossing_is_drawn_as_48_hexes_with_every_unit(tmp_path: Path) -> None:
    html = _page(tmp_path, RIVER)
    svg = _svg(html)
    assert svg.count('<g class="hex t-') == 48 == len(re.findall(r'<polygon [^>]*stroke="#6b6250"', svg))
    assert 'viewBox="' in svg and "width:100%" in svg
    for label in ("A1", "C4", "H6"):
        assert f">{label}</text>" in svg
    assert "+2</text>" in svg and 'fill="#9cc8e6"' in svg  # the hill G3 and the river
    for name in UNITS:
        assert name in svg
    side_a = sum(1 for u in read_scenario(RIVER)["units"] if u["side"] == "A")
    assert len(re.findall(r'class="counter side-A active(?: picked)?"', svg)) == side_a  # side A acts first: ringed
    assert svg.count(" picked\"") == 1  # the first unit that can act is picked by default
    assert "unit=Ford+Pikes" in svg  # counters pick their unit (the keeper's unit-panel link)


def test_the_unit_panel_shows_the_card(tmp_path: Path) -> None:
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=RIVER, seed=7, db=keeper.store.url), ruleset="battlesystem")
    page = TestClient(app).get(f"/b/{bid}", params={"token": tokens["B"], "unit": "Old Guard"})
    assert page.status_code == 200 and "Heavy Infantry" in page.text and "Damage reduction" in page.text


def test_a_hostile_unit_name_is_escaped(tmp_path: Path) -> None:
    hostile = '<script>alert("x")</script>&'
    text = RIVER.read_text(encoding="utf-8").replace("name: Old Guard,", f"name: '{hostile}',")
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    html = _page(tmp_path, path)
    assert "<script>alert(" not in html
    assert "&lt;script&gt;alert(" in _svg(html)


def test_hex_centres_make_odd_rows_shift_half_a_hex_east() -> None:
    size = 10.0
    a1, a2, b1 = (hex_centre(offset_to_hex(c, r), size) for c, r in ((0, 0), (0, 1), (1, 0)))
    assert a1 == (0.0, 0.0) and abs(b1[0] - 2 * a2[0]) < 1e-9 and a2[1] == 15.0
    corners = hex_corners(hex_centre(Hex(0, 0), size), size)
    assert len(corners) == 6 and all(abs((x * x + y * y) ** 0.5 - size) < 1e-9 for x, y in corners)


def test_the_action_list_shows_the_picked_unit_under_headings_that_name_it(tmp_path: Path) -> None:
    """A bare "→ A1" does not say which unit moves: each group is headed "<unit>: <kind>". Only the picked
    unit's groups are listed (the first that can act by default; ``?unit=`` picks another)."""
    html = _page(tmp_path, RIVER)
    headings = re.findall(r"<h3>([^<]*)</h3>", html)
    assert headings == ["Riverguard Foot: move", "Turn"], headings
    html = _page(tmp_path, RIVER, unit="Bank Archers")
    headings = re.findall(r"<h3>([^<]*)</h3>", html)
    assert headings == ["Bank Archers: shoot", "Bank Archers: move", "Turn"], headings
    archers = html.split("<h3>Bank Archers: shoot</h3>", 1)[1].split("</ul>", 1)[0]
    assert "→ Raider Horse" in archers
    moves = html.split("<h3>Bank Archers: move</h3>", 1)[1].split("</form>", 1)[0]
    # a unit's many moves are one picker (issue 26), not thirty buttons
    assert re.search(r'<option value="\d+" data-kind="move">→ [A-H]\d — [^<]+</option>', moves), moves
    svg = _svg(html)
    assert 'class="range range-missile"' in svg and svg.count('<a class="reach-hex"') == moves.count("<option")
