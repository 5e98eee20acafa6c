"""Dragon Noir battles on the game protocol: the four-step player turn, each rule quoted from the seed.

Every battle is driven through the registered game (``game("dragonnoir")``), as the service drives it.
"""

from __future__ import annotations

import pytest
from dn_game_kit import G, act, battle, kinds, labels, legal, man, set_man

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.rulesets.dragonnoir.harm import hurt
from rulekeeper.rulesets.dragonnoir.state import DNState


def test_the_player_turn_runs_fire_movement_combat_then_the_other_side() -> None:
    """'Player A's turn - OFFENSIVE FIRE ... - MOVEMENT AND DEFENSIVE FIRE ... - COMBAT ... Player B's turn
    proceeds exactly in the same way'."""
    s = battle([man("Laberne", "A", "B3"), man("Goblin 1", "B", "F3")])
    assert (s.side, s.phase) == ("A", "fire") and kinds(s) == {"shoot", "end_phase"}
    s = act(s, kind="end").state
    assert s.phase == "move" and "move" in kinds(s)
    s = act(s, kind="end").state
    assert s.phase == "combat"
    s = act(s, kind="end").state
    assert (s.side, s.turn, s.player_turn) == ("B", 1, 2)
    assert s.phase == "move"  # nobody of side B can shoot: its offensive fire is skipped


def test_a_crossbowman_who_has_just_shot_does_not_move() -> None:
    """'all the characters of side A may move, except the crossbowmen who have just shot'."""
    s = battle([man("Arlon", "A", "B3"), man("Laberne", "A", "B5"), man("Goblin 1", "B", "F3")])
    s = act(s, kind="shoot", unit="Arlon", target="Goblin 1").state
    s = act(s, kind="end").state
    assert not legal(s, "move", unit="Arlon") and legal(s, "move", unit="Laberne")


def test_defensive_fire_interrupts_a_move_on_the_hex_entered() -> None:
    """'The player making defensive shots can thus interrupt at any moment the movement of a character on a precise
    hex and decide to shoot at him with one or several shooters.'"""
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    assert s.phase == "move"
    s = act(s, kind="move", unit="Thrug", to="C3").state
    assert s.pending is not None and s.pending.kind == "defensive" and s.to_act == "B"
    assert kinds(s) == {"shoot", "hold"}
    with pytest.raises(IllegalActionError):
        G.apply(s, {"kind": "move", "side": "A", "unit": "Thrug", "to": "D3"})
    held = act(s, kind="hold").state
    assert held.pending is None and held.to_act == "A"
    shot = legal(s, "shoot")[0]
    preview = G.preview(s, shot)
    out = G.apply(s, shot)
    assert labels(out)[0] == preview.draws[0].label and out.chance[0].request == preview.draws[0]
    assert out.state.man("Laberne").fired


def test_a_long_bow_that_moved_cannot_fire_defensively() -> None:
    """'To be able to make a defensive shot, a long-bow archer must not have moved during his turn'."""
    s = battle([man("Thrug", "A", "B3"), man("Laberne", "B", "G3")])
    s = set_man(s, "Laberne", moved=True)
    s = act(s, kind="move", unit="Thrug", to="C3").state
    assert s.pending is None


def test_leaving_a_crossed_hex_next_to_an_enemy_draws_the_infiltration_roll() -> None:
    """'When a character crosses, during his movement, a hex adjacent to an enemy in a position to attack, the
    player concerned must roll the die ... A character who ends his movement on a hex adjacent to the enemy does
    not cause a die roll.'"""
    s = battle([man("Thrug", "A", "B3"), man("Goblin 1", "B", "D2")])
    s = act(s, kind="move", unit="Thrug", to="C3").state
    out = act(s, kind="move", unit="Thrug", to="D3")
    assert not out.chance  # entering a hex next to the goblin costs no roll
    s = out.state
    step = legal(s, "move", unit="Thrug", to="E3")[0]
    preview = G.preview(s, step)
    out = G.apply(s, step)
    assert labels(out) == ["infiltration: Thrug leaves D3"] and out.chance[0].request == preview.draws[0]


