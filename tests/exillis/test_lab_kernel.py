"""The Ex illis duel kernel against the reference engine (issue 16, "Cross-check").

"kernel and reference engine agree on win probability and mean casualties within 4σ", and
"exact single-action odds equal the kernel's per-attack frequencies within 4σ".

Sizing: the reference engine fights ``REFERENCE`` battles per matchup (~2-4 ms each), the kernel
``KERNEL``; with p ≈ 0.5 one standard error of the difference is ≈ 0.024, so 4σ catches any rule
that moves a win probability by 0.1 or more — and the power test below shows a real rule left
out (retaliation) moves it far more than that. Battles of the two paths use different seeds, so
the comparison is of distributions, never of the same draws.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rulekeeper.core.duels import DuelRequest, DuelTally
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel import layout as L
from rulekeeper.rulesets.exillis.lab_kernel.driver import run, tables_for
from rulekeeper.rulesets.exillis.lab_kernel.fighters import fighters
from rulekeeper.rulesets.exillis.melee import MeleeContext, duel_odds

KERNEL = 20_000
REFERENCE = 400
SIGMAS = 4.0

MATCHUPS: dict[str, dict[str, Any]] = {
    "Billmen vs Vileins": {"first": "Billmen", "second": "Vileins"},
    "Franc Chevalers charge Billmen": {"first": "Franc Chevalers", "second": "Billmen", "charge": True},
    "Longbowmen shoot Arbalestiers": {"first": "Longbowmen", "second": "Arbalestiers", "mode": "shoot"},
    "Serjants, house rules": {
        "first": "Serjants (Spear)", "second": "Serjants (Sword)", "second_level": 4,
        "options": {"rout_on_breaking_casualty": "yes", "luck_damage": "x2.5"},
        "overrides": {"Serjants (Spear)": {"ret": 0.5}},
    },
}


def _mean_var(hist: Counter[int]) -> tuple[float, float, int]:
    n = sum(hist.values())
    mean = sum(k * v for k, v in hist.items()) / n
    return mean, sum(v * (k - mean) ** 2 for k, v in hist.items()) / n, n


def _win(t: DuelTally) -> Counter[int]:
    wins = t.outcomes["first destroys"] + t.outcomes["first routs"]
    return Counter({1: wins, 0: t.battles - wins})


def _destroyed(t: DuelTally) -> Counter[int]:
    ends = t.outcomes["first destroys"] + t.outcomes["second destroys"]
    return Counter({1: ends, 0: t.battles - ends})


def _first_survivors(t: DuelTally) -> Counter[int]:
    return t.first_survivors


def _second_survivors(t: DuelTally) -> Counter[int]:
    return t.second_survivors


def _rounds(t: DuelTally) -> Counter[int]:
    return t.rounds


MEASURES: dict[str, Callable[[DuelTally], Counter[int]]] = {
    "P(first wins)": _win,
    "P(a unit destroyed)": _destroyed,
    "first survivors": _first_survivors,
    "second survivors": _second_survivors,
    "rounds": _rounds,
}


def disagreements(kernel: DuelTally, reference: DuelTally) -> list[str]:
    """Every measure whose means differ by more than 4 standard errors of the difference."""
    out = []
    for name, measure in MEASURES.items():
        ka, kv, kn = _mean_var(measure(kernel))
        ra, rv, rn = _mean_var(measure(reference))
        se = math.sqrt(kv / kn + rv / rn)
        if (se == 0 and ka != ra) or (se > 0 and abs(ka - ra) > SIGMAS * se):
            out.append(f"{name}: kernel {ka:.3f}, reference {ra:.3f} (σ {se:.3f})")
    return out


@pytest.fixture(scope="module")
def kernel() -> ExIllisDuelKernel:
    return ExIllisDuelKernel()


@pytest.fixture(scope="module")
def reference_tallies(kernel: ExIllisDuelKernel) -> dict[str, DuelTally]:
    return {name: kernel.reference_duel(DuelRequest(count=REFERENCE, seed=77, **m)) for name, m in MATCHUPS.items()}


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_kernel_and_reference_engine_agree(name: str, kernel: ExIllisDuelKernel,
                                           reference_tallies: dict[str, DuelTally]) -> None:
    fast = kernel.duel(DuelRequest(count=KERNEL, seed=1, **MATCHUPS[name]))
    slow = reference_tallies[name]
    assert fast.battles == KERNEL and slow.battles == REFERENCE
    assert fast.method.startswith("monte carlo (n") and slow.method == "monte carlo (reference engine)"
    assert disagreements(fast, slow) == []


def test_the_cross_check_catches_a_rule_left_out(kernel: ExIllisDuelKernel,
                                                 reference_tallies: dict[str, DuelTally]) -> None:
    """Power: a kernel that forgot retaliation ("A miniature that defended itself may retaliate") is refused."""
    request = DuelRequest(count=KERNEL, seed=1, **MATCHUPS["Franc Chevalers charge Billmen"])
    t = tables_for(request)
    no_retaliation = dataclasses.replace(t, side_f=t.side_f.copy())
    no_retaliation.side_f[:, L.RET] = 0.0
    wrong = run(request, no_retaliation).tally
    found = disagreements(wrong, reference_tallies["Franc Chevalers charge Billmen"])
    assert any(f.startswith("P(first wins)") for f in found), found


@pytest.mark.parametrize(("first", "second", "charge"), [
    ("Billmen", "Franc Chevalers", False),
    ("Franc Chevalers", "Billmen", True),  # a lance: impossible to deflect
    ("Vileins", "Serjants (Spear)", False),  # the Serjants retaliate
])
def test_single_attack_frequencies_are_the_exact_odds(first: str, second: str, charge: bool,
                                                      kernel: ExIllisDuelKernel) -> None:
    """The Fate Screen's odds (``duel_odds``, as ``rulekeeper odds exillis melee`` shows them) are what the kernel draws."""
    attacks = 200_000
    request = DuelRequest(first, second, charge=charge, seed=5)
    f = fighters(request)
    exact = duel_odds(f.first, f.second, MeleeContext(f.tables.rules, f.options, "charge" if charge else "fight"))
    drawn = kernel.attack_probe(request, attacks)
    expected = dict(exact.odds) | {"Retaliates": exact.retaliation_chance}
    assert expected["Attack"] > 0
    for outcome, p in expected.items():
        se = math.sqrt(p * (1 - p) / attacks)
        assert abs(drawn[outcome] / attacks - p) <= SIGMAS * se + 1e-12, (outcome, drawn[outcome] / attacks, p)
