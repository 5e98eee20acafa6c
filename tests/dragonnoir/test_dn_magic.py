"""Magic: energy points, the success die, the radius of action, counterspells, initiative, spells as data."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.boards.hexes import Hex, hex_distance
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import DataFileError, ImpossibleRequestError, InvalidStatError, UnknownNameError
from rulekeeper.rulesets.dragonnoir.magic import (
    AlreadyCastError,
    Casting,
    Countering,
    IllegalCastError,
    NotEnoughEnergyError,
    OutOfRangeError,
    Wizard,
    cast_odds,
    heal_wizard,
    initiative,
    load_spells,
    new_player_turn,
    new_wizard,
    reach,
    resolve_cast,
    shipped_spells,
    success_threshold,
    wound_wizard,
)

SPELLS = shipped_spells()
HOME = Hex(0, 0)


def east(n: int) -> Hex:
    """The hex ``n`` hexes due east of HOME (hex_distance n)."""
    return Hex(n, 0)


def zach(**kw: object) -> Wizard:
    return replace(new_wizard("Zacharie", 1), **kw)  # type: ignore[arg-type]


def shaman(**kw: object) -> Wizard:
    return replace(new_wizard("Shaman", 1), **kw)  # type: ignore[arg-type]


def test_energy_is_level_times_100() -> None:
    """"Depending on the wizard's level, he has more or fewer energy points (available EP = Level x 100). Thus, a
    first-level wizard has 100 energy points.\""""
    assert new_wizard("Zacharie", 1).energy == 100
    assert new_wizard("Shaman", 1).energy == 100
    assert new_wizard("Someone", 3).energy == 300


def test_a_wound_halves_the_energy_rounded_down_and_healing_doubles_it() -> None:
    """"When a wizard is wounded, the number of energy points he has left is divided by two (rounded down). If he
    heals, the EP he has left are multiplied by two.\""""
    hurt = wound_wizard(zach(energy=75))
    assert (hurt.energy, hurt.wounded) == (37, True)
    healed = heal_wizard(hurt)
    assert (healed.energy, healed.wounded) == (74, False)
    with pytest.raises(IllegalCastError):
        heal_wizard(healed)
    with pytest.raises(IllegalCastError):
        wound_wizard(hurt)


def test_the_success_threshold_grows_one_per_ten_energy_points() -> None:
    """"for a spell that requires 1 to 10 energy points, he must roll more than 1 on the die to succeed. - for a
    spell that requires 11 to 20 EP, he must roll more than 2 ... - for a spell that requires 21 to 30 EP, he must
    roll more than 3 to succeed, etc.\""""
    assert [success_threshold(c) for c in (1, 10, 11, 20, 21, 30, 31, 95, 100)] == [1, 1, 2, 2, 3, 3, 4, 10, 10]


def test_golden_first_level_wizards_never_fail_a_10_ep_spell() -> None:
    """"Zacharie or Shaman are sure to succeed with spells requiring no more than 10 energy points. They need in fact
    to roll at least 2 on the die, and they have a bonus of 1 point.\""""
    odds = cast_odds(SPELLS, Casting("Small trees", zach(), HOME, (east(3),)))
    assert odds.cast.spell == "Small trees" and odds.cast.cost == 10
    assert (odds.cast.threshold, odds.cast.bonus) == (1, 1)
    assert odds.cast.probability == 1
    assert odds.cast.succeeds(1)  # a 1, +1, is 2: "more than 1"


def test_the_level_bonus_is_added_to_the_die() -> None:
    """"The size of this bonus is equal to the level reached: level 1 / +1 on the die, level 2 / +2 on the die\"."""
    one = cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(3),)))  # 30 EP: more than 3
    two = cast_odds(SPELLS, Casting("Stunning", new_wizard("Master", 2), HOME, (east(3),)))
    assert (one.cast.bonus, two.cast.bonus) == (1, 2)
    assert one.cast.probability == Fraction(8, 10)  # die 3..10 (+1 > 3)
    assert two.cast.probability == Fraction(9, 10)  # die 2..10 (+2 > 3)


