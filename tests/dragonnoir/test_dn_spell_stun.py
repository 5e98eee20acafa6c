"""Issue 24, point 3: the Stunning spell is neither a shot nor a combat.

Crazy Ork: "As soon as he suffers a wounded or stunned result during a shot or a combat, Crazy Ork goes berserk."
Horses: "When a horseman is unhorsed following a combat or a shot, the appropriate counter ... is placed".
"""

from __future__ import annotations

from dn_game_kit import G, act, battle, legal, man

from rulekeeper.rulesets.dragonnoir.harm import hurt


def _ork(seed: int):  # type: ignore[no-untyped-def]
    return battle([man("Zacharie", "A", "B3"), man("Grast", "A", "C1", "C2", mounted=True),
                   man("Crazy Ork", "B", "G3"), man("Goblin 1", "B", "G5")], seed=seed)


def test_regression_a_stunning_spell_does_not_make_crazy_ork_berserk() -> None:
    """The fault: Zacharie's Stunning turned Crazy Ork's counter to the berserk side (8-6-4 → 12-7-5)."""
    for seed in range(1, 20):
        out = act(_ork(seed), kind="cast", unit="Zacharie", spell="Stunning", target="Crazy Ork")
        if any("success" in c.outcome and "spell" in c.request.label for c in out.chance):
            assert out.state.man("Crazy Ork").health == "stunned"
            return
    raise AssertionError("the spell never succeeded in 19 seeds")


def test_a_stunned_result_in_a_combat_still_makes_him_berserk() -> None:
    s = _ork(1)
    after, _ = hurt(s, "Crazy Ork", "stunned", ["F3"])
    assert after.man("Crazy Ork").health == "berserk"
    after, _ = hurt(s, "Crazy Ork", "stunned", ["F3"], spell=True)
    assert after.man("Crazy Ork").health == "stunned"


def test_regression_the_stunning_spell_is_not_offered_against_a_horseman() -> None:
    """The fault: the spell unhorsed a rider; the seed unhorses only 'following a combat or a shot'."""
    s = battle([man("Shaman", "B", "G3"), man("Grast", "A", "C1", "C2", mounted=True), man("Thrug", "A", "C4")])
    s = act(s, kind="end_phase").state  # the Exiles' movement ends: the Orks' turn
    while s.side == "A":
        s = act(s, kind="end_phase").state
    assert legal(s, "cast", unit="Shaman", spell="Stunning", target="Thrug")
    assert not legal(s, "cast", unit="Shaman", spell="Stunning", target="Grast")
    assert G.parse_action(s, {"kind": "cast", "unit": "Shaman", "spell": "Stunning", "target": "Thrug"})["side"] == "B"