def test_enemies_block_movement_and_the_dead_cost_a_point() -> None:
    """'Characters cannot pass through hexes containing enemy characters, unless these are stunned or dead.'
    'Hexes containing three dead men or one dead horse cost one movement point more than their normal cost.'"""
    s = battle([man("Thrug", "A", "B3"), man("Goblin 1", "B", "C3"), man("Goblin 2", "B", "A1", health="dead"),
                man("Goblin 3", "B", "A1", health="dead"), man("Troll 1", "B", "A1", health="dead")])
    assert not legal(s, "move", unit="Thrug", to="C3")
    costs = {lg.action["to"]: lg.cost for lg in G.legal_actions(s) if lg.action["kind"] == "move"}
    assert costs["B2"] == 1.0
    s = battle([man("Thrug", "A", "B3"), man("Goblin 1", "B", "H5"), man("Goblin 2", "B", "B2", health="dead"),
                man("Goblin 3", "B", "B2", health="dead"), man("Troll 1", "B", "B2", health="dead")])
    costs = {lg.action["to"]: lg.cost for lg in G.legal_actions(s) if lg.action["kind"] == "move"}
    assert costs["B2"] == 2.0


def test_laberne_covers_4_hexes_mounted_then_dismounts_with_4_points() -> None:
    """'Laberne covers 4 hexes mounted, then dismounts. He therefore has a potential of 15 minus 6 = 9 points left.
    This potential is divided by 2, which gives 4.5, rounded down to 4.'"""
    s = battle([man("Laberne", "A", "B3", "A3", mounted=True), man("Goblin 1", "B", "J1")], width=12)
    for to in ("C3", "D3", "E3", "F3"):
        s = act(s, kind="move", unit="Laberne", to=to).state
    assert s.man("Laberne").mp == 11
    s = act(s, kind="dismount", unit="Laberne", to="F4").state
    laberne, horse = s.man("Laberne"), s.man("Laberne's horse")
    assert laberne.mp == 4 and not laberne.mounted and laberne.hexes == ("F4",)
    assert horse.horse and horse.hexes == ("F3", "E3")


def test_wounded_grast_covers_6_hexes_then_dismounts_with_nothing_left() -> None:
    """'wounded Grast covers 6 hexes mounted, then dismounts. He has 12 minus 9 = 3 points left. Divided by 4, this
    gives less than 1.'"""
    s = battle([man("Grast", "A", "B3", "A3", mounted=True, health="wounded"), man("Goblin 1", "B", "J1")],
               width=12)
    for to in ("C3", "D3", "E3", "F3", "G3", "H3"):
        s = act(s, kind="move", unit="Grast", to=to).state
    s = act(s, kind="dismount", unit="Grast", to="H4").state
    assert s.man("Grast").mp == 0


def test_mounting_doubles_the_points_left_and_a_half_turn_costs_3() -> None:
    """'if the character mounts, the points remaining to the character on foot are multiplied by two'; 'A horseman
    who performs a complete half-turn on the spot spends 3 movement points.'"""
    s = battle([man("Laberne", "A", "B3"), man("Laberne's horse", "A", "D3", "C3", horse=True),
                man("Goblin 1", "B", "H1")])
    s = act(s, kind="mount", unit="Laberne").state
    laberne = s.man("Laberne")
    assert laberne.mounted and laberne.hexes == ("D3", "C3") and laberne.mp == (7 - 2) * 2
    assert not any(m.horse for m in s.men)
    turned = act(s, kind="half_turn", unit="Laberne").state.man("Laberne")
    assert turned.hexes == ("C3", "D3") and turned.mp == laberne.mp - 3


def test_a_horseman_harmed_is_unhorsed_beside_his_horse() -> None:
    """'When a horseman is unhorsed following a combat or a shot, the appropriate counter - horseman stunned, wounded
    or dead - is placed ... on one of the hexes adjacent to his horse ... The horse stays in place'."""
    s = battle([man("Grast", "A", "C3", "B3", mounted=True), man("Goblin 1", "B", "F3")])
    s, _ = hurt(s, "Grast", "wounded", ["F3"])
    grast, horse = s.man("Grast"), s.man("Grast's horse")
    assert not grast.mounted and grast.health == "wounded" and len(grast.hexes) == 1
    assert grast.hexes[0] not in ("C3", "B3") and horse.hexes == ("C3", "B3") and horse.alive


def test_stunned_characters_get_up_at_the_end_of_their_sides_turn() -> None:
    """'STUNNED CHARACTERS: all the characters of side A who were stunned during the previous game turn are put
    back on their feet'; one stunned in this very player turn stays down (docs/rules/dragonnoir.md)."""
    s = battle([man("Thrug", "A", "B3", health="stunned"), man("Grast", "A", "B5", health="stunned"),
                man("Goblin 1", "B", "H1")])
    s = set_man(s, "Thrug", stunned_at=0)
    s = set_man(s, "Grast", stunned_at=1)
    s = act(s, kind="end").state  # nobody shoots: from the movement to the combat
    out = act(s, kind="end")
    assert out.state.man("Thrug").health == "healthy" and out.state.man("Grast").health == "stunned"
    assert any("Thrug gets back on his feet" in r["text"] for r in out.report)


