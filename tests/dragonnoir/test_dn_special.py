"""Special powers applied: what one result does to the Baby Dragon, Crazy Ork, spectres, dogs, Trolls, Zed's victims."""

from __future__ import annotations

import pytest
from dn_kit import SHEET, fighter, scene

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.rulesets.dragonnoir.special import (
    SPECTRE_GAME_TURNS,
    dematerialise_after,
    flight_refusal,
    ignores_infiltration,
    obliged_defenders,
    spectre_game_turns,
    suffer,
)

FOOT = SHEET.combat.keys["foot"]
FIRE = SHEET.fire.keys.mounted  # the Baby Dragon is shot "as a mounted character without armour"


def blow(name: str, letter: str, state: str = "healthy", **kw: object):  # type: ignore[no-untyped-def]
    """The foot Combat Table's letter on the defender ``name``."""
    return suffer(fighter(name, False, state), letter, FOOT[letter].defender, **kw)  # type: ignore[arg-type]


def test_ordinary_characters_follow_the_cry_havoc_key() -> None:
    """The key the data files use (issue 14: "a stunned or wounded character wounded or stunned again is dead")."""
    assert blow("Laberne", "D").after == "stunned"
    hurt = blow("Laberne", "E")
    assert hurt.after == "wounded" and hurt.newly_wounded and hurt.wounds == 1
    assert blow("Laberne", "D", "wounded").dead and blow("Laberne", "E", "stunned").dead
    assert blow("Laberne", "F").dead
    assert blow("Laberne", "C").retreat and blow("Laberne", "C").after == "healthy"
    assert not blow("Laberne", "A").retreat and blow("Laberne", "A").after == "healthy"
    assert blow("Zacharie", "E").newly_wounded  # the Game then halves his EP (magic.wound_wizard)


def test_baby_dragon_ignores_infiltration_when_it_moves_or_fights() -> None:
    """"When it moves or fights, it ignores the infiltration of enemy lines rule.\""""
    assert ignores_infiltration(fighter("Baby Dragon")) is not None
    assert ignores_infiltration(fighter("Baby Dragon"), advancing=True) is not None
    assert ignores_infiltration(fighter("Laberne")) is None


def test_baby_dragon_shots_d_e_f_wound_the_rest_do_nothing() -> None:
    """"As far as shots are concerned, it is considered to be a mounted character without armour. The results D, E
    and F become "Dragon wounded". The other results have no effect.\""""
    baby = fighter("Baby Dragon")
    for letter in "DEF":
        after = suffer(baby, letter, FIRE[letter].target, source="fire", retreat=FIRE[letter].retreat)
        assert after.after == "wounded" and after.newly_wounded and not after.retreat
    for letter in "ABC":
        after = suffer(baby, letter, FIRE[letter].target, source="fire", retreat=FIRE[letter].retreat)
        assert after.after == "healthy" and not after.retreat and not after.newly_wounded


def test_baby_dragon_combat_as_the_black_dragon_but_it_retreats() -> None:
    """"As far as combats are concerned, it obeys the same rules as the Black Dragon. However, unlike the latter, it
    retreats normally, in attack as in defence." (decision: "the same rules" include the three wounds that kill.)"""
    for letter in "DEF":
        assert blow("Baby Dragon", letter).after == "wounded"
    assert blow("Baby Dragon", "C").retreat
    attacked_back = suffer(fighter("Baby Dragon"), "B", FOOT["B"].attacker)
    assert attacked_back.retreat
    assert blow("Baby Dragon", "E", "wounded", wounds=1).after == "wounded"
    third = blow("Baby Dragon", "D", "wounded", wounds=2)
    assert third.dead and third.wounds == 3
    assert not blow("Baby Dragon", "E", zed=True).dead  # curare spares the dragons (decision)


