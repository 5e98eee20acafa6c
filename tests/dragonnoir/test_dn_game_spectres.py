"""Spectres called by wizards in Dragon Noir battles, the Gargoyles' flight, Lucifer defending Godiva, the Wardogs."""

from __future__ import annotations

from dn_game_kit import G, act, battle, legal, man, set_man

from rulekeeper.core.game import JsonDict
from rulekeeper.rulesets.dragonnoir.harm import hurt
from rulekeeper.rulesets.dragonnoir.melee import combats, odds
from rulekeeper.rulesets.dragonnoir.special import dematerialise_after
from rulekeeper.rulesets.dragonnoir.state import DNState, Man
from rulekeeper.rulesets.dragonnoir.steps import must_roll
from rulekeeper.rulesets.dragonnoir.turns import living


def _called(spell: str, men: list[JsonDict] | None = None, **kw: object) -> DNState:
    """The battle just after Zacharie's ``spell`` succeeded (the first seed it does), the dice as previewed."""
    for seed in range(1, 40):
        s = battle(men or [man("Zacharie", "A", "B3"), man("Goblin 1", "B", "H3")], seed=seed, **kw)  # type: ignore[arg-type]
        action = legal(s, "cast", unit="Zacharie", spell=spell)[0]
        preview = G.preview(s, action)
        out = G.apply(s, action)
        assert [c.request for c in out.chance] == list(preview.draws)
        if any(m.fades for m in out.state.men):
            return out.state  # type: ignore[no-any-return]
    raise AssertionError(f"{spell} never succeeded in 40 seeds")


def test_a_wizard_calls_the_gargoyles_onto_the_free_hexes_nearest_him() -> None:
    """The Gargoyles: 'They are spectres. They appear when called by a wizard.' Magic: 'pure magic spells ...
    notably those that make spectres appear such as the Living Deads or the Gargoyles'."""
    s = battle([man("Zacharie", "A", "B3"), man("Goblin 1", "B", "H3")])
    cast = legal(s, "cast", unit="Zacharie", spell="Call the Gargoyles")
    assert cast == [{"kind": "cast", "side": "A", "unit": "Zacharie", "spell": "Call the Gargoyles",
                     "target": "Zacharie"}]
    s = _called("Call the Gargoyles")
    g1, g2 = s.man("Gargoyle 1"), s.man("Gargoyle 2")
    assert g1.side == g2.side == "A"
    board = s.board
    from rulekeeper.boards.hexes import hex_distance

    assert all(hex_distance(board.parse(g.hex), board.parse("B3")) == 1 for g in (g1, g2))
    assert g1.hex != g2.hex
    # the counter sheet has two Gargoyles: no second call while they are on the map
    s = set_man(s, "Zacharie", mp=0)
    assert not legal(s, "cast", spell="Call the Gargoyles")


def test_spectres_dematerialise_after_their_game_turns() -> None:
    """The Living Deads: 'They remain 2 complete game turns before dematerialising again (*).' '(*) The player turn
    during which they appear counts as half a turn.'"""
    s = _called("Raise the Living Deads")
    deads = [m for m in s.men if m.character.startswith("Living Dead")]
    assert len(deads) == 3 and all(m.fades == dematerialise_after(1, 2) == 4 for m in deads)
    while s.player_turn <= 4:
        assert all(any(m.name == d.name for m in s.men) for d in deads)
        s = act(s, kind="end_phase").state
    assert s.player_turn == 5 and not any(m.character.startswith("Living Dead") for m in s.men)


def test_the_log_names_the_side_the_spectres_appear_for() -> None:
    """Played as a user: "Living Dead 1 appears on F2 for B's side"; the side's own name now."""
    for seed in range(1, 40):
        s = battle([man("Zacharie", "A", "B3"), man("Goblin 1", "B", "H3")], seed=seed)
        out = G.apply(s, legal(s, "cast", unit="Zacharie", spell="Raise the Living Deads")[0])
        appeared = [line["text"] for line in out.report if " appears on " in line["text"]]
        if appeared:
            assert all(f"for {s.name('A')} (gone after" in text for text in appeared) and s.name("A") != "A"
            assert not any("'s side" in text for text in appeared)
            return
    raise AssertionError("the Living Deads never appeared in 40 seeds")


