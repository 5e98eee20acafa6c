"""The Black Dragon in Dragon Noir battles: five pieces moved and wounded as one (through blackdragon.py)."""

from __future__ import annotations

from pathlib import Path

from dn_game_kit import G, act, kinds, legal, set_man

from rulekeeper.core.game import SetupRequest
from rulekeeper.rulesets.dragonnoir.state import DNState

LAIR = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/dragonnoir/data/scenarios/the_dragons_lair.yaml"


def lair(seed: int = 1) -> DNState:
    state: DNState = G.initial_state(G.setup(SetupRequest(scenario=LAIR, seed=seed)).document)
    return state


def test_the_dragon_stands_on_five_hexes_and_cannot_be_shot() -> None:
    """'The counter that represents the Black Dragon occupies five hexes.' 'It is impossible to shoot at an adult
    Black Dragon (Dragon Noir) because its skin is harder than chain mail.'"""
    s = lair()
    parts = {m.name: m.hex for m in s.men if m.name.startswith("Black Dragon")}
    assert parts == {"Black Dragon head": "E3", "Black Dragon left foreleg": "E4", "Black Dragon right foreleg": "E2",
                     "Black Dragon tail": "G3", "Black Dragon body": "F3"}
    assert s.phase == "move"  # Laberne's long bow has nothing to shoot at: the offensive fire is skipped
    assert "shoot" not in kinds(s)


def test_the_centre_is_attacked_only_from_its_two_free_hexes() -> None:
    """'As long as the dragon is in full health, the central part of its body can be attacked only from two
    hexes.' The body's other four neighbours are the head, the forelegs and the tail."""
    s = lair()
    while s.phase != "combat":
        s = act(s, kind="end").state
    assert s.dragon is not None
    assert {s.board.label(h) for h in s.dragon.centre_access()} == {"F2", "F4"}
    s = set_man(s, "Thrug", hexes=("F2",))
    s = set_man(s, "Dwarf 1", hexes=("F4",))
    attacks = {(tuple(a["units"]), tuple(a["targets"])) for a in legal(s, "attack")}
    assert (("Thrug", "Dwarf 1"), ("Black Dragon body",)) in attacks  # 16 against 12, together
    assert (("Thrug",), ("Black Dragon body",)) not in attacks  # 10 against 12: below 1-1


def test_the_dragon_moves_as_one_and_pushes_aside_who_is_in_its_path() -> None:
    """'When it moves, the dragon pushes aside any other character in its path. It can therefore never be
    blocked.'"""
    s = lair()
    s = set_man(s, "Thrug", hexes=("D3",))
    while s.side != "B" or s.phase != "move":
        s = act(s, kind="end").state
    out = act(s, kind="dragon_move", to="E3")  # the centre steps west: the head lands on D3, Thrug's hex
    after = out.state
    assert after.dragon is not None and after.man("Black Dragon body").hex == "E3"
    assert after.man("Black Dragon head").hex == "D3" and after.man("Thrug").hex not in {
        m.hex for m in after.men if m.name.startswith("Black Dragon")}
    assert any("pushed aside" in r["text"] for r in out.report)


def test_d_e_f_wound_the_dragon_and_it_never_retreats() -> None:
    """'The results D, E and F become "Dragon wounded".' 'in attack as in defence, the dragon never retreats'."""
    for seed in range(1, 40):
        s = lair(seed)
        while s.phase != "combat":
            s = act(s, kind="end").state
        s = set_man(s, "Thrug", hexes=("D3",))
        out = act(s, kind="attack", units=["Thrug"], targets=["Black Dragon head"])
        head = out.state.man("Black Dragon head")
        assert head.hex == "E3"  # never pushed back
        if out.state.dragon is not None and out.state.dragon.wounds_of("head") == 1:
            assert head.health == "wounded"
            return
    raise AssertionError("no wound in 40 seeds")


