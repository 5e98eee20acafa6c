"""The SVG board of the picked unit says what the rules say: reach, sight, targets, ranges, barrages.

The board is read as text from the presenter itself (no keeper, no browser): the hexes it lights
must be ``movement.moves``, a sight line is drawn clear exactly when ``actions.in_sight`` is true,
the marked targets are the legal actions', and a pending barrage is drawn for whoever the game's
per-side view shows it to (today both sides: "the Battle System has no hidden information"), never
for a side whose view hides it. The action list holds the picked unit's actions and the unit-less
ones only.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from bs_kit import G, act, battle, set_unit
from markupsafe import Markup

from rulekeeper.core.present import Links
from rulekeeper.rulesets.battlesystem.actions import in_sight, targets
from rulekeeper.rulesets.battlesystem.game import BattleSystem
from rulekeeper.rulesets.battlesystem.movement import moves
from rulekeeper.rulesets.battlesystem.scenario import read_scenario
from rulekeeper.rulesets.battlesystem.state import BattleState, view_of
from rulekeeper.rulesets.battlesystem.web.geometry import outline, view_box
from rulekeeper.rulesets.battlesystem.web.picks import unit_of
from rulekeeper.rulesets.battlesystem.web.presenter import FONT, TEMPLATES, BattleSystemPresenter, tags
from rulekeeper.web.presenters import make_env

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/battlesystem/data/scenarios"
#: Row 2: the archers (A2) look at the Shields (E2) through the forest on C2; the hill D1 (+1) stands between
#: them and the Guns (F1); the Riders (E4) are in the open.
UNITS = [("A", "Light Infantry", "Foot", "B2"), ("A", "Archers", "Bows", "A2"), ("B", "Heavy Infantry", "Shields", "E2"),
         ("B", "Light Cavalry", "Riders", "E4"), ("B", "Artillery", "Guns", "F1")]
TERRAIN: list[list[Any]] = [["C2", "dense forest", 0], ["D3", "shallow river", 0], ["D1", "open", 1]]


def field() -> BattleState:
    return battle(UNITS, width=6, height=4, terrain=TERRAIN)


def presenter(game: Any = G) -> BattleSystemPresenter:
    p = BattleSystemPresenter(game)
    p.bind(make_env({"battlesystem": TEMPLATES}))
    return p


def links(viewer: str, unit: str = "") -> Links:
    return Links("b-test", "tok", 3, viewer, unit)


def attr_set(html: str, cls: str, attr: str = "data-hex") -> set[str]:
    """The ``attr`` of every element whose class list starts with ``cls``."""
    return set(re.findall(rf'class="{cls}[^"]*"[^>]*?{attr}="([^"]+)"', html))


def picked_index(href: str) -> int:
    return int(parse_qs(urlsplit(href.replace("&amp;", "&")).query)["pick"][0])


def test_the_picked_units_reach_is_the_movement_rules_reachable_set() -> None:
    state = field()
    html = presenter().board(state, links("A", "Foot"))
    rules = moves(state, state.piece("Foot"))
    assert len(rules) == 16  # a real search: the river D3 and the forest C2 cost 2, friends and enemies block
    assert attr_set(html, "reach-hex") == set(rules)
    legal = G.legal_actions(state)
    for href, label in re.findall(r'<a class="reach-hex" href="([^"]+)" data-hex="([^"]+)"', html):
        assert legal[picked_index(href)].action == {"kind": "move", "side": "A", "unit": "Foot", "to": label}
    assert html.count('<a class="reach-hex"') == 16 and "unit=Foot" in html


def test_an_enemy_unit_shows_its_next_turn_reach_without_links() -> None:
    state = set_unit(field(), "Riders", spent=3)
    html = presenter().board(state, links("A", "Riders"))
    fresh = moves(state, replace(state.piece("Riders"), spent=0))
    assert attr_set(html, "reach-hex") == set(fresh) and len(fresh) > len(moves(state, state.piece("Riders")))
    assert '<a class="reach-hex"' not in html and "on its next turn" in html
    assert attr_set(html, "mark") == set()  # the enemy's actions are not the viewer's to take


def test_sight_lines_are_the_rules_line_of_sight() -> None:
    state = field()
    html = presenter().board(state, links("A", "Bows"))
    drawn = {t: c == "clear" for c, t in re.findall(r'class="sight-line (clear|blocked)" data-target="([^"]+)"', html)}
    rules = {e: in_sight(state, "A2", state.piece(e).hex) for e in ("Shields", "Riders", "Guns")}
    assert drawn == rules == {"Shields": False, "Riders": True, "Guns": False}
    assert 'stroke-dasharray="5 4"' in html  # a blocked line is dashed


def test_targets_marked_are_the_legal_actions() -> None:
    state = field()
    bows = state.piece("Bows")
    html = presenter().board(state, links("A", "Bows"))
    shot = {p.hex for p in targets(state, bows, "missile")}
    assert shot == {"E4"} and attr_set(html, "mark mark-shoot") == shot
    legal = G.legal_actions(state)
    href = re.search(r'<a class="mark mark-shoot" href="([^"]+)"', html)
    assert href and legal[picked_index(href.group(1))].action["target"] == "Riders"


def test_missile_and_barrage_ranges_outline_the_cards_range() -> None:
    state = field()
    bows = presenter().board(state, links("A", "Bows"))
    assert 'class="range range-missile"' in bows and "range-barrage" not in bows
    guns = presenter().board(state, links("A", "Guns"))
    assert 'class="range range-barrage"' in guns and "range-missile" not in guns
    board = state.board
    n = len(board.within(board.parse("A2"), 6))
    assert f"missile range ({n} hexes)" in bows and n == 24  # the whole 6×4 map
    foot = presenter().board(state, links("A", "Foot"))
    assert "range-" not in foot  # melee only: nothing to outline


def test_a_range_outline_is_the_edges_between_inside_and_outside() -> None:
    board = field().board
    one = outline([board.parse("C2")])
    two = outline([board.parse("C2"), board.parse("D2")])
    ring = outline(board.within(board.parse("C2"), 1))
    assert one.count("M") == 6 and two.count("M") == 10 and ring.count("M") == 18


def _barrage_state() -> BattleState:
    return set_unit(field(), "Guns", barrage="C3", attacked=True)


def test_a_pending_barrage_is_marked_for_its_owner_with_its_half_damage_ring() -> None:
    state = _barrage_state()
    html = presenter().board(state, links("B"))
    assert attr_set(html, "barrage-target") == {"C3"}
    around = {state.board.label(h) for h in state.board.neighbours(state.board.parse("C3"))}
    assert attr_set(html, "barrage-splash") == around and len(around) == 6
    assert "barrage to come" in html


def test_the_other_side_sees_a_barrage_only_if_its_view_holds_it() -> None:
    state = _barrage_state()
    assert [u["barrage"] for u in view_of(state)["units"] if u["name"] == "Guns"] == ["C3"]  # the rules hide nothing
    assert attr_set(presenter().board(state, links("A")), "barrage-target") == {"C3"}

    class Secret(BattleSystem):
        """A variant whose view hides a side's barrages from the other side."""

        def view(self, state: BattleState, role: str) -> dict[str, Any]:
            doc = super().view(state, role)
            for u in doc["units"]:
                if u["side"] != role:
                    u["barrage"] = None
            return doc

    hidden = presenter(Secret())
    for role in ("A", "spectator"):
        html = hidden.board(state, links(role))
        assert 'class="barrage-target"' not in html and 'class="barrage-splash"' not in html
        assert "barrage on C3" not in html and "barrage to come" not in html
    assert attr_set(hidden.board(state, links("B")), "barrage-target") == {"C3"}