def test_the_gargoyles_stay_four_game_turns() -> None:
    """The Gargoyles: 'They remain only 4 game turns before dematerialising again (*).'"""
    s = _called("Call the Gargoyles")
    assert s.man("Gargoyle 1").fades == 1 + 2 * 4 - 1


def test_summoned_spectres_do_not_count_as_the_sides_living() -> None:
    """Decision (docs/rules/dragonnoir.md, 'Spectres in battle'): conjured spectres are not the side's band."""
    s = _called("Call the Gargoyles")
    assert [m.name for m in living(s, "A")] == ["Zacharie"]


def test_a_summon_can_be_countered_before_the_die() -> None:
    """'The counter must be announced before the wizard who cast the spell has rolled the die.'"""
    s = battle([man("Zacharie", "A", "B3"), man("Shaman", "B", "G3")])
    out = act(s, kind="cast", unit="Zacharie", spell="Raise the Living Deads", target="Zacharie")
    assert not out.chance and out.state.pending is not None and out.state.pending.kind == "counter"
    # played as a user: "Shaman casts Raise the Living Deads on Shaman" read as if the caster were raised
    assert out.report[0]["text"].startswith("Zacharie announces Raise the Living Deads: the enemy wizard")
    assert any(lg.text.endswith("let Zacharie cast Raise the Living Deads") for lg in G.legal_actions(out.state))
    assert G.action_text({"kind": "cast", "side": "A", "unit": "Zacharie", "spell": "Raise the Living Deads",
                          "target": "Zacharie"}) == "Zacharie casts Raise the Living Deads"
    labels = {lg.action["spell"]: lg.label for lg in G.legal_actions(s) if lg.action["kind"] == "cast"}
    assert labels["Raise the Living Deads"] == "Raise the Living Deads" and labels["Stunning"] == "Stunning → Shaman"
    assert G.action_text({"kind": "cast", "side": "A", "unit": "Zacharie", "spell": "Stunning", "target": "Shaman"}) \
        == "Zacharie casts Stunning on Shaman"


def test_spectres_only_retreat() -> None:
    """'It is impossible to stun them, wound them, still less kill them. They can, on the other hand, be made to
    retreat. In shots and combats, all the results "stunned", "wounded" or "killed" are turned into a simple
    retreat.'"""
    s = _called("Call the Gargoyles")
    g = s.man("Gargoyle 1")
    after, _ = hurt(s, g.name, "killed", ["B3"] if g.hex != "B3" else [])
    assert after.man(g.name).health == "healthy"


def _garden() -> DNState:
    """A Gargoyle on A3; water at C3, trees at C4, brush at D3; the enemy far east."""
    s = battle([man("Gargoyle 1", "A", "A3"), man("Living Dead 1", "A", "A5"), man("Goblin 1", "B", "J1")],
               width=10, height=7, terrain=[["C3", "water", 0], ["C4", "trees", 0], ["D3", "brush", 0]])
    return s


def test_a_gargoyle_flies_five_hexes_over_level_1_obstacles() -> None:
    """The Gargoyles: 'They can fly short distances (5 hexes maximum) and pass over level 1 obstacles.'"""
    s = _garden()
    assert s.phase == "move"
    flights = {a["to"] for a in legal(s, "fly", unit="Gargoyle 1")}
    assert "F3" in flights  # five hexes east, over the water and the brush
    assert "G3" not in flights  # six hexes
    assert "C3" in flights and "A5" not in flights  # he lands where a man on foot may stand, on a free hex
    out = act(s, kind="fly", unit="Gargoyle 1", to="F3")
    g = out.state.man("Gargoyle 1")
    assert g.hex == "F3" and g.mp == 0 and not out.chance
    assert not legal(out.state, "fly", unit="Gargoyle 1")


