"""Mystic abilities as reserve arithmetic (mystic.py): what the seed states completely about mana Gems and T.F.

The Mystic phase, spells and miracles are not in the seed (docs/rules/confrontation.md, "Mystic actions"); these
tests check the hooks a future Mystic phase reads, each against the sentence it implements.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.effects import compose
from rulekeeper.rulesets.confrontation.mystic import (
    faith_kept,
    gems_recovered,
    mastery_of_the_arcana,
    offering_odds,
    sacrifice_yield,
)
from rulekeeper.rulesets.confrontation.wounds import CancellationRoll, damage_odds, load_wound_table

TABLE = load_wound_table()


def card(*abilities: str, **kw: Any) -> FighterCard:
    base: dict[str, Any] = {"name": "Mystic", "MOV": 10, "INI": 3, "ATT": 3, "STR": 3, "DEF": 3, "RES": 3, "COU": 4,
                            "DIS": 3, "POW": 4, "FAI": 3, "HP": 4, "abilities": list(abilities)}
    base.update(kw)
    return FighterCard.model_validate(base)


def test_piety_keeps_up_to_x_tf() -> None:
    """Piety/X: "If at the beginning of the Mystic phase the Faithful has X or less T.F. in his reserve, then it does
    not empty. Otherwise, it reduces to just contain X T.F." (estimated: without it the reserve empties)."""
    assert faith_kept(card("Piety/3"), 2) == 2 and faith_kept(card("Piety/3"), 7) == 3
    assert faith_kept(card(), 7) == 0


def test_recovery_adds_x_gems_within_the_reserve_limit() -> None:
    """Recovery/X: "During the Mystic phase, after the mana recovery roll, the Magician recovers X additional Gems of
    a single element he dominates, within his reserve limit"."""
    assert gems_recovered(card("Recovery/2"), 3, 10) == 5 and gems_recovered(card("Recovery/2"), 9, 10) == 10
    assert gems_recovered(card(), 3, 10) == 3


def test_mana_and_faith_yield_x_when_eliminated() -> None:
    """Mana/X: "A Magician can, as a Mystic action, designate a fighter with this ability within 10 cm and eliminate
    it … to get X Gems"; Faith/X: "A Faithful can, as a Mystic action, designate a fighter with this ability within
    his Aura of Faith and eliminate it … to get X T.F."."""
    assert sacrifice_yield(card("Mana/2")) == 2 and sacrifice_yield(card("Faith/3")) == 3
    assert sacrifice_yield(card()) == 0


@pytest.mark.parametrize("ability", ["Martyr/3", "Devotion/3"])
def test_an_offering_yields_its_points_or_one_more_when_it_kills(ability: str) -> None:
    """Martyr/X: "the Faithful can add from 1 to X T.F. … X cannot be higher than the current HP the martyr has left.
    Then, the selected fighter suffers a Damage Roll of a STR equal to 5 times the number of T.F. recovered … the
    victim's RES is considered to be equal to 0. Any effects that affect the results of his Damage Rolls nevertheless
    apply in the usual way. If the fighter is eliminated by this Damage Roll, then the Faithful gains another
    additional T.F."; Devotion/X: the same with "mana Gems" ("a Damage Roll of a STR equal to 5 times the number of
    Gems recovered")."""
    giver = card(ability)
    odds = offering_odds(TABLE, giver, 2, 4)
    roll = damage_odds(TABLE, 10, 0)
    killing = sum((p for line, p in roll.items() if line == "Killed outright" or TABLE.hp_of(line) >= 4), Fraction(0))
    assert odds == {k: v for k, v in {2: 1 - killing, 3: killing}.items() if v}
    assert sum(odds.values()) == 1
    guarded = offering_odds(TABLE, giver, 2, 4, (CancellationRoll(6),))  # Survival instinct still applies
    assert guarded[2] > odds.get(2, Fraction(0))
    with pytest.raises(ValueError, match="1 to 2 points"):
        offering_odds(TABLE, giver, 3, 2)  # "X cannot be higher than the current HP"
    with pytest.raises(ValueError):
        offering_odds(TABLE, card(), 1, 4)


def test_mastery_of_the_arcana_buys_the_missing_gems_with_pow() -> None:
    """Mastery of the arcana: "he can suffer a -X to his next POW test to get X mana Gems, where X is the cost of the
    next spell … X can be at most equal to the POW of the Magician. Only the Gems that the Magician is missing can be
    acquired in this way"."""
    master = card("Mastery of the arcana", POW=4)
    penalty, gems = mastery_of_the_arcana(master, 3)
    assert gems == 3 and compose("POW", [penalty]).modifier == -3 and compose("ATT", [penalty]).modifier == 0
    assert mastery_of_the_arcana(master, 6)[1] == 4
    with pytest.raises(ValueError, match="no Mastery"):
        mastery_of_the_arcana(card(), 2)
