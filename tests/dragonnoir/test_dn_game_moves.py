"""Dragon Noir battles: carrying the stunned, horses led by the bridle, jumps, two a hex on underground entrances."""

from __future__ import annotations

from dn_game_kit import G, act, battle, labels, legal, man

from rulekeeper.rulesets.dragonnoir.state import DNState


def _carry_ready() -> DNState:
    return battle([man("Thrug", "A", "B3"), man("Grast", "A", "C3", health="stunned"), man("Goblin 1", "B", "H5")])


def test_carrying_a_stunned_character_halves_the_points_left_and_he_is_set_down_next_to_the_carrier() -> None:
    """'A character on foot who passes through a hex where a stunned character is can carry him on his back, but
    the movement points he has left are then halved (rounding down if necessary). At the end of the movement, he
    sets the stunned character down on one of the hexes next to his own.'"""
    s = _carry_ready()
    assert s.phase == "move" and s.man("Thrug").mp == 4
    assert legal(s, "carry", unit="Thrug") == [{"kind": "carry", "side": "A", "unit": "Thrug", "to": "C3"}]
    assert not legal(s, "move", unit="Thrug", to="C3")  # stepping onto him is the carry
    s = act(s, kind="carry", unit="Thrug", to="C3").state
    thrug = s.man("Thrug")
    assert thrug.hexes == ("C3",) and thrug.carrying == "Grast" and thrug.mp == (4 - 1) // 2
    s = act(s, kind="move", unit="Thrug", to="D3").state
    assert s.man("Grast").hexes == ("D3",)  # he rides along
    downs = {a["to"] for a in legal(s, "set_down", unit="Thrug")}
    assert "C3" in downs and "D3" not in downs
    s = act(s, kind="set_down", unit="Thrug", to="C3").state
    assert s.man("Grast").hexes == ("C3",) and s.man("Grast").health == "stunned" and not s.man("Thrug").carrying


def test_the_end_of_the_movement_sets_the_carried_character_down() -> None:
    """'At the end of the movement, he sets the stunned character down on one of the hexes next to his own.'
    (decision: the keeper puts him on the first free hex if the player did not)."""
    s = act(_carry_ready(), kind="carry", unit="Thrug", to="C3").state
    out = act(s, kind="end")
    grast, thrug = out.state.man("Grast"), out.state.man("Thrug")
    assert grast.hex != thrug.hex and not thrug.carrying
    assert G.state_from_json(G.state_to_json(s)).man("Thrug").carrying == "Grast"


def test_a_led_horse_follows_its_leader_through_trees() -> None:
    """'To lead a horse by the bridle, it is enough to make a character, even a wounded one, pass through one of
    the hexes adjacent to those of the horse. The character can continue on his way, followed from then on by the
    horse' and 'Horses without a rider and held by the bridle can cross tree hexes.'"""
    s = battle([man("Grast", "A", "B3", health="wounded"), man("Grast's horse", "A", "C2", "B2", horse=True),
                man("Goblin 1", "B", "H5")], terrain=[["B4", "trees", 0]])
    s = act(s, kind="lead", unit="Grast", horse="Grast's horse").state
    s = act(s, kind="move", unit="Grast", to="B4").state
    assert s.man("Grast's horse").hexes == ("B3", "B2")
    s = act(s, kind="move", unit="Grast", to="C4").state
    assert s.man("Grast's horse").hexes == ("B4", "B3") and s.man("Grast").leading == ("Grast's horse",)
    assert not legal(s, "mount", unit="Grast")  # nobody sits a horse standing in the trees


def test_on_foot_up_to_three_horses_mounted_only_one() -> None:
    """'A character on foot can lead up to three horses by the bridle. A mounted character can lead only one.'"""
    horses = [man("Arlon's horse", "A", "B2", "C2", horse=True), man("Grast's horse", "A", "A4", "A5", horse=True),
              man("Laberne's horse", "A", "A2", "A1", horse=True), man("Goblin 1", "B", "H5")]
    s = battle([man("Jon", "A", "B3"), *horses])
    while s.phase != "move":
        s = act(s, kind="end").state
    for h in ("Arlon's horse", "Grast's horse", "Laberne's horse"):
        s = act(s, kind="lead", unit="Jon", horse=h).state
    assert len(s.man("Jon").leading) == 3
    s = act(s, kind="move", unit="Jon", to="B4").state
    assert s.man("Jon").leading == ("Arlon's horse", "Grast's horse", "Laberne's horse")  # the train holds together
    assert s.man("Arlon's horse").hexes == ("B3", "B2")  # the first follows onto the hex he left
    rider = battle([man("Grast", "A", "C3", "B3", mounted=True), *horses[:2], horses[3]])
    rider = act(rider, kind="lead", unit="Grast", horse="Arlon's horse").state
    assert not legal(rider, "lead", unit="Grast")


