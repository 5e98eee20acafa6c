"""Exact odds: icepool against brute-force enumeration, odds shown against odds drawn, and 10^5 seeded draws.

"Normal attacks are solved with a 5d10+(skill)+(other bonuses)-(enemy Damage Reduction)." Five d10 fall
in exactly 10^5 ways, so the oracle enumerates every one of them.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.battlesystem import (
    BattleSystemOptions,
    Reach,
    Unit,
    UnitTypes,
    attack_odds,
    attack_request,
    barrage_odds,
    load_unit_types,
    morale_damage,
    morale_odds,
    morale_request,
    outcome_of,
    resolve_attack,
)
from rulekeeper.rulesets.battlesystem.rolls import pushed

FIVE_D10 = Counter(sum(c) for c in itertools.product(range(1, 11), repeat=5))


@pytest.fixture(scope="module")
def types() -> UnitTypes:
    return load_unit_types()


def unit(types: UnitTypes, name: str, **changes: int) -> Unit:
    u = Unit.fresh(types.get(name))
    return Unit(u.card, u.name, changes.get("soldiers", u.soldiers), changes.get("morale", u.morale), u.ammunition)


def brute(rule: object) -> dict[int, Fraction]:
    out: Counter[int] = Counter()
    for s, n in FIVE_D10.items():
        out[rule(s)] += n  # type: ignore[operator]
    return {k: Fraction(v, 100_000) for k, v in out.items() if v}


def test_enumeration_has_every_one_of_the_100000_rolls() -> None:
    assert sum(FIVE_D10.values()) == 100_000
    assert (min(FIVE_D10), max(FIVE_D10), FIVE_D10[27], FIVE_D10[28]) == (5, 50, 6000, 6000)


@pytest.mark.parametrize(("a", "d", "kind"), [
    ("Light Infantry", "Heavy Infantry", "melee"), ("Military Police", "Pikemen", "melee"),
    ("Archers", "Light Infantry", "missile"), ("Mounted Archers", "Pikemen", "missile"),
])
def test_attack_odds_equal_brute_force(types: UnitTypes, a: str, d: str, kind: str) -> None:
    att, dfn = unit(types, a), unit(types, d, soldiers=30)
    odds = attack_odds(att, dfn, kind)  # type: ignore[arg-type]
    mod = odds.modifier
    assert odds.totals == brute(lambda s: s + mod)
    assert odds.casualties == brute(lambda s: outcome_of(s + mod, kind, att.soldiers, dfn.soldiers)[0])  # type: ignore[arg-type]
    assert odds.attacker_losses == brute(lambda s: outcome_of(s + mod, kind, att.soldiers, dfn.soldiers)[1])  # type: ignore[arg-type]
    # morale: a second die after the first; the oracle enumerates 10^5 × 10 pairs by their sums
    morale: Counter[int] = Counter()
    for s, n in FIVE_D10.items():
        c = outcome_of(s + mod, kind, att.soldiers, dfn.soldiers)[0]  # type: ignore[arg-type]
        for d10 in range(1, 11):
            morale[0 if c == 0 or c >= dfn.soldiers else morale_damage(d10 + c, att.card, dfn.card, False)] += n
    assert odds.morale_to_defender == {k: Fraction(v, 10**6) for k, v in morale.items()}


def test_light_infantry_on_heavy_infantry_numbers(types: UnitTypes) -> None:
    odds = attack_odds(unit(types, "Light Infantry"), unit(types, "Heavy Infantry"))
    # 5d10-14 < 0 when 5d10 <= 13: 1,287 of 100,000 rolls; no casualties when 5d10 <= 14: 1,287 + 715
    assert odds.p_fail == Fraction(1287, 100_000)
    assert odds.casualties[0] == Fraction(2002, 100_000)
    assert odds.attacker_losses[9] == Fraction(1, 100_000)  # 5d10 = 5, the only way to lose 9
    assert sum(Fraction(o) * p for o, p in odds.totals.items()) == Fraction(27, 2)  # 27.5 - 14


def test_missile_never_fails(types: UnitTypes) -> None:
    # "These failed attacks don't affect ranged attacks such as the ones that use the missile or barrage skills."
    odds = attack_odds(unit(types, "Mounted Archers"), unit(types, "Pikemen"), "missile")
    assert odds.modifier == 6 - 25
    assert odds.p_fail == 0 and odds.attacker_losses == {0: Fraction(1)}
    assert odds.casualties[0] == Fraction(sum(n for s, n in FIVE_D10.items() if s <= 19), 100_000)


def test_odds_shown_are_the_odds_drawn(types: UnitTypes) -> None:
    att, dfn = unit(types, "Military Police"), unit(types, "Pikemen")
    request = attack_request(att, dfn, "melee")
    odds = attack_odds(att, dfn)
    # every total: the float Fate draws with is the exact fraction rounded once
    assert {int(o): p for o, p in request.odds()} == {t: float(p) for t, p in odds.totals.items()}
    shown = pushed(request, lambda t: outcome_of(t, "melee", att.soldiers, dfn.soldiers)[1])
    assert shown.keys() == odds.attacker_losses.keys()
    for k, p in odds.attacker_losses.items():
        assert math.isclose(shown[k], float(p), rel_tol=1e-12)
    m_request = morale_request(dfn, att, 7)
    by_roll = pushed(m_request, lambda r: morale_damage(r, dfn.card, att.card, False))
    exact = morale_odds(dfn, att, 7)
    # "Military police units reduce the effects of the morale damage by half": (1d10+7)/2 rounded down, 4..8
    assert exact == {k: Fraction(1, 5) for k in (4, 5, 6, 7, 8)}
    assert {k: float(p) for k, p in exact.items()} == pytest.approx(by_roll, rel=1e-12)


def test_barrage_odds_adjacent_is_half_of_own(types: UnitTypes) -> None:
    art, li, mp = unit(types, "Artillery"), unit(types, "Light Infantry"), unit(types, "Military Police")
    on_hex, next_to = barrage_odds(art, li, [mp])
    assert on_hex.casualties == brute(lambda s: max(0, s + 15 - 14))
    assert next_to.casualties == brute(lambda s: max(0, s + 15 - 12) // 2)
    up = barrage_odds(art, li, [mp], options=BattleSystemOptions(half_rounding="up"))[1]
    assert up.casualties == brute(lambda s: -(-max(0, s + 15 - 12) // 2))


def test_100000_seeded_attacks_agree_with_the_exact_odds_within_4_sigma(types: UnitTypes) -> None:
    att, dfn = unit(types, "Light Infantry"), unit(types, "Heavy Infantry")
    odds = attack_odds(att, dfn)
    n = 100_000
    fate = Fate.from_seed(20261112)
    counts: Counter[int] = Counter()
    morale: Counter[int] = Counter()
    for _ in range(n):
        r = resolve_attack(fate, att, dfn, Reach(1))
        counts[r.roll] += 1
        morale[r.morale.damage if r.morale and r.casualties else 0] += 1
    for dist, seen in ((odds.totals, counts), (odds.morale_to_defender, morale)):
        assert set(seen) <= set(dist)
        for outcome, p in dist.items():
            sigma = math.sqrt(n * float(p) * (1 - float(p)))
            assert abs(seen[outcome] - n * float(p)) <= 4 * sigma + 1e-9, (outcome, seen[outcome], n * float(p))
    fails = sum(v for k, v in counts.items() if k < 0)
    assert abs(fails - n * float(odds.p_fail)) <= 4 * math.sqrt(n * float(odds.p_fail) * (1 - float(odds.p_fail)))