def _to_combat(s: DNState) -> DNState:
    while s.phase != "combat":
        s = act(s, kind="end").state
    return s


def test_combat_offers_each_attacker_alone_and_all_together_never_below_1_to_1() -> None:
    """'they can attack him individually or else add their attack points into a single overall factor' and
    'Attacks at less than 1 to 1 are impossible.'"""
    s = _to_combat(battle([man("Thrug", "A", "C3"), man("Goblin 1", "A", "D4"), man("Troll 1", "B", "D3")]))
    attacks = [(a["units"], a["targets"]) for a in legal(s, "attack")]
    assert (["Thrug"], ["Troll 1"]) in attacks and (["Thrug", "Goblin 1"], ["Troll 1"]) in attacks
    assert (["Goblin 1"], ["Troll 1"]) not in attacks  # 3 against 6
    preview = G.preview(s, {"kind": "attack", "side": "A", "units": ["Thrug", "Goblin 1"], "targets": ["Troll 1"]})
    out = G.apply(s, {"kind": "attack", "side": "A", "units": ["Thrug", "Goblin 1"], "targets": ["Troll 1"]})
    # 13/6 = 2.17, rounded in the defender's favour to 2-1, one column right for attacking together: 3-1
    assert out.chance[0].request == preview.draws[0] and labels(out)[0] == "combat die (foot table, column 3-1)"
    assert out.state.man("Thrug").attacked and not legal(out.state, "attack", units=["Thrug"])


def test_the_defenders_side_chooses_who_takes_the_blow() -> None:
    """'When the result of a combat indicates that one of the attackers or defenders has been stunned or wounded,
    it is the player of the side concerned who decides which of his characters takes the blow.'"""
    for seed in range(1, 60):
        s = _to_combat(battle([man("Troll 1", "A", "D3"), man("Goblin 1", "B", "C3"), man("Goblin 2", "B", "E3")],
                              seed=seed))
        out = act(s, kind="attack", units=["Troll 1"], targets=["Goblin 1", "Goblin 2"])
        if out.state.pending is not None and out.state.pending.kind == "victim":
            break
    else:
        pytest.fail("no blow in 60 seeds")
    s = out.state
    assert s.to_act == "B" and kinds(s) == {"take_blow"}
    after = act(s, kind="take_blow", unit="Goblin 2").state
    assert after.man("Goblin 2").health != "healthy" and after.man("Goblin 1").health == "healthy"
    if after.pending is not None:  # the hex left or the fallen goblin's: the troll may advance into it
        assert after.pending.kind == "advance" and after.to_act == "A"
        assert {a["kind"] for a in (lg.action for lg in G.legal_actions(after))} <= {"advance", "stay"}


def test_errare_humanum_est_rolls_again_after_a_miss_when_the_option_is_on() -> None:
    """'each time a shooter botches his shot (result "shot missed"), the player concerned rolls the die a second time
    to find out whether he has not wounded by mistake a character located nearby' (option errare=on)."""
    for seed in range(1, 80):
        s = battle([man("Laberne", "A", "B3"), man("Goblin 1", "B", "G3"), man("Goblin 2", "B", "H3")], seed=seed,
                   errare="on")
        out = act(s, kind="shoot", unit="Laberne", target="Goblin 1")
        if out.chance[0].outcome.endswith("→A"):
            assert labels(out) == ["fire die (foot table, long bow, no cover)", "errare: Laberne's stray projectile"]
            break
    else:
        pytest.fail("no miss in 80 seeds")
    s = battle([man("Laberne", "A", "B3"), man("Goblin 1", "B", "G3")], seed=seed)
    assert len(act(s, kind="shoot", unit="Laberne", target="Goblin 1").chance) == 1  # the option off: one die


