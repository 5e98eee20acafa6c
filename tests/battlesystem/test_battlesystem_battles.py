"""Whole-battle rules of the Battle System: movement, barrages next turn, flight, ammunition, the end.

Every rule quoted is from the guide (seed 002); the decisions where it is silent are in
docs/rules/battlesystem.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs_kit import G, act, battle, labels, set_unit

from rulekeeper.core.errors import DataFileError, IllegalActionError, UnknownNameError
from rulekeeper.core.game import SetupRequest
from rulekeeper.rulesets.battlesystem.barrage import barrage_request
from rulekeeper.rulesets.battlesystem.movement import moves

FOOT = ("A", "Light Infantry", "Foot", "A1")
FAR_ENEMY = ("B", "Heavy Infantry", "Shields", "H1")


def test_open_ground_moves_the_full_rating() -> None:
    """"a light infantry unit has a movement rating of 4, this means if they want to move on flat land, they get
    to move up to four hexes\""""
    s = battle([FOOT, FAR_ENEMY])
    assert moves(s, s.piece("Foot")) == {"B1": 1, "C1": 2, "D1": 3, "E1": 4}


def test_a_shallow_river_halves_the_speed() -> None:
    """"Walking up a hill, through a shallow river, or through a dense forest, all give movement rate penalties,
    reducing the speed by half": 4 hexes become 2."""
    river = [[f"{c}1", "shallow river", 0] for c in "BCDEF"]
    s = battle([FOOT, FAR_ENEMY], terrain=river)
    assert moves(s, s.piece("Foot")) == {"B1": 2, "C1": 4}
    forest = battle([FOOT, FAR_ENEMY], terrain=[["B1", "dense forest", 0]])
    assert moves(forest, forest.piece("Foot")) == {"B1": 2, "C1": 3, "D1": 4}


def test_up_one_level_is_slow_up_two_is_impassable() -> None:
    """"When the terrain goes up by two levels instantly, then normal units can't move that way. Otherwise moving
    up by one level is fine but it slows the unit down, reducing their movement rate by half.\""""
    hill = battle([FOOT, FAR_ENEMY], terrain=[["B1", "open", 1], ["C1", "open", 1]])
    assert moves(hill, hill.piece("Foot")) == {"B1": 2, "C1": 3, "D1": 4}  # down again costs 1
    cliff = battle([FOOT, FAR_ENEMY], terrain=[["B1", "open", 2]])
    assert moves(cliff, cliff.piece("Foot")) == {}
    with pytest.raises(IllegalActionError):
        act(cliff, kind="move", unit="Foot", to="B1")


def test_move_attack_move_again_within_the_rating() -> None:
    """"If a unit wishes to move a few hexes, then perform a missile attack, and then move again, then that is
    completely possible.\""""
    s = battle([("A", "Archers", "Bows", "A1"), ("B", "Light Infantry", "Foot", "H1")], seed=3)
    s = act(s, kind="move", unit="Bows", to="B1").state
    out = act(s, kind="shoot", unit="Bows", target="Foot")
    assert labels(out)[0] == "Missile: Bows on Foot"
    s = act(out.state, kind="move", unit="bows", to="e1").state
    assert s.piece("Bows").hex == "E1" and s.piece("Bows").spent == 4
    assert moves(s, s.piece("Bows")) == {}


def test_a_missile_spends_one_ammunition_and_needs_sight() -> None:
    """"the archers lose 1 ammunition"; "the enemy has to be within range and in sight"."""
    units = [("A", "Archers", "Bows", "A1"), ("B", "Light Infantry", "Foot", "D1")]
    s = battle(units, seed=5)
    out = act(s, kind="shoot", unit="Bows", target="Foot")
    assert (s.piece("Bows").ammunition, out.state.piece("Bows").ammunition) == (10, 9)
    wood = battle(units, terrain=[["B1", "dense forest", 0]])
    assert not [lg for lg in G.legal_actions(wood) if lg.action["kind"] == "shoot"]
    hill = battle(units, terrain=[["C1", "open", 1]])  # higher than both ends: hides
    assert not [lg for lg in G.legal_actions(hill) if lg.action["kind"] == "shoot"]
    empty = set_unit(s, "Bows", ammunition=0)
    assert not [lg for lg in G.legal_actions(empty) if lg.action["kind"] == "shoot"]


