"""A legal attack is listed exactly as ``parse_action`` reads it back: attackers and defenders in the battle's own
order of characters (the conformance test's "every legal action is canonical").

The fault this reproduces (seen once as an intermittent conformance failure, 2026-12-02): Lucifer was appended
after every other defender ("if Godiva is attacked, one is obliged to add Lucifer's defence potential to that of
his mistress if the dog is on a hex adjacent to the young woman"), so an attack on Godiva and a goblin listed
``['Godiva', 'Goblin 1', 'Lucifer']`` while the keeper reads it as ``['Godiva', 'Lucifer', 'Goblin 1']``: the
web's Commit, the log and the bot's choice then disagreed with the list they came from.
"""

from __future__ import annotations

from dn_game_kit import G, act, battle, kinds, legal, man

from rulekeeper.rulesets.dragonnoir.melee import in_order
from rulekeeper.rulesets.dragonnoir.state import DNState


def to_combat(state: DNState) -> DNState:
    while state.phase != "combat":
        state = act(state, kind="end_phase").state
    return state


def test_an_attack_on_godiva_and_another_lists_lucifer_in_the_battles_order() -> None:
    state = to_combat(battle([man("Thrug", "A", "C3"), man("Godiva", "B", "D3"), man("Lucifer", "B", "E3"),
                              man("Goblin 1", "B", "C4")]))
    assert "attack" in kinds(state)
    attacks = legal(state, "attack")
    assert {"kind": "attack", "side": "A", "units": ["Thrug"], "targets": ["Godiva", "Lucifer", "Goblin 1"]} in attacks
    for action in attacks:
        assert G.parse_action(state, action) == action


def test_names_are_put_in_the_order_of_the_characters() -> None:
    state = battle([man("Thrug", "A", "C3"), man("Godiva", "B", "D3"), man("Lucifer", "B", "E3")])
    assert in_order(state, ["Lucifer", "Thrug", "Godiva"]) == ("Thrug", "Godiva", "Lucifer")