def test_crazy_ork_goes_berserk_on_a_stun_or_a_wound() -> None:
    """"As soon as he suffers a wounded or stunned result during a shot or a combat, Crazy Ork goes berserk. The
    counter representing him in good health is then replaced by the counter that represents him stronger.\""""
    for letter in "DE":
        assert blow("Crazy Ork", letter).after == "berserk"
    shot = suffer(fighter("Crazy Ork"), "E", SHEET.fire.keys.foot["E"].target, source="fire", retreat=True)
    assert shot.after == "berserk" and not shot.retreat
    assert fighter("Crazy Ork", False, "berserk").attack > fighter("Crazy Ork").attack


def test_berserk_ork_ignores_stuns_and_retreats_and_dies_of_one_more_wound() -> None:
    """"As soon as he has gone mad, the results "Defender stunned" and "Attacker retreats" or "Defender retreats" are
    no longer applied to him. It is only by wounding him a further time that one succeeds in killing him.\""""
    assert blow("Crazy Ork", "D", "berserk").after == "berserk"
    assert not blow("Crazy Ork", "C", "berserk").retreat
    attacker = suffer(fighter("Crazy Ork", False, "berserk"), "B", FOOT["B"].attacker)
    assert attacker.after == "berserk" and not attacker.retreat
    assert blow("Crazy Ork", "E", "berserk").dead


def test_elves_dwarves_and_goblins_are_ordinary_when_hurt() -> None:
    """The Elves' shooting and trees, the Dwarves' columns and the Goblins' water are in fireodds, combat and
    movement; a blow hurts them as anyone ("The Elves ... The Dwarves ... The Goblins" name no other power)."""
    for name in ("Elf 1", "Dwarf 1", "Goblin 1"):
        assert blow(name, "E").after == "wounded" and blow(name, "E", "wounded").dead


@pytest.mark.parametrize("name", ["Gargoyle 1", "Living Dead 1"])
def test_spectres_only_retreat(name: str) -> None:
    """Gargoyles: "It is impossible to stun them, wound them, still less kill them. They can, on the other hand, be
    made to retreat. In shots and combats, all the results "stunned", "wounded" or "killed" are turned into a simple
    retreat." Living Deads: "They have the same powers as the Gargoyles as regards shots and combats.\""""
    for letter in "CDEF":
        after = blow(name, letter)
        assert after.after == "healthy" and after.retreat
    assert blow(name, "E", zed=True).retreat and not blow(name, "E", zed=True).dead
    for letter in "BCDEF":
        target = SHEET.fire.keys.foot[letter]
        shot = suffer(fighter(name), letter, target.target, source="fire", retreat=target.retreat)
        assert shot.retreat and not shot.dead
    assert not blow(name, "A").retreat


def test_gargoyles_stay_4_game_turns_and_living_deads_2_the_first_player_turn_half() -> None:
    """"They remain only 4 game turns before dematerialising again (*)." "They remain 2 complete game turns before
    dematerialising again (*)." "(*) The player turn during which they appear counts as half a turn.\""""
    assert SPECTRE_GAME_TURNS == {"Gargoyle": 4, "Living Dead": 2}
    assert spectre_game_turns("Gargoyle 2") == 4 and spectre_game_turns("living dead 3") == 2
    # called in player turn 5 (side A's turn of game turn 3): 5 counts half, so Living Deads stay 5, 6, 7, 8
    assert dematerialise_after(5, 2) == 8
    assert dematerialise_after(5, 4) == 12
    with pytest.raises(ImpossibleRequestError):
        spectre_game_turns("Laberne")
    with pytest.raises(InvalidStatError):
        dematerialise_after(0, 2)