def test_a_barrage_fires_at_the_start_of_the_next_turn() -> None:
    """"When the hex has been selected, the unit will have to wait until their next turn to fire.\""""
    s = battle([("A", "Artillery", "Guns", "A1"), ("B", "Light Infantry", "Foot", "E1"),
                ("B", "Military Police", "Wardens", "F1")], seed=7)
    chose = act(s, kind="barrage", unit="Guns", hex="E1")
    assert chose.chance == () and chose.state.piece("Guns").barrage == "E1"
    assert moves(chose.state, chose.state.piece("Guns")) == {}  # the guns are laid
    b_turn = act(chose.state, kind="end_turn")
    assert b_turn.chance == () and b_turn.state.to_act == "B"
    assert G.preview(b_turn.state, {"kind": "end_turn", "side": "B"}).draws == (
        barrage_request(b_turn.state.piece("Guns").unit()),)
    fired = act(b_turn.state, kind="end_turn")
    assert labels(fired)[:2] == ["Barrage: Guns", "Morale damage: Guns on Foot"]
    assert "Morale damage: Guns on Wardens" in labels(fired)
    after = fired.state
    assert after.piece("Guns").barrage is None and after.piece("Guns").ammunition == 4
    roll = int(fired.chance[0].outcome)
    assert after.piece("Foot").soldiers == 100 - (roll - 14)
    assert after.piece("Wardens").soldiers == 100 - (roll - 12) // 2


def test_a_barrage_hits_whoever_is_there_when_it_fires() -> None:
    """"the unit doing the barrage attack has to predict enemy movement": a target that moved away is missed."""
    s = battle([("A", "Artillery", "Guns", "A1"), ("B", "Light Infantry", "Foot", "E1")], seed=7)
    s = act(act(s, kind="barrage", unit="Guns", hex="E1").state, kind="end_turn").state
    s = act(s, kind="move", unit="Foot", to="H1").state
    fired = act(s, kind="end_turn")
    assert labels(fired) == ["Barrage: Guns"]
    assert fired.state.piece("Foot").soldiers == 100 and fired.state.piece("Guns").ammunition == 4
    assert any("nobody was there" in r["text"] for r in fired.report)


def test_fleeing_units_run_for_the_edge_and_escape_over_it() -> None:
    """"A unit that has been reduced to 0 morale will be forced to flee toward the edge of the map. Once they've
    gone over, they have escaped from the battle.\"" Under the other readings (issue 25 made own edge and
    end-of-turn flight the defaults: test_battlesystem_issue25_flight.py): the nearest edge, at turn start."""
    units = [("A", "Light Infantry", "Foot", "A1"), ("B", "Heavy Infantry", "Shields", "D3"),
             ("B", "Pikemen", "Pikes", "G5")]
    old = {"flight_timing": "start-of-turn", "flight_edge": "nearest"}
    s = set_unit(battle(units, width=7, height=5, options=old), "Shields", morale=0)
    s = act(s, kind="end_turn").state  # B's turn begins: Shields (movement 2) run two hexes to the edge
    shields = s.piece("Shields")
    assert shields.fleeing and not shields.escaped and shields.hex == "E1"  # two hexes north-east, on the edge
    assert s.board.parse("E1") in s.board.edge_hexes()
    assert not [lg for lg in G.legal_actions(s) if lg.action.get("unit") == "Shields"]
    s = act(act(s, kind="end_turn").state, kind="end_turn").state  # next B turn: over the edge
    assert s.piece("Shields").escaped and not s.piece("Shields").on_map and not s.over
    fast = act(set_unit(battle(units, width=7, height=5, options=old), "Pikes", morale=0, hex="D3", card="Light Infantry"),
               kind="end_turn").state
    assert fast.piece("Pikes").escaped  # 4 points: two to the edge, one to spare to go over


