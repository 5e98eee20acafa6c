"""Issue 24, point 1: wizards cast (and counter) in the enemy's player turn too, with the initiative rule.

"During player A's turn, each of the wizards has the right to cast one spell and one counterspell." "Player B's
turn ... Each of the wizards again has the right to cast one spell and one counterspell." "The moment of casting the
spell is decided freely by each player. However, if two enemy wizards want to cast a spell affecting the same
character or the same hex, it is the one with the most energy points in reserve who wins the initiative."
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from dn_game_kit import G, act, battle, legal, man, set_man

from rulekeeper.core.game import SetupRequest
from rulekeeper.rulesets.dragonnoir.sorcery import sheet
from rulekeeper.rulesets.dragonnoir.state import DNState

FORD = Path("src/rulekeeper/rulesets/dragonnoir/data/scenarios/the_ford.yaml")


def _ford(seed: int) -> DNState:
    setup = G.setup(SetupRequest(scenario=FORD, seed=seed))
    state: DNState = G.initial_state(setup.document)
    return state


def test_regression_zacharie_casts_in_the_ork_bands_player_turn() -> None:
    """The fault: `battle new the_ford.yaml --seed 4`, the Exiles end their three sequences, then `act cast
    Zacharie Stunning "Goblin 1"` was refused (invalid_action): nobody could cast outside his side's turn."""
    s = _ford(4)
    while s.side == "A":  # the Exiles end their sequences; the Ork band lets each of its windows pass
        s = G.apply(s, legal(s, "no_spell")[0] if legal(s, "no_spell") else legal(s, "end_phase")[0]).state
    assert s.side == "B" and s.pending is not None and s.pending.kind == "magic" and s.to_act == "A"
    action = G.parse_words(s, ["cast", "Zacharie", "Stunning", "Goblin 1"])
    assert action == {"kind": "cast", "side": "A", "unit": "Zacharie", "spell": "Stunning", "target": "Goblin 1"}
    out = G.apply(s, action)  # Shaman may counter it, in his own player turn
    assert out.state.pending is not None and out.state.pending.kind == "counter" and out.state.to_act == "B"


def test_the_window_opens_at_each_enemy_sequence_until_the_wizard_has_cast() -> None:
    """Decision: the other side is asked at the start of each sequence of the side whose turn it is."""
    s = battle([man("Zacharie", "A", "B3"), man("Thrug", "A", "B4"), man("Shaman", "B", "G3"),
                man("Goblin 1", "B", "G4")], window=True)
    assert s.phase == "move" and s.pending is not None and s.pending.kind == "magic" and s.to_act == "B"
    s = act(s, window=True, kind="no_spell").state
    assert s.pending is None and s.to_act == "A"  # no second window in the same sequence
    s = act(s, window=True, kind="end_phase").state
    assert s.phase == "combat" and s.pending is not None and s.pending.kind == "magic"
    s = act(s, window=True, kind="cast", unit="Shaman", spell="Stunning", target="Thrug").state
    assert s.pending is not None and s.pending.kind == "counter" and s.pending.side == "A"
    s = act(s, window=True, kind="let_be").state
    assert sheet(s, "Shaman").spell_cast and s.pending is None and s.to_act == "A"
    s = act(s, kind="end_phase").state  # the Orks' own turn: Shaman's spell of A's turn is spent
    assert s.side == "B" and legal(s, "cast", unit="Shaman")  # 'Each of the wizards again has the right'


def _rivals(zacharie: int, shaman: int) -> DNState:
    """Zacharie wants to stun the wounded Shaman; Shaman wants to heal himself: both spells affect Shaman."""
    s = battle([man("Zacharie", "A", "B3"), man("Shaman", "B", "G3"), man("Goblin 1", "B", "G4")])
    s = set_man(s, "Shaman", health="wounded")
    ws = {w.name: w for w in s.wizards}
    return replace(s, wizards=(replace(ws["Zacharie"], energy=zacharie),
                               replace(ws["Shaman"], energy=shaman, wounded=True)))


def _stun(s: DNState) -> DNState:
    out = act(s, kind="cast", unit="Zacharie", spell="Stunning", target="Shaman")
    assert not out.chance and out.state.to_act == "B"
    return out.state


def test_the_wizard_with_more_energy_casts_first() -> None:
    """'if two enemy wizards want to cast a spell affecting the same character ... it is the one with the most
    energy points in reserve who wins the initiative. The other wizard always has the possibility of countering
    the spell that has just been cast.'"""
    s = _stun(_rivals(100, 90))
    rival = legal(s, "cast", unit="Shaman", spell="Self-healing", target="Shaman")
    assert rival
    out = G.apply(s, rival[0])
    assert not out.chance  # Zacharie (100 EP) first: Shaman may still counter the Stunning
    p = out.state.pending
    assert p is not None and p.kind == "counter" and p.unit == "Zacharie" and p.others[0] == "Shaman"
    assert "Zacharie has 100 EP in reserve against Shaman's 90" in out.report[0]["text"]
    out = act(out.state, kind="let_be")
    assert out.chance[0].request.label == "spell die (Zacharie: Stunning)"
    if out.state.man("Shaman").health == "wounded":  # the stun failed: Shaman's healing is announced next
        p = out.state.pending
        assert p is not None and p.unit == "Shaman" and p.harm == "Self-healing" and p.side == "A"


def test_the_rival_with_more_energy_goes_first() -> None:
    s = _stun(_rivals(90, 100))
    rival = legal(s, "cast", unit="Shaman", spell="Self-healing")[0]
    preview = G.preview(s, rival)
    out = G.apply(s, rival)
    assert not preview.draws and not out.chance  # Zacharie (80 EP for the counter) may counter it first
    p = out.state.pending
    assert p is not None and p.unit == "Shaman" and p.side == "A" and p.others == ("Zacharie", "Stunning", "Shaman")
    assert "Shaman has 100 EP in reserve against Zacharie's 90" in out.report[0]["text"]


def test_equal_energy_the_side_whose_turn_it_is_goes_first() -> None:
    """The seed does not settle a tie: estimated, the wizard of the side whose player turn it is."""
    s = _stun(_rivals(100, 100))
    out = G.apply(s, legal(s, "cast", unit="Shaman", spell="Self-healing")[0])
    p = out.state.pending
    assert p is not None and p.unit == "Zacharie"
