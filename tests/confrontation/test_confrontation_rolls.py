"""Exact odds of Confrontation tests against a brute-force oracle and against seeded draws.

The odds the keeper shows must be the odds it rolls with: every shape is compared with the
oracle that plays every sequence of dice, the draw's record must carry exactly the shown
request, and 10^5 seeded dice-by-dice resolutions must land within 4σ of the exact odds.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from cf_oracle import enumerate_odds, play
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.confrontation.abilities import ABILITIES, shape_of
from rulekeeper.rulesets.confrontation.effects import TESTED, TestShape
from rulekeeper.rulesets.confrontation.odds import describe_test
from rulekeeper.rulesets.confrontation.rolls import (
    OPENING_CAP,
    natural_distribution,
    odds_of_test,
    p_success,
    request_for_test,
    roll_test,
    succeeds,
)

SHAPES = [
    TestShape(),
    TestShape(opens=frozenset({5, 6})),
    TestShape(opens=frozenset({4, 5, 6}), negative_opening=False),
    TestShape(dice=2, keep_lowest=True),
    TestShape(dice=2, keep_lowest=False, opens=frozenset({5, 6})),
    TestShape(natural_bonus=1),
    TestShape(natural_bonus=-1, modifier=2),
    TestShape(opens=frozenset()),
]


@pytest.mark.parametrize("shape", SHAPES, ids=range(len(SHAPES)))
def test_exact_odds_equal_the_oracle_over_every_dice_sequence(shape: TestShape) -> None:
    assert natural_distribution(shape) == enumerate_odds(shape, OPENING_CAP)
    assert sum(natural_distribution(shape).values()) == 1


@pytest.mark.parametrize("difficulty", [5, 7, 9])
def test_a_re_roll_matches_the_oracle(difficulty: int) -> None:
    shape = TestShape(re_roll=True, opens=frozenset({5, 6}))
    assert odds_of_test(shape, 3, difficulty, cap=2) == enumerate_odds(shape, 2, 3, difficulty)


def test_the_plain_test_in_numbers() -> None:
    """D6 + 4 vs 7: a 3, 4 or 5 passes, a 6 opens and passes; 1 and 2 fail: 2/3."""
    dist = natural_distribution(TestShape())
    assert dist[1 - 6] == Fraction(1, 36)  # a 1 opened negatively by a 6
    assert 1 not in dist  # a plain 1 is always opened negatively
    assert dist[7] == Fraction(1, 36) and dist[24] == Fraction(1, 6**4)  # 6,6,6,6 at the cap
    assert p_success(TestShape(), 4, 7) == Fraction(2, 3)
    assert p_success(TestShape(), 10, 7) == Fraction(5, 6)  # only the natural fail fails
    assert p_success(TestShape(), 0, 13) == Fraction(1, 36)  # 6 then 6 or more


def test_the_recorded_odds_are_the_shown_odds() -> None:
    for i, shape in enumerate([*SHAPES, TestShape(re_roll=True)]):
        shown = request_for_test("ATT", shape, 4, 7)
        fate = Fate.from_seed(i)
        result = roll_test(fate, "ATT", shape, 4, 7)
        record = fate.records[-1]
        assert record.request == shown
        exact = odds_of_test(shape, 4, 7)
        assert dict(shown.odds()) == pytest.approx({f"natural {n}": float(p) for n, p in exact.items()}, abs=1e-15)
        assert record.outcome == f"natural {result.natural}"
        assert result.final == result.natural + 4 + shape.modifier
        assert result.success == (result.natural > 1 and result.final >= 7)


def _within_4_sigma(counts: Counter[int], exact: dict[int, Fraction], n: int) -> None:
    assert set(counts) <= set(exact)
    for value, p in exact.items():
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(counts[value] - n * float(p)) <= 4 * sigma + 1, (value, counts[value], n * float(p))


def test_100000_seeded_resolutions_agree_with_the_exact_odds() -> None:
    shape = TestShape(opens=frozenset({5, 6}), re_roll=True)
    rng = random.Random(20261201)
    n = 100_000

    def dice() -> Iterator[int]:
        while True:
            yield rng.randint(1, 6)

    counts = Counter(play(shape, dice(), OPENING_CAP, 3, 8) for _ in range(n))
    _within_4_sigma(counts, odds_of_test(shape, 3, 8), n)


def test_100000_draws_through_fate_agree_with_the_exact_odds() -> None:
    shape = TestShape(dice=2, keep_lowest=True)
    fate = Fate.from_seed(7)
    n = 100_000
    request = request_for_test("COU", shape, 4, 8)
    counts = Counter(int(fate.draw(request).outcome.split()[1]) for _ in range(n))
    _within_4_sigma(counts, odds_of_test(shape, 4, 8), n)


NAMES = sorted(ABILITIES)


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.sampled_from(NAMES), max_size=4), test=st.sampled_from(TESTED),
       characteristic=st.integers(0, 8), difficulty=st.integers(2, 14), seed=st.integers(0, 2**32))
def test_property_any_abilities_record_the_odds_they_show(
        names: list[str], test: str, characteristic: int, difficulty: int, seed: int) -> None:
    """Whatever abilities compose a test, the draw records exactly the shown request, whose odds are the
    exact fractions (summing to 1), and the drawn result is read back with the same success rule."""
    shape = shape_of(test, [f"{n}/1" for n in names])
    exact = odds_of_test(shape, characteristic, difficulty)
    assert sum(exact.values()) == 1
    shown = request_for_test(test, shape, characteristic, difficulty)
    fate = Fate.from_seed(seed)
    result = roll_test(fate, test, shape, characteristic, difficulty)
    assert fate.records[-1].request == shown
    assert dict(shown.odds()) == pytest.approx({f"natural {n}": float(p) for n, p in exact.items()}, abs=1e-12)
    # Born killer "automatically succeeds all COU tests with a difficulty that is less than or equal to the COU he
    # is using", whatever the roll; any other test: a natural fail fails, else the final result against difficulty
    automatic = shape.auto_success and difficulty <= characteristic
    assert result.success == (automatic or (result.natural > 1 and result.final >= difficulty))
    assert float(p_success(shape, characteristic, difficulty)) == pytest.approx(
        sum(p for o, p in shown.odds() if succeeds(int(o.split()[1]), characteristic, shape, difficulty)), abs=1e-12)


def test_the_odds_text_lists_every_ability_and_the_exact_chance() -> None:
    lines = describe_test("ATT", 4, 7, ["Brutal", "Parade", "Resolute/1"])
    assert lines[0] == "ATT test: D6 + 4 vs difficulty 7"
    assert "  Brutal: test ability, changes this test" in lines
    assert "  Resolute/1: test ability, changes this test" in lines
    assert "  Parade: does not touch a ATT test" in lines
    # D6 + 5 vs 7: a 2, 3 or 4 passes, a 5 or 6 opens and passes; only the 1 fails
    assert "success 83.33% (exactly 5/6)" in lines
    assert "  final   0 natural fail: 2.7778%" in lines  # a 1 opened negatively by a 6: 1 - 6 + 5


def test_a_typo_or_a_missing_value_is_refused() -> None:
    with pytest.raises(ValueError, match="'Brutall'"):
        shape_of("ATT", ["Brutall"])
    with pytest.raises(ValueError, match="Resolute/X needs a whole number"):
        shape_of("ATT", ["Resolute"])