def test_a_side_with_nobody_left_to_fight_loses() -> None:
    """A unit destroyed (or fleeing, or escaped) cannot fight; a side without one that can has lost."""
    for seed in range(20):
        s2 = battle([("A", "Light Infantry", "Foot", "A1"), ("B", "Heavy Infantry", "Shields", "B1")], seed=seed)
        out = act(set_unit(s2, "Shields", soldiers=3), kind="attack", unit="Foot", target="Shields")
        if out.state.piece("Shields").destroyed:
            assert out.state.over and out.state.winner == "A" and G.result(out.state).winner_name == "Reds"
            assert G.status(out.state).to_act == ()
            return
    raise AssertionError("no roll of 5d10-14 above 2 in 20 seeds")


def test_the_turn_limit_decides_by_soldiers_still_able_to_fight() -> None:
    s = battle([FOOT, FAR_ENEMY], turn_limit=2)
    s = act(act(s, kind="end_turn").state, kind="end_turn").state
    assert s.over and s.winner is None and "turn limit (2 turns)" in s.reason
    hurt = set_unit(battle([FOOT, FAR_ENEMY], turn_limit=1), "Shields", soldiers=60)
    assert act(hurt, kind="end_turn").state.winner == "A"


def test_actions_are_read_loosely_and_refused_with_typed_errors() -> None:
    s = battle([FOOT, FAR_ENEMY])
    assert G.parse_words(s, ["move", "foot", "c1"]) == {"kind": "move", "side": "A", "unit": "Foot", "to": "C1"}
    assert G.parse_words(s, ["end"]) == {"kind": "end_turn", "side": "A"}
    assert G.parse_action(s, {"kind": "End Turn"}) == {"kind": "end_turn", "side": "A"}
    with pytest.raises(UnknownNameError):
        G.parse_words(s, ["attack", "Fot", "Shields"])
    with pytest.raises(IllegalActionError):
        act(s, kind="attack", unit="Foot", target="Shields")  # seven hexes away
    with pytest.raises(IllegalActionError):
        G.apply(s, {"kind": "end_turn", "side": "B"})
    assert "rng" not in G.view(s, "A") and G.action_text({"kind": "move", "side": "A", "unit": "Foot", "to": "C1"}) \
        == "Foot moves to C1"
    # played as a user: the spectator's card read "Last action: side B: end turn"
    assert G.action_text({"kind": "end_turn", "side": "B"}) == "side B ends its turn"


def test_a_bad_scenario_lists_every_problem_with_its_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ndescription = "y"\nwidth = 4\nheight = 3\nturn_limit = 10\n'
                   '[sides.A]\nname = "R"\n[sides.B]\nname = "B"\n[hexes]\nZ9 = { terrain = "lava" }\n'
                   'B2 = { terrain = "lava" }\n'
                   '[[units]]\nside = "A"\ntype = "Light Infantry"\nhex = "A1"\n'
                   '[[units]]\nside = "C"\ntype = "Dragons"\nhex = "A1"\n', encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        G.setup(SetupRequest(scenario=bad))
    text = str(err.value)
    assert "bad.toml" in text and "hexes.Z9" in text and "hexes.B2.terrain" in text and "units[1].type" in text
    assert "units: side B has no unit" in text


def test_shipped_scenarios_include_a_river_crossing_with_a_hill() -> None:
    keys = {sc.key: sc for sc in G.scenarios()}
    assert {"river_crossing", "hill_road"} <= set(keys)
    doc = G.setup(SetupRequest(scenario=keys["river_crossing"].path, seed=1)).document
    terrain = doc["scenario"]["terrain"]
    assert sum(1 for _, t, _ in terrain if t == "shallow river") == 6
    assert max(e for _, _, e in terrain) == 2


def test_options_are_kept_in_the_battle_and_bad_ones_refused() -> None:
    """``--option NAME=VALUE`` (options.py) is checked at set-up and kept in the initial document and the state."""
    river = next(sc for sc in G.scenarios() if sc.key == "river_crossing")
    doc = G.setup(SetupRequest(scenario=river.path, seed=1, options=("half_rounding=up",))).document
    assert doc["options"] == {"adjacent_damage": "own-dr", "half_rounding": "up", "failed_attack_morale": "none",
                               "flight_timing": "end-of-turn", "flight_edge": "own", "terrain_combat": "on"}
    assert G.initial_state(doc).rules.halve(19) == 10
    with pytest.raises(UnknownNameError):
        G.setup(SetupRequest(scenario=river.path, options=("half_rounding=sideways",)))
