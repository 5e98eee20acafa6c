"""The wizards' duel scenario (issue 24): the two wizards cast and counter in both players' turns."""

from __future__ import annotations

from pathlib import Path

from dn_game_kit import G

from rulekeeper.core.game import SetupRequest

DUEL = Path("src/rulekeeper/rulesets/dragonnoir/data/scenarios/the_wizards_duel.yaml")


def test_the_wizards_duel_in_both_player_turns_under_autoplay() -> None:
    """'During player A's turn, each of the wizards has the right to cast one spell and one counterspell.'"""
    s = G.initial_state(G.setup(SetupRequest(scenario=DUEL, seed=1)).document)
    assert {w.name for w in s.wizards} == {"Zacharie", "Shaman"}
    own, enemy, counters = 0, 0, 0
    for _ in range(400):
        if s.over:
            break
        a = G.policy(s)
        if a["kind"] == "cast":
            own, enemy = (own + 1, enemy) if a["side"] == s.side else (own, enemy + 1)
        counters += a["kind"] == "counter"
        s = G.apply(s, a).state
    assert s.over and own >= 1 and enemy >= 1 and counters >= 1
    assert any(sc.name == "The wizards' duel" for sc in G.scenarios())