def _actions(state: BattleState, unit: str = "") -> Markup:
    legal = G.legal_actions(state)
    return presenter().actions(state, legal, [G.preview(state, lg.action) for lg in legal], links("A", unit))


def test_the_action_list_holds_only_the_picked_units_actions() -> None:
    state = field()
    legal = G.legal_actions(state)
    html = _actions(state, "Bows")
    kinds = re.findall(r'class="btn act" href="[^"]+" data-kind="(\w+)"', html)
    picked = re.findall(r'<option value="\d+" data-kind="(\w+)"', html)  # a unit's many moves: one picker
    mine = [lg for lg in legal if unit_of(lg) in ("Bows", None)]
    assert len(kinds) + len(picked) == len(mine) < len(legal) and kinds.count("shoot") == 1 and kinds[-1] == "end_turn"
    headings = re.findall(r"<h3>([^<]*)</h3>", html)
    assert headings == ["Bows: shoot", "Bows: move", "Turn"]
    assert "Foot: move" not in html and "unit=Bows" in html  # the pick links keep the picked unit
    assert re.findall(r'data-unit="([^"]+)"', html) == ["Foot", "Bows"]  # the short list of units that can act


def test_the_first_unit_is_picked_by_default_then_the_one_already_busy() -> None:
    state = field()
    assert re.findall(r"<h3>([^<]*)</h3>", _actions(state)) == ["Foot: move", "Turn"]
    moved = act(state, kind="move", unit="Bows", to="A3").state
    assert re.findall(r"<h3>([^<]*)</h3>", _actions(moved))[0].startswith("Bows: ")
    enemy = _actions(state, "Shields")  # an enemy picked: its card line, no actions but the turn's
    assert re.findall(r"<h3>([^<]*)</h3>", enemy)[-1] == "Turn" and "Not one of your units" in enemy
    assert not re.findall(r'data-kind="move"', enemy)


