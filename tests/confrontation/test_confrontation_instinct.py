"""Survival instinct in an exchange (issue 24, point 8).

Seed: "Before any Damage Roll to be suffered by a fighter with this ability, that fighter rolls 1d6 (this roll is
called Instinct roll); on a result of 6 or more, the Damage Roll is cancelled. … A fighter who successfully uses
this ability during an exchange cannot use it anymore for the duration of the exchange."

An exchange (docs/rules/confrontation.md, "Frays"): third-edition rules, "a fighter with attack dice left must
attack, each opponent in turn"; it ends once every standing fighter with attack dice left has attacked each of his
standing opponents in it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.confrontation.cards import FighterCard
from rulekeeper.rulesets.confrontation.fighters import Combatant
from rulekeeper.rulesets.confrontation.fray import Fray, exact_fray_odds, fray_monte_carlo, resolve_fray
from rulekeeper.rulesets.confrontation.wounds import INSTINCT, InstinctRoll, load_wound_table

TABLE = load_wound_table()


def fighter(name: str, **kw: Any) -> Combatant:
    base: dict[str, Any] = {"name": name, "MOV": 10, "INI": 3, "ATT": 4, "STR": 6, "DEF": 1, "RES": 3, "COU": 4,
                            "DIS": 2, "HP": 4}
    base.update(kw)
    return Combatant(FighterCard.model_validate(base))


def two_on_one() -> Fray:
    lone = fighter("Lone", abilities=["Survival instinct"], ATT=0, DEF=0, HP=6)
    return Fray(((fighter("A1"), fighter("A2")), (lone,)), TABLE)


def _instinct_rolls(fate: Fate) -> list[tuple[str, bool]]:
    """(label, whether the damage roll offered an Instinct roll) for each damage roll on the lone fighter."""
    return [(r.request.label, any(o == INSTINCT for o, _ in r.request.odds()))
            for r in fate.records if r.request.label.endswith("on Lone")]


def test_a_successful_instinct_roll_is_not_rolled_again_in_the_same_exchange() -> None:
    """Regression (issue 24, point 8): the second damage roll of the exchange still offered an Instinct roll."""
    fray = two_on_one()
    checked = 0
    for seed in range(200):
        fate = Fate.from_seed(seed)
        resolve_fray(fate, fray)
        damage = [r for r in fate.records if r.request.label.startswith("damage roll")]
        if len(damage) >= 2 and damage[0].outcome == INSTINCT and damage[0].request.label.endswith("on Lone"):
            # The lone fighter fights two: both attack him in the first exchange (A1, Lone, A2, Lone).
            ats = [r.request.label for r in fate.records if r.request.label.startswith("ATT test")]
            if ats[:3] == ["ATT test: A1", "ATT test: Lone", "ATT test: A2"] and damage[1].request.label.endswith(
                    "A2 on Lone"):
                assert not any(o == INSTINCT for o, _ in damage[1].request.odds())
                checked += 1
    assert checked >= 3


def test_the_instinct_roll_comes_back_in_the_next_exchange() -> None:
    fray = two_on_one()
    s = fray.opening(0)
    used = s.health[2].__class__(6, instinct=True)
    s = s.__class__(s.health[:2] + (used,), s.attack, s.defence, s.turn, s.next, s.toxic, s.deadly, s.reserve,
                    s.made)
    _, _, hooks = fray.damage_params(s, 0, 2, fray.strike(s, 0, 2))
    assert not any(isinstance(h, InstinctRoll) for h in hooks)
    _, _, fresh = fray.damage_params(fray.opening(0), 0, 2, fray.strike(fray.opening(0), 0, 2))
    assert InstinctRoll(6) in fresh
    # every fighter attacks each standing opponent once (A1, Lone, A2, Lone): the exchange is over, the roll is back
    for i in (0, 2, 1, 2):
        s = fray.after_blow(s, i, 2 if i != 2 else (0 if s.made[2] == 0 else 1), ("fail",))
    assert s.made == (0, 0, 0) and not s.health[2].instinct


def test_exact_odds_agree_with_seeded_resolutions() -> None:
    """The exact walk and the draws read the same Instinct rule (preview = roll)."""
    fray = two_on_one()
    exact = exact_fray_odds(fray)
    assert sum(exact.values()) == 1
    mc = fray_monte_carlo(fray, 4000, 11)
    for end, p in exact.items():
        if p > Fraction(1, 20):
            assert abs(mc.odds.get(end, 0.0) - float(p)) < 4 * mc.sigma(float(p)) + 1e-9, end