def test_gargoyles_fly_five_hexes_over_level_1_obstacles() -> None:
    """"They can fly short distances (5 hexes maximum) and pass over level 1 obstacles.\""""
    s = scene("width: 12\nheight: 3\nterrain: {C2: brush, D2: water, E2: crevasse, H2: trees, "
              "J2: {terrain: slope, level: 1}, K2: {terrain: slope, level: 2}}\n")
    b = s.board
    assert flight_refusal(s, b.parse("A2"), b.parse("F2")) is None  # over brush, water and a crevasse
    assert "5 hexes maximum" in (flight_refusal(s, b.parse("A2"), b.parse("G2")) or "")
    assert "trees" in (flight_refusal(s, b.parse("F2"), b.parse("J2")) or "")
    assert flight_refusal(s, b.parse("H1"), b.parse("K1")) is None
    assert "level 1" in (flight_refusal(s, b.parse("I2"), b.parse("L2")) or "")


def test_dogs_retreat_when_stunned_and_die_of_one_wound() -> None:
    """"They are dogs. They ignore the infiltration of enemy lines rule when they move. In shots and combats,
    "stunned" results are turned into a simple retreat. A single wound is enough to kill them.\""""
    for name in ("Lucifer", "Wardog 1"):
        stunned = blow(name, "D")
        assert stunned.retreat and stunned.after == "healthy"
        assert blow(name, "E").dead
        assert ignores_infiltration(fighter(name)) is not None


def test_lucifer_defends_godiva_when_beside_her() -> None:
    """"In combat, if Godiva is attacked, one is obliged to add Lucifer's defence potential to that of his mistress
    if the dog is on a hex adjacent to the young woman.\""""
    godiva, lucifer = fighter("Godiva"), fighter("Lucifer")
    both = obliged_defenders([godiva], lucifer, beside_godiva=True)
    assert [d.name for d in both] == ["Godiva", "Lucifer"]
    assert obliged_defenders([godiva], lucifer, beside_godiva=False) == [godiva]
    assert obliged_defenders([fighter("Zed")], lucifer, beside_godiva=True) == [fighter("Zed")]
    assert len(obliged_defenders(both, lucifer, beside_godiva=True)) == 2


def test_trolls_are_never_stunned_and_take_three_wounds() -> None:
    """"They can never be stunned. Any "stunned" result is turned into a simple retreat. They must be wounded three
    times to be killed.\""""
    stunned = blow("Troll 1", "D")
    assert stunned.retreat and stunned.after == "healthy"
    first = blow("Troll 1", "E")
    second = blow("Troll 1", "E", "wounded")
    third = blow("Troll 1", "E", "wounded_twice")
    assert (first.after, second.after, third.after) == ("wounded", "wounded_twice", None)
    assert blow("Troll 1", "D", "wounded").after == "wounded"
    assert blow("Troll 1", "F").dead  # decision: a "killed" result is not a wound


def test_zeds_curare_turns_wounded_into_killed() -> None:
    """"Any enemy character wounded in a combat in which Zed takes part dies instantly of his wounds. Thus, any
    "wounded" result is equal to "killed".\""""
    assert blow("Grast", "E", zed=True).dead
    assert blow("Troll 1", "E", zed=True).dead
    assert blow("Crazy Ork", "E", zed=True).dead
    assert blow("Grast", "D", zed=True).after == "stunned"  # a stun is not a wound
    shot = suffer(fighter("Grast"), "D", SHEET.fire.keys.foot["D"].target, source="fire", zed=True)
    assert not shot.dead  # "in a combat": Zed's curare is a melee weapon's


def test_horses_and_the_black_dragons_parts_are_applied_elsewhere() -> None:
    with pytest.raises(ImpossibleRequestError, match="dragon_defends"):
        blow("Black Dragon head", "E")


def test_a_letter_harms_only_the_side_its_key_names() -> None:
    """The defender's E does not wound the Baby Dragon when it is the attacker ("The results D, E and F become
    'Dragon wounded'" for the one they strike)."""
    for letter in "DEF":
        attacker = suffer(fighter("Baby Dragon"), letter, FOOT[letter].attacker)
        assert attacker.after == "healthy" and not attacker.newly_wounded and not attacker.retreat