def test_the_radius_is_10_hexes_and_each_hex_beyond_costs_one_on_the_die() -> None:
    """"For a first-level wizard, this radius is 10 hexes from the hex he occupies (that hex does not count in the
    10 hexes). A wizard can try to cast a spell ... beyond his radius of action. But, in that case, he has a penalty
    on the die of one point per hex beyond the limit.\""""
    at10 = cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(10),)))
    at13 = cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(13),)))
    assert (at10.cast.distance, at10.cast.penalty) == (10, 0)
    assert (at13.cast.distance, at13.cast.penalty) == (13, 3)
    assert at13.cast.probability == Fraction(5, 10)  # die 6..10: +1 -3 > 3
    assert new_wizard("Master", 2).radius == 20  # estimated: 10 per level


def test_an_area_spell_counts_its_farthest_hex() -> None:
    """"N.B. When a spell affects several hexes, it is always the hex farthest from the wizard that is taken into
    account for the calculations.\""""
    area = (east(9), east(10), east(12))
    odds = cast_odds(SPELLS, Casting("Medium trees", zach(), HOME, area))
    assert reach(HOME, area) == 12
    assert (odds.cast.distance, odds.cast.penalty) == (12, 2)


def test_a_counterspell_costs_double_and_both_wizards_pay_whatever_happens() -> None:
    """"A counterspell costs double the energy points of the spell cast. ... Whatever the final result, both wizards
    spend the corresponding energy points.\""""
    odds = cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(4),)), Countering(shaman(), east(6)))
    assert odds.counter is not None and odds.counter.cost == 60
    for seed in range(20):
        result = resolve_cast(Fate.from_seed(seed), odds)
        assert result.caster.energy == 70 and result.counterer is not None and result.counterer.energy == 40


def test_the_counterer_rolls_first_and_the_caster_only_if_the_counter_fails() -> None:
    """"In this case, it is the wizard who countered who rolls the die to find out whether his counter succeeds, as
    for a normal spell. ... If the counter succeeds, the spell is not applied. If the counter fails, the wizard who
    cast the spell rolls the die in his turn to find out whether he succeeds. It may happen that a counterspell
    fails against a spell that also fails.\""""
    odds = cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(12),)), Countering(shaman(), east(5)))
    seen = set()
    for seed in range(60):
        fate = Fate.from_seed(seed)
        result = resolve_cast(fate, odds)
        assert fate.records[0].request == odds.requests[0]  # the counter die comes first
        if result.countered:
            assert len(fate.records) == 1 and result.cast_die is None and not result.applied
        else:
            assert len(fate.records) == 2 and fate.records[1].request == odds.requests[1]
        seen.add((result.countered, result.succeeded))
    assert {(True, None), (False, True), (False, False)} <= seen  # incl. a failed counter against a failed spell


def test_a_counter_is_ranged_from_the_countering_wizard_to_the_target() -> None:
    """"It is possible to try to counter a spell in the same way, by calculating the distance between the countering
    wizard and the character or hex targeted by the spell.\""""
    odds = cast_odds(SPELLS, Casting("Small bridge", zach(), HOME, (east(2),)), Countering(shaman(), east(14)))
    assert odds.counter is not None
    assert (odds.counter.distance, odds.counter.penalty) == (12, 2)
    assert odds.cast.distance == 2


def test_the_counterspell_threshold_follows_its_own_double_cost_or_the_spells_cost() -> None:
    """"it is the wizard who countered who rolls the die to find out whether his counter succeeds, as for a normal
    spell. A counterspell costs double the energy points of the spell cast." (decision: its own cost sets the
    threshold; option "spell cost" reads the countered spell's.)"""
    casting, countering = Casting("Stunning", zach(), HOME, (east(3),)), Countering(shaman(), east(3))
    own = cast_odds(SPELLS, casting, countering)
    other = cast_odds(SPELLS, casting, countering, counter_reading="spell cost")
    assert own.counter is not None and other.counter is not None
    assert (own.counter.threshold, other.counter.threshold) == (6, 3)
    assert other.counter.cost == 60  # the cost is double either way


