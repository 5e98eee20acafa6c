"""The maintenance phase: Regeneration, Ephemeral, Repair, Ruin and the end of Fierce, each quoting the seed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.maintenance import (
    hp_change_odds,
    maintenance_request,
    roll_maintenance,
    upkeep_of,
)

F = Fraction


def card(*abilities: str, hp: int = 4) -> FighterCard:
    base: dict[str, Any] = {"name": "Upkept", "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": hp, "abilities": list(abilities)}
    return FighterCard.model_validate(base)


def test_regeneration_heals_once_and_once_more_after_a_success() -> None:
    """Regeneration/X: "roll 1d6 … On a result of X or more, the fighter heals 1 LP. If the first test heals 1 LP,
    then the fighter immediately makes another test … a third one does not follow"."""
    assert hp_change_odds(card("Regeneration/5"), 1) == {1: F(2, 3), 2: F(2, 9), 3: F(1, 9)}
    assert hp_change_odds(card("Regeneration/5"), 4) == {4: F(1)}  # never above the card's HP (decision)
    assert hp_change_odds(card("Regeneration/5"), 3) == {3: F(2, 3), 4: F(1, 3)}


def test_ephemeral_loses_once_and_once_more() -> None:
    """Ephemeral/X: "On a result of X or more the fighter suffers 1 LP. If the first test causes 1 LP loss, then
    the fighter immediately suffers another test"."""
    assert hp_change_odds(card("Ephemeral/4"), 3) == {1: F(1, 4), 2: F(1, 4), 3: F(1, 2)}


def test_regeneration_cancels_ephemeral_and_the_other_reading_is_an_option() -> None:
    """Regeneration: "This ability cancels out Ephemeral." Ephemeral: "In no way can a fighter with this ability
    benefit from Regeneration." Default: they cancel; option ``ephemeral-wins``: Ephemeral rolls alone."""
    both = card("Regeneration/4", "Ephemeral/4")
    assert hp_change_odds(both, 2) == {2: F(1)}
    assert "cancels out Ephemeral" in upkeep_of(both).notes[0]
    assert hp_change_odds(both, 3, reading="ephemeral-wins") == hp_change_odds(card("Ephemeral/4"), 3)
    with pytest.raises(ImpossibleRequestError, match="ephemeral_vs_regeneration"):
        upkeep_of(both, reading="both")


def test_repair_and_ruin_cancel_each_other() -> None:
    """Repair/X: "The possessor must have SP … on a result of X or more the possessor heals 1 SP … This ability and
    Ruin cancel each other." Ruin/X: "on a result of X or more the possessor loses 1 SP"."""
    assert hp_change_odds(card("Construct", "Repair/3", "Ruin/3"), 2) == {2: F(1)}
    assert hp_change_odds(card("Construct", "Repair/3"), 2) == {2: F(1, 3), 3: F(2, 3)}
    assert hp_change_odds(card("Construct", "Ruin/5"), 2) == {1: F(1, 3), 2: F(2, 3)}
    assert hp_change_odds(card("Repair/3"), 2) == {2: F(1)}  # LP, not SP: no roll
    assert hp_change_odds(card("Construct", "Regeneration/2"), 2) == {2: F(1)}  # "cannot benefit from Regeneration"


def test_fierce_is_removed_at_the_maintenance_phase_and_does_not_regenerate() -> None:
    """Fierce: "if he is still standing thanks to this ability at the beginning of the Maintenance phase, then he is
    immediately removed"; Regeneration: "A fighter who was killed cannot benefit from this ability, even if some
    game effects still let him be on the fiels (e.g., Fierce)"."""
    fierce = card("Fierce", "Regeneration/2")
    assert hp_change_odds(fierce, 2, fierce=True) == {0: F(1)}
    assert upkeep_of(fierce, fierce=True).removed


def test_a_maintenance_draw_records_the_shown_odds() -> None:
    fate = Fate.from_seed(4)
    c = card("Regeneration/5")
    hp = roll_maintenance(fate, c, 1)
    assert hp in (1, 2, 3) and fate.records[-1].request == maintenance_request(c, 1)
    assert fate.records[-1].request.odds() == [("1 HP", 2 / 3), ("2 HP", 2 / 9), ("3 HP", 1 / 9)]
