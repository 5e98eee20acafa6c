"""Issue 24, points 4 and 5: Cry Havoc's retreat rules, and the owner's choice of where his piece goes.

Cry Havoc's combat key (the game's published ancestor, docs/rules/dragonnoir.md "Sources"): "B attacker retreats 1
hex, C defender retreats 1 hex, D defender stunned, E defender wounded, F defender killed"; "a stunned character
forced to retreat dies"; "one who cannot retreat legally is wounded instead". The seed: the unhorsed horseman "is
placed by the player to whom he belongs on one of the hexes adjacent to his horse".
"""

from __future__ import annotations

from dn_game_kit import G, act, battle, legal, man, set_man

from rulekeeper.rulesets.dragonnoir.action_types import ACTIONS
from rulekeeper.rulesets.dragonnoir.data import shipped_sheet
from rulekeeper.rulesets.dragonnoir.harm import hurt, retreat_moves
from rulekeeper.rulesets.dragonnoir.policy import choose
from rulekeeper.rulesets.dragonnoir.state import DNState, Man


def _pair() -> DNState:
    return battle([man("Thrug", "A", "D3"), man("Goblin 1", "B", "E3"), man("Goblin 2", "B", "H1")])


def test_the_combat_key_is_cry_havocs() -> None:
    key = shipped_sheet().combat.keys["foot"]
    assert (key["B"].attacker, key["C"].defender, key["D"].defender, key["E"].defender, key["F"].defender) == (
        "retreat", "retreat", "stunned", "wounded", "killed")


def test_a_retreat_goes_only_farther_from_the_enemy() -> None:
    s = _pair()
    moves = retreat_moves(s, s.man("Goblin 1"), ["D3"])
    assert moves and all(len(m) == 1 for m in moves)
    board = s.board
    from rulekeeper.boards.hexes import hex_distance

    assert all(hex_distance(board.parse(m[0]), board.parse("D3")) == 2 for m in moves)
    assert len(moves) == 3  # the three hexes behind him


def test_a_stunned_character_forced_to_retreat_dies() -> None:
    s = set_man(_pair(), "Goblin 1", health="stunned", stunned_at=1)
    after, lines = hurt(s, "Goblin 1", "retreat", ["D3"])
    assert after.man("Goblin 1").health == "dead" and "forced to retreat" in lines[0]["text"]


def test_regression_one_who_cannot_retreat_is_wounded_instead_so_attackers_can_be_harmed() -> None:
    """The fault: the estimated key could never harm an attacker (B only moved him, or he held his ground)."""
    s = _pair()
    for h in ("B3", "C2", "C3", "C4"):  # Thrug's hexes away from Goblin 1, all taken by friends
        s = s.add(Man(f"Dwarf {h}", "Dwarf 1", "A", (h,)))
    assert not retreat_moves(s, s.man("Thrug"), ["E3"])
    after, lines = hurt(s, "Thrug", "retreat", ["E3"])
    assert after.man("Thrug").health == "wounded" and "wounded instead" in lines[0]["text"]


def test_regression_the_owner_chooses_the_retreat_hex() -> None:
    """The fault: retreats went to 'the free hex farthest from the enemy', picked by the keeper."""
    s = _pair()
    after, _ = hurt(s, "Goblin 1", "retreat", ["D3"])
    assert after.placing and after.to_act == "B"
    offered = legal(after, "place")
    assert [a["unit"] for a in offered] == ["Goblin 1"] * 3
    proposal = offered[0]["to"]
    assert after.man("Goblin 1").hex == proposal and choose(after) == ACTIONS.listed(offered[0])  # autoplay keeps the proposal
    other = offered[2]
    action = G.parse_words(after, ["place", "Goblin 1", other["to"]])
    assert action == other
    out = G.apply(after, action)
    assert out.state.man("Goblin 1").hex == other["to"] and not out.state.placing
    assert not out.chance and not G.preview(after, action).draws


def test_regression_the_unhorsed_riders_player_places_him() -> None:
    """'the appropriate counter ... is placed by the player to whom he belongs on one of the hexes adjacent to his
    horse'."""
    s = battle([man("Grast", "A", "D3", "C3", mounted=True), man("Goblin 1", "B", "F3")])
    after, _ = hurt(s, "Grast", "stunned", ["F3"])
    assert after.placing and after.placing[0].why == "is unhorsed" and after.to_act == "A"
    spots = [a["to"] for a in legal(after, "place")]
    assert len(spots) >= 2 and after.man("Grast").hex == spots[0]
    out = act(after, kind="place", unit="Grast", to=spots[-1])
    assert out.state.man("Grast").hex == spots[-1] and out.state.man("Grast").health == "stunned"


def test_a_two_hex_retreat_is_placed_by_its_owner_among_its_legal_ends() -> None:
    """A two-hex retreat (a horse shying: 'B on a horseman: he retreats two hexes'; Errare's armour: 'retreats 2
    hexes') was the keeper's path, hex by hex. Now its owner places it like any retreat: every end reached by two legal
    one-hex retreats in a row, the keeper's path first (issue 24, point 5: 'The owning player chooses among the legal
    hexes')."""
    from rulekeeper.boards.hexes import hex_distance
    from rulekeeper.rulesets.dragonnoir.harm import retreat_ends

    s = _pair()
    goblin = s.man("Goblin 1")
    ends = retreat_ends(s, goblin, ["D3"], 2)
    board = s.board
    assert len(ends) >= 3 and all(hex_distance(board.parse(e[0]), board.parse("D3")) == 3 for e in ends)
    # exactly the brute-force set: a legal retreat, then a legal retreat from there
    brute = {second for first in retreat_moves(s, goblin, ["D3"])
             for second in retreat_moves(s.with_men(Man("Goblin 1", "Goblin 1", "B", first)),
                                         Man("Goblin 1", "Goblin 1", "B", first), ["D3"])}
    assert set(ends) == brute
    after, _ = hurt(s, "Goblin 1", "retreat", ["D3"], retreat_hexes=2)
    assert after.placing and after.to_act == "B" and after.placing[0].spots[0] == after.man("Goblin 1").hexes
    assert set(after.placing[0].spots) == set(ends)
    other = legal(after, "place")[-1]
    placed = G.apply(after, other).state
    assert placed.man("Goblin 1").hex == other["to"] and not placed.placing


def test_a_two_hex_retreat_stops_after_one_only_where_no_second_is_legal() -> None:
    """Decision: the retreat goes as far as it can; it stops after one hex only where no second hex is legal."""
    from rulekeeper.rulesets.dragonnoir.harm import retreat_ends

    s = _pair()
    goblin = s.man("Goblin 1")
    two = retreat_ends(s, goblin, ["D3"], 2)
    blocked = s
    for (h,) in two[1:]:  # all but one second hex taken: only the paths to the last one go two hexes
        blocked = blocked.add(Man(f"Goblin at {h}", "Goblin 2", "B", (h,)))
    assert retreat_ends(blocked, goblin, ["D3"], 2) == [two[0]]
    for (h,) in two[:1]:  # every second hex taken: the retreat ends one hex back, on any legal first hex
        blocked = blocked.add(Man(f"Goblin at {h}", "Goblin 2", "B", (h,)))
    assert retreat_ends(blocked, goblin, ["D3"], 2) == retreat_moves(blocked, goblin, ["D3"])