def test_two_characters_on_foot_clear_three_dead_men_by_one_hex() -> None:
    """'Two characters on foot can move three dead men or one dead horse by one hex. The two characters can do
    nothing else during their turn'; 'If the corpses are thrown into the water, they are considered to sink'."""
    dead = [man(n, "B", "C3", health="dead") for n in ("Goblin 1", "Goblin 2", "Goblin 3", "Troll 1")]
    s = battle([man("Thrug", "A", "B3"), man("Zed", "A", "C4"), *dead, man("Crazy Ork", "B", "H1")],
               terrain=[["D3", "water", 0]])
    assert legal(s, "clear", frm="C3", to="C2")
    out = act(s, kind="clear", units=["Thrug", "Zed"], frm="C3", to="C2").state
    assert sum(1 for m in out.men if m.hexes == ("C2",)) == 3 and len(out.on("C3")) == 1
    assert out.man("Thrug").mp == 0 and not legal(out, "move", unit="Zed") and not legal(out, "clear")
    sunk = act(s, kind="clear", units=["Thrug", "Zed"], frm="C3", to="D3").state
    assert len(sunk.men) == len(s.men) - 3 and not sunk.on("D3")


def test_an_attacker_next_to_several_enemies_fights_some_of_them_or_all() -> None:
    """'When a character is on a hex adjacent to several opponents, he can choose to fight some of them, all of them
    or none. If he decides to attack several, he must add their defence points into a single overall factor'."""
    s = _to_combat(battle([man("Thrug", "A", "C3"), man("Goblin 1", "B", "D3"), man("Goblin 2", "B", "B3"),
                           man("Goblin 3", "B", "C2")]))
    groups = {tuple(a["targets"]) for a in legal(s, "attack", units=["Thrug"])}
    assert {("Goblin 1", "Goblin 2"), ("Goblin 1", "Goblin 3"), ("Goblin 2", "Goblin 3")} <= groups
    assert ("Goblin 1", "Goblin 2", "Goblin 3") in groups and ("Goblin 1",) in groups


def test_a_dead_wizard_thrown_into_the_water_sinks_with_his_magic_sheet() -> None:
    """'If the corpses are thrown into the water, they are considered to sink, and the counters representing them
    are removed from the map': a dead wizard's too, and his magic sheet goes with his counter (found by the search
    bot's battles: the sheets were kept in step with a counter no longer on the map, and the clearing crashed)."""
    s = battle([man("Thrug", "A", "B3"), man("Zed", "A", "C4"), man("Zacharie", "B", "C3", health="dead"),
                man("Crazy Ork", "B", "H1")], terrain=[["D3", "water", 0]])
    assert [w.name for w in s.wizards] == ["Zacharie"]
    sunk = act(s, kind="clear", units=["Thrug", "Zed"], frm="C3", to="D3").state
    assert "Zacharie" not in {m.name for m in sunk.men} and sunk.wizards == ()
    assert sunk.man("Thrug").mp == 0
    thrown_aside = act(s, kind="clear", units=["Thrug", "Zed"], frm="C3", to="C2").state
    assert [w.name for w in thrown_aside.wizards] == ["Zacharie"]  # on dry ground he is still a dead wizard


def test_a_sides_decision_reads_as_what_it_decided() -> None:
    """Played as a user: the spectator's card read "Last action: side B: end phase" (the kind's own name). Every
    decision without a character says what the side did, and no words are left to the fallback."""
    from typing import get_args, get_type_hints

    from rulekeeper.rulesets.dragonnoir.action_types import Decide
    from rulekeeper.rulesets.dragonnoir.action_words import DECISION_WORDS

    assert G.action_text({"kind": "end_phase", "side": "B"}) == "side B ends its sequence"
    assert G.action_text({"kind": "hold", "side": "A"}) == "side A holds its fire"
    assert G.action_text({"kind": "no_spell", "side": "A"}) == "side A casts no spell now"
    assert set(DECISION_WORDS) == set(get_args(get_type_hints(Decide)["kind"]))  # the Literal's values


def test_a_side_named_in_the_plural_owns_its_turn_with_an_apostrophe() -> None:
    """Played as a user: the log read "Turn 1: The Exiles's player turn" and "in sight of The Exiles's shooters"
    (a side's name ending in s owns with an apostrophe alone, as the Battle System's "Raiders' next turn")."""
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.core.ruleset import game

    g = game("dragonnoir")
    ford = next(sc for sc in g.scenarios() if sc.key == "the_ford")
    state = g.initial_state(g.setup(SetupRequest(scenario=ford.path, seed=5)).document)
    said: list[str] = []
    for _ in range(160):
        if g.status(state).over:
            break
        out = g.apply(state, g.policy(state) or g.legal_actions(state)[0].action)
        said += [str(line.get("text", "")) for line in out.report]
        state = out.state
    text = "\n".join(said)
    assert "The Exiles' player turn" in text and "The Ork band's player turn" in text
    assert "Exiles's" not in text