def test_a_horse_left_alone_by_its_side_is_taken_by_the_first_who_comes() -> None:
    """'A horse without a rider remains under the control of the same player as long as he has a living,
    non-stunned character in the immediate vicinity of the horse. Otherwise, the horse belongs to the first player
    who takes control of it.'"""
    guarded = [man("Crazy Ork", "A", "D3"), man("Laberne's horse", "B", "C3", "B3", horse=True),
               man("Laberne", "B", "B4"), man("Goblin 1", "B", "H5")]
    assert not legal(battle(guarded), "lead", unit="Crazy Ork")
    alone = [*guarded[:2], man("Laberne", "B", "H1"), guarded[3]]
    s = act(battle(alone), kind="lead", unit="Crazy Ork", horse="Laberne's horse").state
    assert s.man("Laberne's horse").side == "A"


def test_a_mounted_leader_lets_go_when_he_fights() -> None:
    """'A mounted character holding another horse by the bridle automatically loses control of the latter if he
    is involved in a combat.'"""
    s = battle([man("Grast", "A", "C3", "B3", mounted=True), man("Arlon's horse", "A", "C2", "B2", horse=True),
                man("Goblin 1", "B", "D3")])
    s = act(s, kind="lead", unit="Grast", horse="Arlon's horse").state
    s = act(s, kind="end").state
    assert s.phase == "combat" and s.man("Grast").leading
    out = act(s, kind="attack", units=["Grast"], targets=["Goblin 1"])
    assert not out.state.man("Grast").leading


def _jump(terrain: str, seed: int) -> DNState:
    return battle([man("Laberne", "A", "B3", "A3", mounted=True, facing=0), man("Goblin 1", "B", "H1")],
                  terrain=[["C3", terrain, 0]], seed=seed)


def test_a_horseman_jumps_a_water_hex_with_one_die_on_the_jump_table() -> None:
    """'A mounted character can try to jump over a water hex or a crevasse hex. At the moment of the jump, the
    player concerned rolls the die and consults the corresponding table on the game sheet. The result applies
    immediately.'"""
    s = _jump("water", 1)
    assert not legal(s, "move", unit="Laberne", to="C3")  # 'Mounted characters cannot pass through ... a water hex'
    action = {"kind": "jump", "side": "A", "unit": "Laberne", "to": "E3"}
    assert legal(s, "jump") == [action]
    seen = set()
    for seed in range(1, 30):
        s = _jump("water", seed)
        preview = G.preview(s, action)
        out = G.apply(s, action)
        assert labels(out) == ["jump: Laberne over the water on C3"] and out.chance[0].request == preview.draws[0]
        result = out.chance[0].outcome.split("→")[1]
        seen.add(result)
        laberne = out.state.man("Laberne")
        if result == "cleared":
            assert laberne.hexes == ("E3", "D3") and laberne.mp == 15 - 2
        elif result == "refused":
            assert laberne.hexes == ("B3", "A3") and laberne.mp == 0
        else:
            assert laberne.hexes == ("C3",) and laberne.health == "stunned" and not laberne.mounted
            assert out.state.man("Laberne's horse").hexes == ("B3", "A3")
    assert seen == {"cleared", "refused", "fell"}


def test_a_fall_into_a_crevasse_kills_horse_and_rider() -> None:
    """'No character can be on a crevasse hex. Under certain conditions, a horseman can jump over a crevasse hex.'
    (the jump table, estimated: a fall kills both)."""
    for seed in range(1, 60):
        out = G.apply(_jump("crevasse", seed), {"kind": "jump", "side": "A", "unit": "Laberne", "to": "E3"})
        if out.chance[0].outcome.endswith("fell"):
            assert out.state.man("Laberne").health == "dead" and out.state.man("Laberne's horse").health == "dead"
            return
    raise AssertionError("no fall in 60 seeds")


