"""Dragon Noir's web presenter: the battle page draws the hex map as an inline SVG (read as text, no browser).

The map's hexes, walls and door, every character's counter, and for the picked shooter his line of fire to each
enemy: clear, or blocked with what blocks it (the reason of :func:`fire.line_of_fire`, and a cross on the
blocking hex or wall).
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.dragonnoir.data import shipped_sheet
from rulekeeper.rulesets.dragonnoir.fire import line_of_fire
from rulekeeper.rulesets.dragonnoir.state import scene_of
from rulekeeper.web.api import create_app

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/dragonnoir/data/scenarios"
MILL = SCENARIOS / "the_mill_house.yaml"
FORD = SCENARIOS / "the_ford.yaml"


def _page(tmp_path: Path, scenario: Path, role: str = "A", unit: str = "") -> tuple[str, object]:
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=7, db=keeper.store.url), ruleset="dragonnoir")
    page = TestClient(app).get(f"/b/{bid}", params={"token": tokens[role], **({"unit": unit} if unit else {})})
    assert page.status_code == 200, page.text
    return str(page.text), keeper.service.state(bid)


def _svg(html: str) -> str:
    m = re.search(r"<svg class=\"hexmap\".*?</svg>", html, re.S)
    assert m, "no hex map SVG on the page"
    return m.group(0)


def test_the_mill_house_is_drawn_with_its_walls_door_and_every_character(tmp_path: Path) -> None:
    html, _ = _page(tmp_path, MILL)
    svg = _svg(html)
    assert svg.count('<g class="hex t-') == 7 * 5
    assert svg.count('class="edge edge-wall"') == 13 and svg.count('class="edge edge-door"') == 1
    for name in ("Laberne", "Jon", "Goblin 1", "Goblin 2", "Crazy Ork"):
        assert f'data-unit="{name}"' in svg


def test_the_picked_shooters_lines_of_fire_are_the_rules_verdicts(tmp_path: Path) -> None:
    """'Walls block the line of fire.' The page draws each line as fire.line_of_fire judges it, with the reason."""
    html, state = _page(tmp_path, MILL, unit="Laberne")
    svg = _svg(html)
    lines = dict(re.findall(r'<g class="fire-line (clear|blocked)" data-target="([^"]+)"', svg)[i][::-1]
                 for i in range(3))
    scene = scene_of(state)  # type: ignore[arg-type]
    for target, verdict in lines.items():
        lof = line_of_fire(shipped_sheet(), scene, "Laberne", target)
        assert verdict == ("clear" if lof.possible else "blocked"), target
    assert "blocked" in lines.values()
    assert 'class="blocker"' in svg  # the cross on what blocks
    assert "blocked — " in html and "wall" in html


def test_a_horseman_is_drawn_over_his_two_hexes_and_the_ford_map_renders(tmp_path: Path) -> None:
    html, _ = _page(tmp_path, FORD, unit="Grast")
    svg = _svg(html)
    assert svg.count('<g class="hex t-') == 9 * 7
    assert "Grast (side A, mounted) on C3-B3" in svg
    assert 'class="reach-hex"' in svg  # Grast's reach drawn (next movement)


def test_the_spectators_page_and_the_unit_panel(tmp_path: Path) -> None:
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=FORD, seed=7, db=keeper.store.url), ruleset="dragonnoir")
    client = TestClient(app)
    page = client.get(f"/b/{bid}", params={"token": tokens["spectator"], "unit": "Crazy Ork"})
    assert page.status_code == 200 and "Crazy Ork" in page.text
    assert game("dragonnoir").web_presenter() is not None


def test_the_black_dragon_is_drawn_as_its_five_parts(tmp_path: Path) -> None:
    html, _ = _page(tmp_path, SCENARIOS / "the_dragons_lair.yaml")
    svg = _svg(html)
    for part in ("head", "left foreleg", "right foreleg", "tail", "body"):
        assert f'data-unit="Black Dragon {part}"' in svg
    assert "Black Dragon body: move" not in html  # side A moves first: the dragon's steps are B's


def test_the_new_movement_actions_are_grouped_under_the_picked_character(tmp_path: Path) -> None:
    """'A character on foot who passes through a hex where a stunned character is can carry him on his back' and
    'To lead a horse by the bridle, it is enough to make a character ... pass through one of the hexes adjacent to
    those of the horse': the web keeper lists them with the picked character's moves, not as one long list."""
    scenario = tmp_path / "yard.yaml"
    scenario.write_text(
        "ruleset: dragonnoir\nname: The yard\ndescription: test\nwidth: 8\nheight: 5\nturn_limit: 3\n"
        "sides:\n  A: {name: The Exiles}\n  B: {name: The Orks}\nterrain: {}\nedges: []\ncharacters:\n"
        "  Thrug: {at: B3, side: A}\n  Grast: {at: C3, side: A, state: stunned}\n"
        "  Goblin 1: {at: H5, side: B}\n", encoding="utf-8")
    html, _ = _page(tmp_path, scenario, unit="Thrug")
    assert "carry Grast (C3)" in html and "<h3>Thrug: move</h3>" in html
    assert "Goblin 1: move" not in html  # the other side's actions are not listed


def test_summoned_gargoyles_are_drawn_with_their_lifetime(tmp_path: Path) -> None:
    """The Gargoyles: 'They appear when called by a wizard ... They remain only 4 game turns before dematerialising
    again'. On *The gargoyles' call* Zacharie calls them in his movement; the map draws them with their lifetime
    (called during the movement they do not move before their side's next player turn: decision)."""
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    scenario = SCENARIOS / "the_gargoyles_call.yaml"
    for seed in range(1, 40):
        bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=seed, db=keeper.store.url),
                                    ruleset="dragonnoir")
        keeper.service.act(bid, {"kind": "no_spell", "side": "B"})  # Shaman's magic window in A's turn
        keeper.service.act(bid, {"kind": "cast", "side": "A", "unit": "Zacharie", "spell": "Call the Gargoyles",
                                 "target": "Zacharie"})
        state = keeper.service.state(bid)
        if state.pending is not None:  # Shaman may counter: let it be
            keeper.service.act(bid, {"kind": "let_be", "side": "B"})
            state = keeper.service.state(bid)
        if any(m.name == "Gargoyle 1" for m in state.men):
            break
    else:
        raise AssertionError("the Gargoyles never came in 40 seeds")
    page = TestClient(app).get(f"/b/{bid}", params={"token": tokens["A"], "unit": "Gargoyle 1"})
    assert page.status_code == 200, page.text
    svg = _svg(page.text)
    assert 'data-unit="Gargoyle 1"' in svg and "dematerialises after player turn" in svg
    assert "Gargoyle 1 flies to" not in page.text


def test_the_defensive_fire_at_those_who_stood_still_is_owed_on_the_web(tmp_path: Path) -> None:
    """'It is not possible to make a defensive shot against a character who has not yet started to move, unless the
    opposing player does not intend to move him during his turn.' When side A ends its movement, side B's page says
    what it owes and lists the shot and 'No more defensive fire'."""
    scenario = tmp_path / "field.yaml"
    scenario.write_text(
        "ruleset: dragonnoir\nname: The field\ndescription: test\nwidth: 8\nheight: 5\nturn_limit: 3\n"
        "sides:\n  A: {name: The Exiles}\n  B: {name: The Orks}\nterrain: {}\nedges: []\ncharacters:\n"
        "  Thrug: {at: B3, side: A}\n  Laberne: {at: G3, side: B}\n", encoding="utf-8")
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=7, db=keeper.store.url), ruleset="dragonnoir")
    keeper.service.act(bid, {"kind": "end_phase", "side": "A"})
    page = TestClient(app).get(f"/b/{bid}", params={"token": tokens["B"]})
    assert page.status_code == 200, page.text
    assert "did not move" in page.text and "No more defensive fire" in page.text