def test_counter_text_is_at_least_11_css_px_on_a_390_px_phone() -> None:
    """The map fills the phone's width less the page's margins (2 × .3rem); counters use :data:`FONT` units."""
    for name in ("river_crossing", "hill_road"):
        sc = read_scenario(SCENARIOS / f"{name}.yaml")
        width = float(view_box(int(sc["width"]), int(sc["height"])).split()[2])
        assert FONT * (390 - 2 * 4.8) / width >= 11, (name, width)


def test_counter_tags_are_unique_in_the_shipped_battles() -> None:
    for name in ("river_crossing", "hill_road"):
        doc = {"ruleset": "battlesystem", "scenario": read_scenario(SCENARIOS / f"{name}.yaml"), "seed": 1}
        state = G.initial_state(doc)
        short = tags(state)
        assert len(set(short.values())) == len(state.units) and all(len(t) <= 3 for t in short.values()), short


def test_counter_tags_are_initials_told_apart_by_a_letter_more() -> None:
    state = battle([("A", "Light Infantry", "Clan Shields", "A1"), ("A", "Archers", "Clan Seers", "B1"),
                    ("B", "Heavy Infantry", "Captain of the Ford", "E1"), ("B", "Light Cavalry", "Axe", "F1"),
                    ("B", "Light Infantry", "Red Fox One", "D1"), ("B", "Light Infantry", "Red Fox Owl", "C1")])
    assert tags(state) == {"Clan Shields": "CSh", "Clan Seers": "CSe", "Captain of the Ford": "CF", "Axe": "Axe",
                           "Red Fox One": "b3", "Red Fox Owl": "b4"}  # "RFOn"/"RFOw" are too long: the text-map marks


def test_a_board_off_the_live_page_offers_no_actions() -> None:
    """A replayed board (no ``viewer``) or one shown before hidden results (a caption) links no action: its
    ``?pick=`` indices would point into the current battle's list, not the one drawn."""
    state = field()
    replayed = presenter().board(state, Links("b-test", "tok", 3))
    assert 'class="reach-hex"' not in replayed and 'class="counter side-A active picked"' not in replayed
    before = presenter().board(state, links("A", "Foot"), caption="Before: Foot move to B3")
    assert attr_set(before, "reach-hex") == set(moves(state, state.piece("Foot")))  # the picture stays
    assert '<a class="reach-hex"' not in before and "pick=" not in before
