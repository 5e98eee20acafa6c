"""Issue 25, points 6 and 9: when a broken unit runs, and where to.

The guide: "A unit that has been reduced to 0 morale will be forced to flee toward the edge of the map. Once
they've gone over, they have escaped from the battle. Other units will be able to pursue them and their general
will be able to rally them back into the fight." Readings in docs/rules/battlesystem.md, "Options" and "Fleeing".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs_kit import G, act, battle, set_unit

from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.battlesystem.scenario import home_edges, read_scenario
from rulekeeper.rulesets.battlesystem.state import BattleState

# A broken Foot next to its own (west) edge, its general two hexes away; the Blues' turn is ending.
UNITS = [("A", "General", "Chief", "D2"), ("A", "Light Infantry", "Foot", "B2"), ("A", "Pikemen", "Pikes", "C1"),
         ("B", "Heavy Infantry", "Shields", "H2"), ("B", "Pikemen", "Wall", "H3")]


def broken_in_the_enemy_turn(**options: str) -> BattleState:
    from dataclasses import replace

    s = set_unit(battle(UNITS, height=3, options=options), "Foot", morale=0)
    return replace(s, to_act="B")


def test_the_fault_a_broken_unit_ran_off_before_its_general_could_act() -> None:
    """Issue 25 (6): "A broken unit runs at the start of its own side's turn and is usually off the map before its
    general can act". Kept as the option `flight_timing=start-of-turn`: the Foot is over the edge, no rally."""
    out = act(broken_in_the_enemy_turn(flight_timing="start-of-turn"), kind="end_turn")
    assert out.state.piece("Foot").escaped
    assert not [lg for lg in G.legal_actions(out.state) if lg.action["kind"] == "rally"]


def test_a_general_rallies_a_broken_unit_before_it_runs() -> None:
    """Default `flight_timing=end-of-turn` ("their general will be able to rally them back into the fight"): the
    Foot broken in the Blues' turn is still on B2 when the Reds' turn begins; the Chief rallies it; it stays."""
    s = act(broken_in_the_enemy_turn(), kind="end_turn").state
    foot = s.piece("Foot")
    assert (foot.hex, foot.fleeing, foot.escaped) == ("B2", True, False)
    assert G.policy(s) == {"kind": "rally", "side": "A", "unit": "Chief", "target": "Foot"}
    out = act(s, kind="rally", unit="Chief", target="Foot")
    assert 3 <= out.state.piece("Foot").morale <= 30
    after = act(out.state, kind="end_turn").state
    assert after.piece("Foot").hex == "B2" and not after.piece("Foot").escaped and after.piece("Foot").morale > 0


def test_a_broken_unit_not_rallied_runs_when_its_side_ends_the_turn() -> None:
    """Docs: "a fleeing unit runs when its side ends its turn (after its general could rally it)"."""
    s = act(broken_in_the_enemy_turn(), kind="end_turn").state
    out = act(s, kind="end_turn")
    assert out.state.piece("Foot").escaped
    assert any(line["text"] == "Foot flee through A2 and escape over the edge" for line in out.report)


def test_a_general_out_of_reach_rides_up_then_rallies() -> None:
    """The policy rides toward a fleeing friend and rallies it in the same turn (6 hexes' ride, rally range 3)."""
    s = set_unit(act(broken_in_the_enemy_turn(), kind="end_turn").state, "Chief", hex="H1")
    first = G.policy(s)
    assert first["kind"] == "move" and first["unit"] == "Chief"
    s = G.apply(s, first).state
    assert G.policy(s) == {"kind": "rally", "side": "A", "unit": "Chief", "target": "Foot"}


def test_the_fault_fleeing_units_ran_for_the_enemy_edge() -> None:
    """Issue 25 (9): "Fleeing units run for the nearest edge, even the enemy's". Kept as `flight_edge=nearest`: a
    broken Reds unit on G2 (the Reds' edge is the west) goes over the east edge, through the enemy's side."""
    units = [("A", "Light Infantry", "Foot", "G2"), ("A", "Pikemen", "Pikes", "A1"), ("B", "Pikemen", "Wall", "H1")]
    s = set_unit(battle(units, height=3, options={"flight_edge": "nearest"}), "Foot", morale=0)
    out = act(s, kind="end_turn")
    assert out.state.piece("Foot").escaped
    assert "Foot flee through H2 and escape over the edge" in [line["text"] for line in out.report]


def test_fleeing_units_run_for_their_own_edge() -> None:
    """Default `flight_edge=own`: *"forced to flee toward the edge of the map"* read as their own edge, the way home.
    The Foot on G2 runs west, its 4 points (D2 is no river here) taking it to C2, not over the east edge."""
    units = [("A", "Light Infantry", "Foot", "G2"), ("A", "Pikemen", "Pikes", "A1"), ("B", "Pikemen", "Wall", "H1")]
    s = set_unit(battle(units, height=3), "Foot", morale=0)
    assert s.home == ("west", "east")
    out = act(s, kind="end_turn")
    foot = out.state.piece("Foot")
    assert (foot.hex, foot.escaped) == ("C2", False)
    assert "Foot flee to C2 (through F2, E2, D2, C2)" in [line["text"] for line in out.report]
    # next time its side ends its turn it reaches A2 with a point to spare and goes over
    s = act(act(out.state, kind="end_turn").state, kind="end_turn").state
    assert s.piece("Foot").escaped


def test_each_side_owns_the_edge_behind_it() -> None:
    """Docs: a scenario may name each side's edge (`[sides.A] edge = "west"`); else the sides face each other
    along the axis they stand furthest apart on, and each owns the edge behind it."""
    units = [{"side": "A", "hex": "C1"}, {"side": "A", "hex": "D2"}, {"side": "B", "hex": "C6"}]
    assert home_edges(8, 6, units) == {"A": "north", "B": "south"}
    assert home_edges(8, 6, [{"side": "A", "hex": "H3"}, {"side": "B", "hex": "A3"}]) == {"A": "east", "B": "west"}
    for sc in G.scenarios():
        assert read_scenario(sc.path)["edges"] == {"A": "west", "B": "east"}, sc.key


def test_a_scenario_edge_must_be_one_of_four_and_given_for_both(tmp_path: Path) -> None:
    text = ('name = "x"\ndescription = "x"\nwidth = 4\nheight = 2\nturn_limit = 5\n[sides.A]\nname = "a"\n'
            'edge = "up"\n[sides.B]\nname = "b"\n[[units]]\nside = "A"\ntype = "Pikemen"\nhex = "A1"\n'
            '[[units]]\nside = "B"\ntype = "Archers"\nhex = "D2"\n')
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_scenario(p)
    problems = "\n".join(err.value.problems)
    assert "sides.A.edge: one of west, east, north, south is required, got 'up'" in problems
    assert "give both sides an edge, or neither" in problems