def test_two_friends_may_share_an_underground_entrance_hex_never_elsewhere() -> None:
    """'Exception: on underground entrance hexes, there may be two characters on the same hex. One is above the
    entrance and the other in the entrance itself. They are placed one on top of the other, in that order. These
    characters cannot fight each other.'"""
    s = battle([man("Thrug", "A", "B3"), man("Grast", "A", "C3"), man("Jon", "A", "C2"), man("Goblin 1", "B", "H5")],
               terrain=[["C3", "entrance", 0]])
    while s.phase != "move":  # Jon's long bow may shoot first
        s = act(s, kind="end").state
    assert legal(s, "move", unit="Thrug", to="C3")
    s = act(s, kind="move", unit="Thrug", to="C3").state
    assert {m.name for m in s.living_on("C3")} == {"Thrug", "Grast"}
    assert not legal(s, "move", unit="Jon", to="C3")  # two at most
    foe = battle([man("Thrug", "A", "B3"), man("Goblin 1", "B", "C3")], terrain=[["C3", "entrance", 0]])
    assert not legal(foe, "move", unit="Thrug", to="C3")  # 'cannot pass through hexes containing enemy characters'
    plain = battle([man("Thrug", "A", "B3"), man("Grast", "A", "C3"), man("Goblin 1", "B", "H5")])
    assert not legal(plain, "move", unit="Thrug", to="C3")


def test_only_horsemen_mount_another_characters_horse_and_leave_that_horse_behind() -> None:
    """'Only horsemen can mount horses belonging to other characters.' 'When a character dismounts, the counter
    representing him mounted is turned over and the counter of the horseman on foot is placed on an adjacent free
    hex.'"""
    s = battle([man("Grast", "A", "B3"), man("Goblin 1", "A", "A4"), man("Arlon's horse", "A", "B2", "C2", horse=True),
                man("Crazy Ork", "B", "H5")])
    assert legal(s, "mount", unit="Grast") == [{"kind": "mount", "side": "A", "unit": "Grast", "horse": "Arlon's horse"}]
    assert not legal(s, "mount", unit="Goblin 1")  # a goblin has no mounted counter
    s = act(s, kind="mount", unit="Grast", horse="Arlon's horse").state
    grast = s.man("Grast")
    assert grast.mounted and grast.riding == "Arlon's horse" and grast.hexes == ("B2", "C2")
    assert "Arlon's horse" not in {m.name for m in s.men}
    to = legal(s, "dismount", unit="Grast")[0]["to"]
    s = act(s, kind="dismount", unit="Grast", to=to).state
    assert s.man("Arlon's horse").hexes == ("B2", "C2") and s.man("Arlon's horse").character == "Arlon"
    assert "Grast's horse" not in {m.name for m in s.men} and not s.man("Grast").riding


def test_a_friend_is_shifted_to_make_room_for_an_unhorsed_horseman() -> None:
    """'If all the adjacent hexes are occupied, a friendly character is shifted by one hex to make room for the
    unhorsed horseman. If he is entirely surrounded by enemies, an unhorsed horseman is automatically dead.'"""
    from rulekeeper.rulesets.dragonnoir.harm import unhorse

    ring = ["D3", "C2", "B2", "C4", "B4", "A2", "A3"]
    names = ["Goblin 1", "Goblin 2", "Goblin 3", "Troll 1", "Troll 2", "Crazy Ork", "Zed"]
    foes = [man(n, "B", h) for n, h in zip(names, ring, strict=True)]
    s = battle([man("Grast", "A", "C3", "B3", mounted=True), man("Thrug", "A", "A4"), *foes])
    after, lines = unhorse(s, s.man("Grast"), "stunned", False)
    assert after.man("Grast").hexes == ("A4",) and after.man("Grast").health == "stunned"
    assert after.man("Thrug").hex != "A4" and any("to make room" in line["text"] for line in lines)
    s = battle([man("Grast", "A", "C3", "B3", mounted=True), man("Shaman", "B", "A4"), *foes])
    after, _ = unhorse(s, s.man("Grast"), "stunned", False)
    assert after.man("Grast").health == "dead"
