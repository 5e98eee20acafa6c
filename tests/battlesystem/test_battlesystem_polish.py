"""What a walk through the web keeper found in the Battle System's own words and odds, kept from coming back.

* laying a barrage showed no odds: its damage only appeared later, collapsed, in the other side's
  End-turn preview;
* a refused action read "not legal now: {'kind': 'move', …}" (a Python dict);
* the log wrote "Raiders's next turn".
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from bs_kit import G, act, battle

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import OddsPreview
from rulekeeper.core.wording import possessive
from rulekeeper.rulesets.battlesystem.odds import barrage_odds
from rulekeeper.rulesets.battlesystem.state import BattleState

#: The guide's barrage example: "Artillery unit targets a hex with a unit of light infantry on it and military
#: police unit adjacent to it" (A1 → E1, E1 and F1 adjacent; the artillery's range is 10).
EXAMPLE = [("A", "Artillery", "Guns", "A1"), ("B", "Light Infantry", "Foot", "E1"),
           ("B", "Military Police", "Police", "F1")]


def example() -> BattleState:
    return battle(EXAMPLE)


def mean(dist: dict[int, Fraction]) -> float:
    return float(sum(o * p for o, p in dist.items()))


def test_laying_a_barrage_shows_its_odds_if_the_units_stay() -> None:
    """"When the hex has been selected, the unit will have to wait until their next turn to fire." and "The unit on
    the targeted hex will take all of the damage and if there are units on adjacent hexes, then they will take half
    of that." The preview, when the hex is chosen, gives each unit's odds as if nobody moves, and says when it lands.
    """
    state = example()
    action = {"kind": "barrage", "side": "A", "unit": "Guns", "hex": "E1"}
    preview = G.preview(state, action)
    head = dict(preview.headline)
    assert preview.draws == ()  # laying it draws nothing: the roll is drawn when it lands
    assert head["lands"] == "at the start of Reds' next turn"
    assert head["hits"] == "whoever then stands on E1 (in full) and next to it (half); below, if nobody moves"
    guns, foot, police = (state.piece(n).unit() for n in ("Guns", "Foot", "Police"))
    exact = {o.unit: o for o in barrage_odds(guns, foot, [police], 0, state.rules)}
    assert head["Foot (on E1): expected casualties"] == f"{mean(exact['Foot'].casualties):.1f}"
    assert head["Police (next to it): expected casualties"] == f"{mean(exact['Police'].casualties):.1f}"
    flee = float(sum(p for o, p in exact["Foot"].morale.items() if o >= foot.morale))
    assert head["Foot flee"] == pytest.approx(flee)
    # the full hit on the hex and half next to it: 5d10+15 averages 42.5, so 28.5 on DR 14, half of 30.5 on DR 12
    assert (head["Foot (on E1): expected casualties"], head["Police (next to it): expected casualties"]) == (
        "28.5", "15.0")
    assert head["roll"] == "5d10+15, minus each unit's DR"


def test_the_units_the_preview_names_are_the_ones_the_barrage_hits_when_nobody_moves() -> None:
    """"Both units don't move on their turn and the artillery unit rolls a 5d10+15+0-14": the landing hits the
    units the preview named, on the hex and next to it."""
    state = example()
    head = dict(G.preview(state, {"kind": "barrage", "side": "A", "unit": "Guns", "hex": "E1"}).headline)
    named = {k.split(" (")[0] for k in head if "expected casualties" in k}
    state = act(state, kind="barrage", unit="Guns", hex="E1").state
    state = act(state, kind="end_turn").state
    landed = act(state, kind="end_turn")  # the Blues end their turn without moving: the barrage lands
    hits = [line["text"] for line in landed.report if "(on the hex)" in line["text"] or "(adjacent)" in line["text"]]
    assert named == {"Foot", "Police"} and len(hits) == 2
    assert hits[0].startswith("  Foot (on the hex)") and hits[1].startswith("  Police (adjacent)")


def test_an_empty_hex_says_nobody_stands_there_and_an_own_unit_is_marked() -> None:
    empty = dict(G.preview(example(), {"kind": "barrage", "side": "A", "unit": "Guns", "hex": "C1"}).headline)
    assert empty["now"] == "nobody is on C1 or next to it"
    state = battle([*EXAMPLE, ("A", "Pikemen", "Pikes", "D1")])
    hit = dict(G.preview(state, {"kind": "barrage", "side": "A", "unit": "Guns", "hex": "E1"}).headline)
    assert "Pikes (next to it, yours): expected casualties" in hit


def test_a_refused_action_is_said_in_the_games_words_not_as_a_dict() -> None:
    state = example()
    with pytest.raises(IllegalActionError) as refused:
        G.apply(state, {"kind": "move", "side": "A", "unit": "Guns", "to": "H1"})
    assert refused.value.message == "not legal now: Guns moves to H1 (see the legal actions)"
    assert "{" not in refused.value.message


def test_side_names_ending_in_s_take_a_bare_apostrophe() -> None:
    state = example()
    laid = act(state, kind="barrage", unit="Guns", hex="E1")
    assert laid.report[0]["text"].endswith("it fires at the start of Reds' next turn")
    with pytest.raises(IllegalActionError, match="it is Reds' turn"):
        G.apply(state, {"kind": "end_turn", "side": "B"})
    assert (possessive("Raiders"), possessive("Riverguard")) == ("Raiders'", "Riverguard's")


def test_a_move_says_its_cost_once_as_dragon_noirs_moves_do() -> None:
    """hweb: the phone's move list read "→ B1 — movement points left after this move 3 · 1 of 4 points left";
    then "→ A1 — movement points left after this move: 2 · costs 2 of 4 points left", which the phone's picker cut
    after 30 characters, before any figure. A move draws nothing: its note says its cost, as Dragon Noir's
    moves' notes do ("costs 1 of 7 points"), and it has no headline to say it again."""
    from bs_kit import G, battle

    s = battle([("A", "Light Infantry", "Foot", "A1"), ("B", "Light Infantry", "Foes", "H1")])
    listed = {lg.action["to"]: lg for lg in G.legal_actions(s) if lg.action["kind"] == "move"}
    assert (listed["B1"].note, listed["C1"].note) == ("costs 1 of 4 points", "costs 2 of 4 points")
    assert (listed["B1"].cost, listed["C1"].cost) == (1.0, 2.0)
    assert G.preview(s, listed["C1"].action) == OddsPreview()