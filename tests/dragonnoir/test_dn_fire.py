"""The line of fire: one test per restriction of "Shooting Restrictions and Cover", each quoting it.

Most maps put the shooter and target on row 1 (a straight row of hexes, A1 to L1), the obstacle between.
"""

from __future__ import annotations

from fractions import Fraction

from dn_kit import SHEET, fighter, scene

from rulekeeper.boards.hexedges import Edge
from rulekeeper.boards.hexes import parse_hex_label
from rulekeeper.rulesets.dragonnoir.fire import line_of_fire
from rulekeeper.rulesets.dragonnoir.fireodds import fire_odds


def shot(text: str, shooter: str, target: str) -> tuple[bool, str, str]:
    line = line_of_fire(SHEET, scene(text), shooter, target)
    return line.possible, " ".join(line.reasons), line.cover


def row(terrain: str = "", edges: str = "", chars: str = "", width: int = 12, height: int = 4) -> str:
    return (f"width: {width}\nheight: {height}\nterrain: {{{terrain}}}\nedges: [{edges}]\ncharacters:\n"
            f"  Laberne: {{at: A1, side: h}}\n{chars}")


GOBLIN_F1 = "  Goblin 1: {at: F1, side: f}\n"


def test_trees_between_make_the_shot_impossible() -> None:
    # "If there are trees or tree branches between the shooter and his target, the shot is impossible."
    possible, why, _ = shot(row("C1: trees", chars=GOBLIN_F1), "Laberne", "Goblin 1")
    assert not possible and "trees" in why


