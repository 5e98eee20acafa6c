"""Confrontation's own web presenter: the battle page draws the skirmish table as an inline SVG in cm.

Read as text (no browser): the table to scale, the obstacle, every base with its front arc, the picked
fighter's walking and charge reach circles, a line to every enemy with its measured distance (tappable when
the charge is legal), the walk destinations, his actions only, his card; and a hostile name is escaped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.core.game import SetupRequest
from rulekeeper.web.api import create_app

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"
FORD = SCENARIOS / "the_ford.yaml"


def _battle(tmp_path: Path, scenario: Path = FORD) -> tuple[TestClient, str, dict[str, str], object]:
    """A battle past its first Tactical roll, its winner having chosen that the Lions (A) act first."""
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=7, db=keeper.store.url), ruleset="confrontation")
    client = TestClient(app)
    for body in ({"kind": "tactical"}, {"kind": "lead", "first": "A"}):
        for role in ("A", "B"):
            doc = client.get(f"/api/battles/{bid}", params={"token": tokens[role]}).json()
            r = client.post(f"/api/battles/{bid}/actions", params={"token": tokens[role]},
                            json={**body, "position": doc["position"]})
            if r.status_code == 200:
                break
        assert r.status_code == 200, r.text
    return client, bid, tokens, keeper


def _svg(html: str) -> str:
    m = re.search(r"<svg class=\"cftable\".*?</svg>", html, re.S)
    assert m, "no table SVG on the page"
    return m.group(0)


def test_the_ford_is_drawn_to_scale_with_every_base_and_arc(tmp_path: Path) -> None:
    client, bid, tokens, _ = _battle(tmp_path)
    html = client.get(f"/b/{bid}", params={"token": tokens["A"]}).text
    svg = _svg(html)
    assert 'viewBox="0 0 400.0 300.0"' in svg  # 40 x 30 cm at 10 units a cm
    assert svg.count('class="obstacle"') == 1 and "the boulder" in svg
    assert svg.count('<path class="front-arc"') == 5 and svg.count('<a class="base side-') == 5
    # the hunter at (34, 22) cm: SVG (340, 80), y down; a Large base of 1.875 cm
    assert re.search(r'cx="340.0" cy="80.0" r="18.75"', svg)
    assert 'class="move-reach"' in svg and 'r="100.0"' in svg and 'r="200.0"' in svg  # MOV 10, charge 20
    picked = re.findall(r'class="base side-A picked[^"]*" href="[^"]*" data-fighter="([^"]+)"', svg)
    assert picked == ["Alahan swordsman"]  # the first fighter who can act
    lines = re.findall(r'class="charge-line (in-reach|out-of-reach)"[^>]*data-target="([^"]+)" data-cm="([^"]+)"', svg)
    assert {(t, cm) for _, t, cm in lines} == {("Wolfen hunter", "25.9"), ("Wolfen predator", "29.1")}
    assert all(kind == "out-of-reach" for kind, _, _ in lines)
    assert "25.9 cm</text>" in svg and svg.count('<a class="walk"') == 2


def test_a_charge_in_reach_is_a_tappable_line_and_the_actions_are_the_picked_fighters(tmp_path: Path) -> None:
    client, bid, tokens, keeper = _battle(tmp_path)
    a = {"token": tokens["A"]}
    pos = client.get(f"/api/battles/{bid}", params=a).json()["position"]
    r = client.post(f"/api/battles/{bid}/actions", params=a,
                    json={"kind": "move", "fighter": "Alahan guard", "to": "14.6,21.5", "position": pos})
    assert r.status_code == 200, r.text
    assert "rng" not in json.dumps(r.json())
    html = client.get(f"/b/{bid}", params={"token": tokens["B"], "unit": "Wolfen hunter"}).text
    svg = _svg(html)
    inreach = re.findall(r'<a class="charge-line in-reach" href="([^"]+)" data-target="([^"]+)" data-cm="([^"]+)"', svg)
    # the guard stands in the straight way to the swordsman: the hunter's charge goes around him (issue 24, point 9)
    assert [(t, cm) for _, t, cm in inreach] == [("Alahan swordsman", "25.9"), ("Alahan guard", "16.3")]
    assert "pick=" in inreach[1][0]
    actions = re.search(r'<div class="actions cf-actions">.*?</div>', html, re.S)
    assert actions is not None
    text = actions.group(0)
    assert "Wolfen hunter charges Alahan guard (16.3 cm)" in text and "Wolfen predator walks" not in text
    assert "Wolfen hunter charges Alahan swordsman (26.4 cm)" in text  # edge to edge 25.9 cm, the run around 26.4
    assert 'data-kind="charge"' in text and 'data-fighter="Wolfen predator"' in text


def test_the_unit_panel_shows_the_card(tmp_path: Path) -> None:
    client, bid, tokens, _ = _battle(tmp_path)
    page = client.get(f"/b/{bid}", params={"token": tokens["B"], "unit": "Wolfen hunter"})
    assert page.status_code == 200 and "Brutal, Ferocious" in page.text and "example card, estimated" in page.text


def test_a_hostile_fighter_name_is_escaped(tmp_path: Path) -> None:
    hostile = '<script>alert(1)</script>'
    text = FORD.read_text(encoding="utf-8").replace("{side: B, card: Wolfen hunter,",
                                                    f"{{side: B, name: '{hostile}', card: Wolfen hunter,")
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    client, bid, tokens, _ = _battle(tmp_path, path)
    html = client.get(f"/b/{bid}", params={"token": tokens["A"]}).text
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in _svg(html)


def test_a_skirmish_is_listed_and_plays_through_the_api(tmp_path: Path) -> None:
    client, bid, tokens, _ = _battle(tmp_path)
    keys = [s["key"] for s in client.get("/api/scenarios").json()]
    assert {"confrontation:the_ford", "confrontation:ruined_wall"} <= set(keys)
    assert client.post("/new", data={"scenario": "confrontation:ruined_wall", "seed": "4"}).status_code == 201
    bad = client.post(f"/api/battles/{bid}/actions", params={"token": tokens["A"]},
                      json={"kind": "move", "fighter": "Alahan guard", "to": "39,15", "position": 2})
    assert bad.status_code in (400, 409, 422) and "beyond his MOV" in bad.text


def test_the_fate_screen_of_a_fight_lists_every_blow(tmp_path: Path) -> None:
    from rulekeeper.core.ruleset import game

    presenter = game("confrontation").web_presenter()
    lines = presenter.log_lines([{"text": "A fights B: A: 4 HP; B: killed", "kind": "fight",
                                  "lines": ["A wins initiative and attacks first", "A attacks B (ATT 9): hit Light"]}])
    assert lines == ["A fights B: A: 4 HP; B: killed", "· A wins initiative and attacks first",
                     "· A attacks B (ATT 9): hit Light"]


def test_an_engaged_fighter_shows_no_reach(tmp_path: Path) -> None:
    client, bid, tokens, _ = _battle(tmp_path)
    for role, body in (("A", {"kind": "move", "fighter": "Alahan guard", "to": "14.6,21.5"}),
                       ("B", {"kind": "charge", "fighter": "Wolfen hunter", "target": "Alahan guard"})):
        pos = client.get(f"/api/battles/{bid}", params={"token": tokens[role]}).json()["position"]
        r = client.post(f"/api/battles/{bid}/actions", params={"token": tokens[role]}, json={**body, "position": pos})
        assert r.status_code == 200, r.text
    html = client.get(f"/b/{bid}", params={"token": tokens["A"], "unit": "Alahan guard"}).text
    svg = _svg(html)
    assert 'class="move-reach"' not in svg and 'data-target="Wolfen hunter"' not in svg
    assert 'data-target="Wolfen predator"' in svg  # still measured
    assert "engaged with Wolfen hunter; he fights in the combat phase" in html