def test_the_baby_dragon_dies_of_its_third_wound_as_the_black_dragon() -> None:
    """"The results D, E and F become "Dragon wounded". ... As far as combats are concerned, it obeys the
    same rules as the Black Dragon" — and "to kill the dragon, it is necessary to wound the central part
    three times". The battle's counter flips agree with ``special.suffer``."""
    from rulekeeper.rulesets.dragonnoir.data import shipped_sheet
    from rulekeeper.rulesets.dragonnoir.harm import _flip

    health = "healthy"
    sides = []
    for _ in range(3):
        health = _flip("dragon", health, "stunned")  # D: stunned becomes "Dragon wounded"
        sides.append(health)
    assert sides == ["wounded", "wounded_twice", "dead"]
    _, baby = shipped_sheet().character("Baby Dragon")
    assert baby.foot is not None and "wounded_twice" in baby.foot


def _limb_disabled(seed: int) -> DNState:
    from rulekeeper.rulesets.dragonnoir.blackdragon import wound
    from rulekeeper.rulesets.dragonnoir.dragon import _placed

    s = lair(seed)
    while s.phase != "combat":
        s = act(s, kind="end").state
    assert s.dragon is not None
    s = _placed(s, wound(wound(s.dragon, "head"), "head"))
    s = set_man(s, "Thrug", hexes=("D3",))
    return set_man(s, "Dwarf 1", hexes=("F4",))


def test_a_character_strikes_the_centre_from_a_disabled_limbs_hex_then_repositions() -> None:
    """'as soon as the head, the tail or one of the front legs receives a second wound, it no longer has any
    defence potential. A character can then temporarily occupy the hex to attack the central part, alone or with
    other characters. At the end of the combat, if the dragon is not dead, the character must reposition himself on
    an adjacent hex.'"""
    s = _limb_disabled(1)
    action = {"kind": "attack", "side": "A", "units": ["Thrug", "Dwarf 1"], "targets": ["Black Dragon body"],
              "via": ["Thrug", "E3"]}
    assert action in legal(s, "attack")
    assert not legal(s, "attack", units=["Thrug"], targets=["Black Dragon head"])  # no defence left to strike
    preview = G.preview(s, action)
    assert dict(preview.headline)["ratio"] == "2-1"  # 10 + 6 = 16 against 12, one column right together
    out = G.apply(s, G.parse_action(s, action))
    assert out.chance[0].request == preview.draws[0]
    assert out.state.dragon is not None and not out.state.dragon.dead
    assert out.state.man("Thrug").hexes == ("D3",)  # back to the hex he came from
    assert out.state.man("Black Dragon head").hex == "E3"


def test_attackers_choose_who_joins_a_combat() -> None:
    """'Every combat is optional.' 'When two (or more) characters decide to attack an enemy character, they can
    attack him individually or else add their attack points into a single overall factor': two of three adjacent
    attackers may strike together."""
    s = lair()
    while s.phase != "combat":
        s = act(s, kind="end").state
    s = set_man(s, "Thrug", hexes=("D3",))
    s = set_man(s, "Dwarf 2", hexes=("D2",))
    s = set_man(s, "Dwarf 1", hexes=("D4",))
    groups = {tuple(a["units"]) for a in legal(s, "attack", targets=["Black Dragon head"])}
    assert {("Thrug", "Dwarf 1"), ("Thrug", "Dwarf 2"), ("Thrug", "Dwarf 1", "Dwarf 2")} <= groups


def test_the_centre_attack_from_a_limbs_hex_can_be_typed() -> None:
    """The words of `battle act`: ``attack Thrug,"Dwarf 1" "Black Dragon body" E3`` — the first attacker strikes from
    the disabled limb's hex ('A character can then temporarily occupy the hex to attack the central part')."""
    s = _limb_disabled(1)
    action = G.parse_words(s, ["attack", "Thrug,Dwarf 1", "Black Dragon body", "E3"])
    assert action == {"kind": "attack", "side": "A", "units": ["Thrug", "Dwarf 1"], "targets": ["Black Dragon body"],
                      "via": ["Thrug", "E3"]}
    assert action in legal(s, "attack")
