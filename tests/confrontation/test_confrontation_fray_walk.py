"""The fast walk of a plain fray (:mod:`.fray_walk`, issue 22 point 5) gives bit for bit the engine walk's floats,
in the same order, and gives up at the same state: the preview's numbers do not change, only their cost."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import Fray
from rulekeeper.rulesets.confrontation.fray_kernel import supported
from rulekeeper.rulesets.confrontation.fray_walk import TooManyStates, plain_fray_floats
from rulekeeper.rulesets.confrontation.fray_whole import engine_fray_floats, exact_fray_floats
from rulekeeper.rulesets.confrontation.wounds import load_wound_table

TABLE = load_wound_table()


def card(name: str, hp: int | None = None, stunned: bool = False, **kw: Any) -> Combatant:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 4, "DEF": 3, "RES": 4, "COU": 4,
                            "DIS": 2, "HP": 2}
    base.update(kw)
    return Combatant(FighterCard.model_validate(base), hp=hp, stunned=stunned)


FRAYS = {
    "two against two": Fray(((card("A1"), card("A2", ATT=5)), (card("B1", HP=3), card("B2", DEF=4))), TABLE),
    "a chain with Desperate, Counterattack and Hard-boiled": Fray(
        ((card("A1", abilities=["Counterattack"]), card("A2", HP=3)),
         (card("B1", abilities=["Desperate"], cost=10), card("B2", abilities=["Hard-boiled"]))), TABLE,
        engaged=frozenset({(0, 2), (2, 1), (1, 3)})),
    "three against one, Fierce and Ambidextrous, wounded and stunned": Fray(
        ((card("A1", hp=1, stunned=True), card("A2", abilities=["Ambidextrous"]), card("A3", STR=6)),
         (card("B1", HP=4, ATT=5, DEF=5, abilities=["Fierce", "Desperate"]),)), TABLE),
    "a fixed placement, Desperate by numbers": Fray(
        ((card("A1", abilities=["Desperate"]),), (card("B1"), card("B2", HP=1))), TABLE, placement=(1, 2, None)),
}


@pytest.mark.parametrize("name", FRAYS)
def test_the_fast_walk_is_bit_for_bit_the_engine_walk(name: str) -> None:
    fray = FRAYS[name]
    assert supported(fray)
    old, new = engine_fray_floats(fray), plain_fray_floats(fray, 10**6)
    assert list(new.items()) == list(old.items())  # the same floats, in the same order
    assert exact_fray_floats(fray) == new
    assert sum(new.values()) == pytest.approx(1.0, abs=1e-12) and len(new) > 3


def test_both_walks_give_up_at_the_same_state() -> None:
    fray = FRAYS["two against two"]
    for budget in (1, 40, 200):
        with pytest.raises(TooManyStates) as old:
            engine_fray_floats(fray, budget)
        with pytest.raises(TooManyStates) as new:
            plain_fray_floats(fray, budget)
        assert new.value.args == old.value.args == (budget + 1,)