def test_trees_stop_a_gargoyles_flight_and_the_living_deads_walk() -> None:
    """'pass over level 1 obstacles' (trees stand higher: estimated); the Living Deads 'move, however, normally'."""
    s = _garden()
    flights = {a["to"] for a in legal(s, "fly", unit="Gargoyle 1")}
    assert "D6" in flights and "C4" in flights  # beside the trees, or onto them: only the hexes crossed count
    assert "D4" not in flights and "E4" not in flights  # straight over the trees on C4
    assert not legal(s, "fly", unit="Living Dead 1")
    s = act(s, kind="move", unit="Gargoyle 1", to="B3").state
    assert not legal(s, "fly", unit="Gargoyle 1")  # a flight is the whole movement, before any step


def _godiva(lucifer_at: str) -> DNState:
    s = battle([man("Godiva", "B", "E3"), man("Lucifer", "B", lucifer_at), man("Wardog 1", "B", "F3"),
                man("Thrug", "A", "D3")])
    return set_man(s, "Thrug", mp=0)


def test_lucifer_must_defend_godiva_when_beside_her() -> None:
    """'In combat, if Godiva is attacked, one is obliged to add Lucifer's defence potential to that of his mistress
    if the dog is on a hex adjacent to the young woman.'"""
    s = act(_godiva("E4"), kind="end_phase").state  # to combat
    assert s.phase == "combat"
    against = [d for a, d in combats(s) if a == ("Thrug",)]
    assert ("Godiva", "Lucifer") in against and ("Godiva",) not in against
    o = odds(s, ["Thrug"], ["Godiva", "Lucifer"])
    assert o.defence == 3 + 3
    far = act(_godiva("H5"), kind="end_phase").state
    assert ("Godiva",) in [d for a, d in combats(far) if a == ("Thrug",)]


def test_wardogs_ignore_infiltration_and_die_of_one_wound() -> None:
    """Lucifer & the Wardogs: 'They ignore the infiltration of enemy lines rule when they move. In shots and combats,
    "stunned" results are turned into a simple retreat. A single wound is enough to kill them.'"""
    s = battle([man("Wardog 1", "A", "C3"), man("Goblin 1", "B", "E3"), man("Goblin 2", "B", "E5")])
    s = set_man(s, "Wardog 1", hexes=("D4",), steps=1)
    assert not must_roll(s, s.man("Wardog 1"))
    stunned, _ = hurt(s, "Wardog 1", "stunned", ["E3"])
    assert stunned.man("Wardog 1").health == "healthy" and stunned.man("Wardog 1").hex != "D4"
    wounded, _ = hurt(s, "Wardog 1", "wounded", ["E3"])
    assert wounded.man("Wardog 1").health == "dead"


def test_a_spectres_lifetime_survives_the_json_round_trip() -> None:
    s = _called("Call the Gargoyles")
    again = G.state_from_json(G.state_to_json(s))
    assert again == s and Man.from_json(s.man("Gargoyle 1").to_json()).fades == s.man("Gargoyle 1").fades


def test_a_gargoyle_called_in_the_movement_flies_in_its_sides_next_player_turn() -> None:
    """Decision ('Spectres in battle'): called during the movement they do not move in it; then they 'can fly short
    distances (5 hexes maximum)'."""
    s = _called("Call the Gargoyles")
    assert s.phase == "move" and not legal(s, "fly")
    while not (s.side == "A" and s.phase == "move" and s.player_turn == 3):
        s = act(s, kind="hold" if s.pending is not None else "end_phase").state
    assert legal(s, "fly", unit="Gargoyle 1") and s.man("Gargoyle 1").mp > 0