def test_a_target_in_the_trees_can_be_shot_with_light_cover() -> None:
    # "It is possible, however, to shoot at a character on a tree hex as long as the line of fire crosses no other
    # tree hex. A character on a tree hex benefits from light cover."
    assert shot(row("F1: trees", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0::2] == (True, "light")
    assert not shot(row("F1: trees, D1: trees", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0]


def test_brush_does_not_block_and_gives_light_cover() -> None:
    # "It is possible to shoot into and through brush hexes. A character benefits from light cover if he is on a
    # brush hex."
    assert shot(row("C1: brush, F1: brush", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0::2] == (True, "light")


def test_a_horseman_has_the_strongest_cover_of_his_two_hexes() -> None:
    # "a mounted character who occupies a flat-terrain hex and a brush hex benefits from light cover."
    text = row("G1: brush", chars="  Jon: {at: [F1, G1], mounted: true, side: f}\n")
    assert shot(text, "Laberne", "Jon")[0::2] == (True, "light")


def test_crevasses_never_block() -> None:
    # "Crevasse hexes never block the line of fire."
    assert shot(row("C1: crevasse, D1: crevasse", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0]


def test_the_black_dragon_cannot_be_shot_and_the_baby_dragon_is_a_horseman_without_armour() -> None:
    # "It is impossible to shoot at an adult Black Dragon (Dragon Noir) because its skin is harder than chain mail.
    # The Dwarf Dragon (Baby Dragon) can be hit by shots. The calculation is made as for a mounted character
    # without armour."
    possible, why, _ = shot(row(chars="  Black Dragon head: {at: F1, side: f}\n"), "Laberne", "Black Dragon head")
    assert not possible and "harder than chain mail" in why
    odds = fire_odds(SHEET, fighter("Laberne"), fighter("Baby Dragon"), "short", "none")
    assert odds.table == "mounted" and odds.modifier == 0
    assert any("Dragon wounded" in n for n in odds.notes)


HOUSE = "E1: window, F1: house, G1: house"
WINDOW = "{between: [D1, E1], feature: window}, {between: [G1, H1], feature: wall}"


def test_from_inside_only_a_window_hex_shoots_out_from_the_middle_of_the_window() -> None:
    # "a character in a building can shoot outside only from a window hex. The line of fire then starts from the
    # middle of the outer edge of the window and not from the centre of the hexagon."
    text = row(HOUSE, WINDOW, "  Arlon: {at: E1, side: f}\n  Zed: {at: F1, side: f}\n")
    line = line_of_fire(SHEET, scene(text), "Arlon", "Laberne")
    window = Edge.between(parse_hex_label("D1"), parse_hex_label("E1"))
    assert line.possible and line.origin == window.midpoint()
    text = row(HOUSE, WINDOW, "  Arlon: {at: F1, side: f}\n")
    possible, why, _ = shot(text, "Arlon", "Laberne")
    assert not possible and "only from a window hex" in why


def test_from_outside_a_window_reaches_only_the_hex_behind_it() -> None:
    # "a character located outside can shoot through a window only if the target is immediately behind the window.
    # The line of fire must be able to reach the centre of the window hex, otherwise the shot is impossible."
    behind = row(HOUSE, WINDOW, "  Zed: {at: E1, side: f}\n")
    assert shot(behind, "Laberne", "Zed")[0::2] == (True, "medium")
    deeper = row(HOUSE, WINDOW, "  Zed: {at: F1, side: f}\n")
    possible, why, _ = shot(deeper, "Laberne", "Zed")
    assert not possible and "window" in why


def test_a_shooter_next_to_the_window_shoots_into_the_room() -> None:
    # "a shooter posted on the hex adjacent to the edge of the window can shoot inside the building. His field of
    # fire is however limited to only the hexes that form the room. His line of fire starts from the middle of the
    # inner edge of the window."
    text = row(HOUSE, WINDOW, "  Arlon: {at: D1, side: h}\n  Zed: {at: G1, side: f}\n")
    line = line_of_fire(SHEET, scene(text), "Arlon", "Zed")
    assert line.possible and line.origin == Edge.between(parse_hex_label("D1"), parse_hex_label("E1")).midpoint()


def test_through_a_door_the_line_is_calculated_normally() -> None:
    # "A character located outside or inside a building can shoot through a door as long as his line of fire is
    # not blocked by a portion of wall. The line of fire is calculated normally. However, when a character shoots
    # from a door hex, his line of fire starts from the middle of the opening"
    door = "E1: door, F1: house, G1: house"
    edges = "{between: [D1, E1], feature: door}"
    assert shot(row(door, edges, "  Zed: {at: F1, side: f}\n"), "Laberne", "Zed")[0::2] == (True, "medium")
    line = line_of_fire(SHEET, scene(row(door, edges, "  Arlon: {at: E1, side: f}\n")), "Arlon", "Laberne")
    assert line.possible and line.origin == Edge.between(parse_hex_label("D1"), parse_hex_label("E1")).midpoint()


def test_inside_a_building_the_cover_is_medium() -> None:
    # "characters inside a building benefit from medium cover when shot at through a door or a window."
    door = "E1: door, F1: house"
    assert shot(row(door, "{between: [D1, E1], feature: door}", "  Zed: {at: F1, side: f}\n"),
                "Laberne", "Zed")[2] == "medium"


def test_walls_block() -> None:
    # "Walls block the line of fire. A character behind a wall without an opening benefits from total cover."
    possible, why, _ = shot(row(edges="{between: [C1, D1], feature: wall}", chars=GOBLIN_F1), "Laberne", "Goblin 1")
    assert not possible and "Walls block" in why


def test_a_standing_character_blocks_a_crossbow() -> None:
    # "If the line of fire of a crossbowman passes through a hex occupied by a standing character - man or animal
    # -, the shot is impossible. On the other hand, stunned or dead characters do not block the line of fire."
    standing = row(chars="  Arlon: {at: B1, side: h}\n  Lucifer: {at: D1, side: f}\n" + GOBLIN_F1)
    possible, why, _ = shot(standing, "Arlon", "Goblin 1")
    assert not possible and "crossbowman" in why
    stunned = standing.replace("side: f}\n  Goblin", "side: f, state: stunned}\n  Goblin")
    assert shot(stunned, "Arlon", "Goblin 1")[0]


def test_archers_shoot_over_characters_only_at_medium_or_long_range() -> None:
    # "Archers can shoot over other characters provided the target is at medium or long range."
    near = row(chars="  Zed: {at: C1, side: h}\n" + GOBLIN_F1)
    possible, why, _ = shot(near, "Laberne", "Goblin 1")  # 5 hexes: short range for a long bow
    assert not possible and "medium or long range" in why
    far = row(chars="  Zed: {at: C1, side: h}\n  Goblin 1: {at: K1, side: f}\n", width=14)
    line = line_of_fire(SHEET, scene(far), "Laberne", "Goblin 1")  # 10 hexes: medium range
    assert line.possible and line.band == "medium"


def test_a_character_in_the_water_never_blocks() -> None:
    # "a character on a water hex never blocks the line of fire (see River)"
    text = row("C1: water", chars="  Arlon: {at: A2, side: h}\n  Goblin 2: {at: C1, side: f}\n" + GOBLIN_F1)
    text = text.replace("Laberne: {at: A1", "Laberne: {at: L4").replace("Arlon: {at: A2", "Arlon: {at: A1")
    assert shot(text, "Arlon", "Goblin 1")[0]


def test_mounted_arlon_shoots_over_an_adjacent_friend() -> None:
    # "when mounted, Arlon can shoot over a friendly character adjacent to him."
    base = "  Arlon: {at: [B1, A2], mounted: true, side: h}\n  Zed: {at: C1, side: h}\n" + GOBLIN_F1
    text = row(chars=base).replace("Laberne: {at: A1", "Laberne: {at: L4")
    assert shot(text, "Arlon", "Goblin 1")[0]
    on_foot = text.replace("Arlon: {at: [B1, A2], mounted: true", "Arlon: {at: B1")
    assert not shot(on_foot, "Arlon", "Goblin 1")[0]


def test_a_bridge_never_blocks_and_covers_those_in_the_water() -> None:
    # "A bridge never blocks a line of fire. However, when a line of fire crosses a bridge, characters in the water
    # benefit from medium cover."
    assert shot(row("C1: bridge, F1: water", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0::2] == (True, "medium")
    assert shot(row("F1: water", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0::2] == (True, "light")


def test_prison_bars_give_light_cover_unless_the_shooter_is_next_to_them() -> None:
    # "When a line of fire crosses the bars of a cell, the target benefits from light cover, unless the shooter is
    # on a hex adjacent to the bars."
    bars = "{between: [D1, E1], feature: bars}"
    assert shot(row(edges=bars, chars=GOBLIN_F1), "Laberne", "Goblin 1")[2] == "light"
    near = row(edges=bars, chars=GOBLIN_F1).replace("Laberne: {at: A1", "Laberne: {at: D1")
    assert shot(near, "Laberne", "Goblin 1")[2] == "none"


def test_river_a_character_in_the_water_cannot_shoot() -> None:
    # "A character on a water hex never blocks a line of fire. He cannot shoot and benefits from light cover."
    possible, why, _ = shot(row("A1: water", chars=GOBLIN_F1), "Laberne", "Goblin 1")
    assert not possible and "cannot shoot" in why.lower() or "He cannot shoot" in why


def test_springs_are_as_the_river() -> None:
    # "Springs: see River."
    assert shot(row("F1: spring", chars=GOBLIN_F1), "Laberne", "Goblin 1")[0::2] == (True, "light")


UNDER = ", ".join(f"{c}1: underground" for c in "ABCDEFGHIJKL")


def test_underground_shots_reach_5_hexes_without_cover_but_an_entrance_covers() -> None:
    # "shots are impossible underground if the target is more than 5 hexes from the shooter. ... the target benefits
    # from no cover, whatever the terrain he is on. A character located on an underground entrance hex benefits
    # from medium cover."
    assert shot(row(UNDER, chars=GOBLIN_F1), "Laberne", "Goblin 1")[0::2] == (True, "none")
    possible, why, _ = shot(row(UNDER, chars="  Goblin 1: {at: G1, side: f}\n"), "Laberne", "Goblin 1")
    assert not possible and "more than 5 hexes" in why
    entrance = UNDER.replace("F1: underground", "F1: entrance")
    assert shot(row(entrance, chars=GOBLIN_F1), "Laberne", "Goblin 1")[2] == "medium"


HILL = "F1: {terrain: slope, level: 1}, " + ", ".join(f"{c}1: {{terrain: flat, level: 1}}" for c in "GHIJKL")


def test_slope_the_one_below_must_be_as_far_from_the_slope_as_the_one_above() -> None:
    # "When the line of fire passes over the top of a slope, the shot is possible only if the character below is
    # at least as far from the slope hex as the character located above. If he is closer, no shot is possible"
    far = row(HILL, chars="  Goblin 1: {at: H1, side: f}\n")  # below A1: 5 from F1; above H1: 2
    assert shot(far, "Laberne", "Goblin 1")[0]
    close = row(HILL, chars="  Goblin 1: {at: L1, side: f}\n").replace("Laberne: {at: A1", "Laberne: {at: E1")
    possible, why, _ = shot(close, "Laberne", "Goblin 1")  # below E1: 1 from F1; above L1: 6
    assert not possible and "cannot see each other" in why


def test_slope_the_character_on_the_slope_hex_is_halfway_up_with_medium_cover() -> None:
    # "the shot is possible when the character below is on the slope hex itself. ... A character on a slope hex
    # benefits from medium cover when the line of fire passes over the top of the slope."
    text = row(HILL, chars="  Goblin 1: {at: F1, side: f}\n").replace("Laberne: {at: A1", "Laberne: {at: K1")
    assert shot(text, "Laberne", "Goblin 1")[0::2] == (True, "medium")


def test_slope_a_shooter_above_shoots_over_characters_he_cannot_see() -> None:
    # "when a shooter located on a slope cannot see a character located below, he can shoot over freely"
    text = row(HILL, chars="  Arlon: {at: J1, side: h}\n  Zed: {at: E1, side: f}\n  Goblin 1: {at: A2, side: f}\n")
    text = text.replace("Laberne: {at: A1", "Laberne: {at: L4").replace("Goblin 1: {at: A2", "Goblin 1: {at: A1")
    assert shot(text, "Arlon", "Goblin 1")[0]
    seen = text.replace(HILL, "F1: slope")  # all on one level: Zed stands in the way
    assert not shot(seen, "Arlon", "Goblin 1")[0]


TOWER = "C3: tower centre, D3: tower, B3: tower, B2: tower, C2: tower, B4: tower, C4: tower"


def test_a_tower_shooter_ignores_what_stands_below_within_8_hexes() -> None:
    # "Within a radius of 8 hexes, the shooter no longer has to take into account characters or other obstacles
    # located below. Brush and slope hexes no longer offer any cover within the indicated radius. Warning! Trees,
    # houses and other towers continue to block the line of fire."
    chars = "  Arlon: {at: D3, side: h}\n  Zed: {at: F3, side: f}\n  Goblin 1: {at: H3, side: f}\n"
    text = row(TOWER + ", H3: brush", chars=chars, height=6)
    line = line_of_fire(SHEET, scene(text), "Arlon", "Goblin 1")
    assert line.possible and line.cover == "none" and "middle of the side" in line.notes[0]
    trees = row(TOWER + ", G3: trees", chars=chars, height=6)
    assert not shot(trees, "Arlon", "Goblin 1")[0]


def test_on_a_tower_strong_cover_behind_the_rampart_total_in_the_centre() -> None:
    # "When shot at from outside, a character located at the top of a tower benefits from strong cover if he is
    # behind the rampart and from total cover if he is in the centre of the tower."
    rampart = row(TOWER, chars="  Zed: {at: D3, side: f}\n", height=6).replace("Laberne: {at: A1",
                                                                                "Laberne: {at: H3")
    assert shot(rampart, "Laberne", "Zed")[0::2] == (True, "strong")
    centre = rampart.replace("Zed: {at: D3", "Zed: {at: C3")
    possible, why, _ = shot(centre, "Laberne", "Zed")
    assert not possible and "total cover" in why


def test_no_shot_next_to_an_enemy_who_could_attack() -> None:
    # "a character cannot shoot if he is on a hex adjacent to an enemy character at the moment of the shot. ...
    # This does not apply if the enemy character is not in a position to attack the hex occupied by the shooter"
    text = row(chars="  Zed: {at: B1, side: f}\n" + GOBLIN_F1)
    possible, why, _ = shot(text, "Laberne", "Goblin 1")
    assert not possible and "busy fighting" in why
    rider = row("A1: trees", chars="  Jon: {at: [B1, C1], mounted: true, side: f}\n  Goblin 1: {at: A4, side: f}\n")
    assert shot(rider, "Laberne", "Goblin 1")[0]  # a horseman cannot attack a tree hex


def test_long_bows_cannot_shoot_mounted() -> None:
    # "Laberne and Jon cannot shoot when they are mounted because they have long bows."
    text = row(chars=GOBLIN_F1).replace("Laberne: {at: A1, side: h}", "Laberne: {at: [B1, A1], mounted: true, "
                                                                      "side: h}")
    possible, why, _ = shot(text, "Laberne", "Goblin 1")
    assert not possible and "long bows" in why


def test_the_shot_rolls_exactly_the_odds_shown() -> None:
    from rulekeeper.core.chance import Fate
    from rulekeeper.rulesets.dragonnoir.fireodds import resolve_fire

    odds = fire_odds(SHEET, fighter("Elf 1", False, "wounded"), fighter("Grast", True), "long", "light")
    # long +4, wounded +2, armour +1, Elf -1
    assert odds.modifier == 6 and odds.table == "mounted"
    for seed in range(30):
        fate = Fate.from_seed(seed)
        roll = resolve_fire(fate, odds)
        assert fate.record_dicts()[0]["odds"] == [[o, p] for o, p in odds.request.odds()]
        assert roll.letter == odds.rows[roll.die]
    assert sum(odds.letters.values()) == 1


def test_a_horse_alone_is_shot_as_a_horseman() -> None:
    # "If a player decides to attack a horse without a rider, he resolves the combat or the shot as if he were
    # dealing with a mounted character. However, the results C, D, E or F for shots ... cause the death of the
    # horse."
    text = row("G1: brush", chars="  Grast's horse: {at: [F1, G1], horse: true, side: f}\n")
    sc = scene(text)
    line = line_of_fire(SHEET, sc, "Laberne", "Grast's horse")
    assert line.possible and line.cover == "light"  # the strongest cover of its two hexes
    horse = sc.piece("Grast's horse").fighter
    odds = fire_odds(SHEET, fighter("Laberne"), horse, "short", "light")
    assert odds.table == "mounted" and odds.modifier == 1  # barded: "considered to be a character in armour"
    assert any("C, D, E or F kill the horse" in n for n in odds.notes)


def test_the_shipped_example_map() -> None:
    from pathlib import Path

    from rulekeeper.rulesets.dragonnoir.scene import load_scene

    path = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/dragonnoir/data/maps/example.yaml"
    sc = load_scene(path, SHEET)
    through_window = line_of_fire(SHEET, sc, "Laberne", "Goblin 1")  # immediately behind the window
    assert through_window.possible and through_window.cover == "medium"
    past_window = line_of_fire(SHEET, sc, "Laberne", "Crazy Ork")  # deeper in the house, Goblin 1 in the way
    assert not past_window.possible and any("window" in r for r in past_window.reasons)
    through_door = line_of_fire(SHEET, sc, "Arlon", "Crazy Ork")  # "The line of fire is calculated normally."
    assert through_door.possible and through_door.cover == "medium"
    over_house = line_of_fire(SHEET, sc, "Laberne", "Zed")
    assert not over_house.possible and any("Walls block" in r for r in over_house.reasons)


def test_errare_humanum_est_a_miss_may_hit_a_numbered_hex_around_the_target() -> None:
    # "each time a shooter botches his shot (result "shot missed"), the player concerned rolls the die a second time
    # ... the projectile has ended its course in one of the 6 hexes around the target and wounds any character
    # found there. Characters in armour are not wounded but must immediately retreat 2 hexes. It is obvious that if
    # the line of fire is blocked by an obstacle, the character cannot be hit."
    from rulekeeper.rulesets.dragonnoir.fire import stray_hexes
    from rulekeeper.rulesets.dragonnoir.fireodds import errare_odds

    text = ("width: 12\nheight: 5\nterrain: {}\nedges: [{between: [J2, K2], feature: wall}]\ncharacters:\n"
            "  Laberne: {at: A1, side: h}\n  Goblin 1: {at: J2, side: f}\n  Grast: {at: I2, side: h}\n"
            "  Zed: {at: K2, side: f}\n  Goblin 2: {at: J3, side: f}\n")
    sc = scene(text)
    line = line_of_fire(SHEET, sc, "Laberne", "Goblin 1")
    assert line.possible and line.band == "medium"
    odds = fire_odds(SHEET, sc.piece("Laberne").fighter, sc.piece("Goblin 1").fighter, "medium", "none")
    stray = errare_odds(SHEET, odds)
    assert odds.letters["A"] == Fraction(1, 2)
    assert [s.chance for s in stray] == [Fraction(1, 20)] * 6  # a miss (1/2) then the number of the hex (1/10)
    effects = {s.direction: s.effect for s in stray_hexes(SHEET, sc, line, stray)}
    assert effects["E"] == "K2: sheltered (a wall is in the way)"
    assert effects["W"] == "I2: Grast retreats 2 hexes (in armour)"
    assert effects["SW"] == "J3: Goblin 2 wounded" and effects["NE"] == "K1: nobody"
