"""Issue 24, point 2: the advance after combat over the hex of a stunned character.

"If, following a combat, the attackers or the defenders had to retreat (or if one of them was stunned or killed),
the victorious player may advance one of his characters by 2 hexes if he is on foot ... The first hex crossed must
necessarily be one of the hexes evacuated by the enemy (or the hex of the stunned or killed character)."
"""

from __future__ import annotations

from dn_game_kit import G, act, battle, kinds, legal, man

from rulekeeper.rulesets.dragonnoir.state import DNState, Man


def _stunned_goblin() -> DNState:
    for seed in range(1, 80):
        s = battle([man("Thrug", "A", "D3"), man("Goblin 1", "B", "E3"), man("Goblin 2", "B", "H1")], seed=seed)
        while s.phase != "combat":
            s = act(s, kind="end").state
        out = act(s, kind="attack", units=["Thrug"], targets=["Goblin 1"])
        if out.state.man("Goblin 1").health == "stunned":
            return out.state
    raise AssertionError("no stunned result in 80 seeds")


def test_regression_the_victor_may_advance_over_the_stunned_mans_hex() -> None:
    """The fault: after a stunned result the keeper offered only 'end the player turn'."""
    s = _stunned_goblin()
    assert s.pending is not None and s.pending.kind == "advance" and "E3" in s.pending.hexes
    first = legal(s, "advance", unit="Thrug", to="E3")
    assert first and "stay" in kinds(s)
    s = G.apply(s, first[0]).state
    # 'only one living character must remain per hex': he may not stop on the stunned man
    assert "stay" not in kinds(s) and legal(s, "advance")
    assert all(a["to"] != "E3" for a in legal(s, "advance"))
    to = legal(s, "advance")[0]["to"]
    s = G.apply(s, legal(s, "advance")[0]).state
    assert s.pending is None and s.man("Thrug").hex == to and s.man("Goblin 1").hex == "E3"


def test_no_step_onto_the_stunned_man_without_a_free_hex_beyond() -> None:
    """Crossing is allowed, ending on him is not: with every hex beyond him taken, the first step is not offered."""
    s = _stunned_goblin()
    for h in ("F2", "F3", "F4", "E2", "E4", "D2", "D4"):  # every hex around E3 but Thrug's D3
        s = s.add(Man(f"Dwarf {h}", "Dwarf 1", "A", (h,)))
    assert not legal(s, "advance", to="E3")