def test_initiative_goes_to_the_wizard_with_more_energy_left() -> None:
    """"if two enemy wizards want to cast a spell affecting the same character or the same hex, it is the one with
    the most energy points in reserve who wins the initiative.\""""
    assert initiative(zach(energy=40), shaman(energy=70), tie="Zacharie")[0] == "Shaman"
    assert initiative(zach(energy=90), shaman(energy=70), tie="Shaman")[0] == "Zacharie"
    first, why = initiative(zach(energy=50), shaman(energy=50), tie="Shaman")
    assert first == "Shaman" and "estimated" in why
    with pytest.raises(UnknownNameError):
        initiative(zach(), shaman(), tie="Godiva")


def test_one_spell_and_one_counterspell_per_player_turn() -> None:
    """"During player A's turn, each of the wizards has the right to cast one spell and one counterspell." "On each of
    a player's turns, each wizard can cast one spell and possibly counter another.\""""
    first = resolve_cast(Fate.from_seed(1), cast_odds(SPELLS, Casting("Small trees", zach(), HOME, (east(1),))))
    with pytest.raises(AlreadyCastError, match="already cast a spell"):
        cast_odds(SPELLS, Casting("Small trees", first.caster, HOME, (east(2),)))
    # the same wizard may still counter once in the same player turn
    counter = resolve_cast(Fate.from_seed(2), cast_odds(SPELLS, Casting("Small trees", shaman(), east(5), (east(6),)),
                                                        Countering(first.caster, HOME)))
    assert counter.counterer is not None and counter.counterer.counter_cast
    with pytest.raises(AlreadyCastError, match="already countered"):
        cast_odds(SPELLS, Casting("Small trees", shaman(), east(5), (east(6),)), Countering(counter.counterer, HOME))
    fresh = new_player_turn(counter.counterer)
    assert not fresh.spell_cast and not fresh.counter_cast
    cast_odds(SPELLS, Casting("Small trees", fresh, HOME, (east(2),)))


def test_no_spell_beyond_the_energy_left() -> None:
    """"Thus, a first-level wizard has 100 energy points. Beyond this number, he can no longer cast spells.\""""
    with pytest.raises(NotEnoughEnergyError, match="25 EP left"):
        cast_odds(SPELLS, Casting("Stunning", zach(energy=25), HOME, (east(1),)))
    with pytest.raises(NotEnoughEnergyError, match="counterspell costs 60"):
        cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(1),)), Countering(shaman(energy=59), east(1)))
    assert isinstance(NotEnoughEnergyError("x"), ImpossibleRequestError)


def test_a_cast_no_die_can_make_succeed_is_out_of_range() -> None:
    """"he has a penalty on the die of one point per hex beyond the limit" (decision: a try that no die can make
    succeed is refused as out of range).\""""
    assert cast_odds(SPELLS, Casting("Small trees", zach(), HOME, (east(19),))).cast.probability == Fraction(1, 10)
    with pytest.raises(OutOfRangeError, match="cannot succeed"):
        cast_odds(SPELLS, Casting("Small trees", zach(), HOME, (east(20),)))  # 10 + 1 - 10 is not more than 1
    with pytest.raises(OutOfRangeError):
        cast_odds(SPELLS, Casting("Small trees", zach(), HOME, (east(2),)), Countering(shaman(), east(40)))


def test_personal_spells_are_cast_on_the_wizard_himself_and_areas_cover_their_hexes() -> None:
    """"personal spells, which the wizard applies to himself"; the magic terrain: "Trees: There are 6 small trees,
    4 medium and 3 large (respectively 1, 3 and 7 hexes).\""""
    odds = cast_odds(SPELLS, Casting("Self-healing", zach(wounded=True, energy=50), HOME))
    assert odds.cast.distance == 0
    with pytest.raises(IllegalCastError, match="himself"):
        cast_odds(SPELLS, Casting("Self-healing", zach(), HOME, (east(1),)))
    with pytest.raises(IllegalCastError, match="covers 3"):
        cast_odds(SPELLS, Casting("Medium trees", zach(), HOME, (east(1),)))
    with pytest.raises(IllegalCastError, match="one character"):
        cast_odds(SPELLS, Casting("Stunning", zach(), HOME, ()))
    with pytest.raises(IllegalCastError, match="own spell"):
        cast_odds(SPELLS, Casting("Stunning", zach(), HOME, (east(1),)), Countering(zach(), HOME))


def test_a_stunned_wizard_casts_nothing() -> None:
    """Decision (the seed is silent): a stunned character does nothing until "put back on his feet"."""
    with pytest.raises(IllegalCastError, match="stunned"):
        cast_odds(SPELLS, Casting("Small trees", zach(stunned=True), HOME, (east(1),)))


@pytest.mark.parametrize(("spell", "distance", "counter_at"), [
    ("Small trees", 3, None), ("Stunning", 12, None), ("Call the Gargoyles", 14, None), ("Healing", 11, Hex(5, 0)),
    ("Stunning", 10, Hex(-3, 0)), ("Raise the Living Deads", 8, Hex(2, 0)), ("Small bridge", 15, Hex(6, 0)),
])
def test_the_odds_shown_are_brute_force_over_every_pair_of_dice(spell: str, distance: int,
                                                                 counter_at: Hex | None) -> None:
    """The odds listed before the roll are exactly the chance of the spell taking effect, counting every die."""
    _, s = SPELLS.spell(spell)
    targets = tuple(Hex(distance, -i) for i in range(s.hexes))  # all at `distance` from HOME along the NE edge
    counter = None if counter_at is None else Countering(shaman(), counter_at)
    odds = cast_odds(SPELLS, Casting(spell, zach(), HOME, targets), counter)
    applied = 0
    for c_die, s_die in product(range(1, 11), repeat=2):
        countered = counter is not None and c_die + 1 - _penalty(odds.counter.distance if odds.counter else 0) \
            > (2 * s.ep + 9) // 10
        applied += (not countered) and s_die + 1 - _penalty(odds.cast.distance) > (s.ep + 9) // 10
    assert odds.p_applied == Fraction(applied, 100)


def _penalty(distance: int) -> int:
    return max(0, distance - 10)


def test_the_roll_draws_exactly_the_requests_shown() -> None:
    """Odds shown before = odds used: every draw is one of ``odds.requests``, in order, and its outcome's die
    decides success exactly as the odds say; over seeded rolls the frequency matches."""
    odds = cast_odds(SPELLS, Casting("Healing", zach(), HOME, (east(11),)), Countering(shaman(), east(3)))
    applied, n = 0, 2000
    for seed in range(n):
        fate = Fate.from_seed(seed)
        result = resolve_cast(fate, odds)
        assert [r.request for r in fate.records] == list(odds.requests[: len(fate.records)])
        for i, rec in enumerate(fate.records):
            die, verdict = rec.outcome.split("→")
            roll = odds.counter if i == 0 else odds.cast
            assert roll is not None and roll.succeeds(int(die)) == (verdict == "success")
        applied += result.applied
    p = float(odds.p_applied)  # (1 - 1/10) * 5/10 = 0.45: a 100 EP counter needs a 10
    assert abs(applied / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_spells_are_data_with_the_seeds_four_categories_and_marked_examples() -> None:
    """"Magic spells are divided into three main categories: personal ... on others ... on the environment ... A last
    category, somewhat particular, brings together pure magic spells" — "You will find the complete list of spells on
    the back of the wizard sheets" (not in the seed: every shipped spell is an example, every number estimated)."""
    assert set(SPELLS.categories) == {"personal", "others", "environment", "pure magic"}
    assert all(c.source == "seed" for c in SPELLS.categories.values())
    assert {s.category for s in SPELLS.spells.values()} == set(SPELLS.categories)
    for name, s in SPELLS.spells.items():
        assert s.example, name
        assert s.cost.source == "estimated" and s.cost.why, name
    gargoyles = SPELLS.spell("call the gargoyles")[1].effect
    assert gargoyles.summon == "Gargoyle" and gargoyles.game_turns is not None and gargoyles.game_turns.value == 4


def test_a_players_spells_file_replaces_the_shipped_one(tmp_path: Path) -> None:
    """A group with its own wizard sheets ships its own spells.yaml; a bad one is a typed error naming the file."""
    assert load_spells(tmp_path) is SPELLS  # no spells.yaml there: the shipped one
    (tmp_path / "spells.yaml").write_text(
        "about: {source: user, why: our sheet}\n"
        "categories: {personal: {source: seed, why: x}}\n"
        "spells:\n  Fireball:\n    category: others\n    example: false\n    target: character\n"
        "    cost: {value: 35, source: user, why: our sheet}\n    effect: {kind: stun}\n    text: boom\n",
        encoding="utf-8")
    assert load_spells(tmp_path).spell("fireball")[1].ep == 35
    (tmp_path / "spells.yaml").write_text("about: {source: user, why: x}\ncategories: {}\nspells:\n  Bad:\n"
                                          "    category: personal\n    example: false\n    target: character\n"
                                          "    cost: {value: 0, source: user, why: x}\n    effect: {kind: terrain}\n"
                                          "    text: x\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="spells.yaml"):
        load_spells(tmp_path)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SPELLS.spells)), st.integers(1, 3), st.integers(0, 30), st.integers(1, 3),
       st.one_of(st.none(), st.integers(0, 30)))
def test_the_odds_are_brute_force_for_any_level_and_distance(spell: str, level: int, distance: int,
                                                             counter_level: int, counter_distance: int | None) -> None:
    """For any levels and distances: ``p_applied`` counts the pairs of dice where the counter fails and the spell
    succeeds, with bonus +level, −1 per hex beyond 10 × level, thresholds ⌈cost/10⌉ and ⌈2·cost/10⌉."""
    _, s = SPELLS.spell(spell)
    caster = new_wizard("Zacharie", level)
    targets = () if s.target == "self" else tuple(Hex(distance, -i) for i in range(s.hexes))
    counter = None if counter_distance is None else Countering(new_wizard("Shaman", counter_level),
                                                                Hex(0 if s.target == "self" else distance,
                                                                    counter_distance))
    try:
        odds = cast_odds(SPELLS, Casting(spell, caster, HOME, targets), counter)
    except (OutOfRangeError, NotEnoughEnergyError):
        return
    cast_distance = 0 if s.target == "self" else distance
    c_distance = 0 if counter is None else max(hex_distance(counter.at, t) for t in targets or (HOME,))
    applied = 0
    for c_die, s_die in product(range(1, 11), repeat=2):
        countered = counter is not None and \
            c_die + counter_level - max(0, c_distance - 10 * counter_level) > (2 * s.ep + 9) // 10
        applied += (not countered) and s_die + level - max(0, cast_distance - 10 * level) > (s.ep + 9) // 10
    assert odds.p_applied == Fraction(applied, 100)


def test_a_wizard_is_stored_and_read_back() -> None:
    w = zach(energy=37, wounded=True, spell_cast=True)
    assert Wizard.from_dict(w.to_dict()) == w
    with pytest.raises(InvalidStatError):
        Wizard.from_dict({"name": "x"})
