"""The Ex illis duel kernel as the lab sees it: units, levels, points, refusals, reproducibility (issue 16).

"Unknown units, impossible levels, zero sims …: a clear error naming it"; "results do not
depend on threads, chunks or workers". (The numpy fallback: test_lab_kernel_fallback.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core.duels import DuelKernel, DuelRequest, DuelTally
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, RulekeeperError, UnknownNameError
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel.jit import NUMBA, set_threads

KERNEL = ExIllisDuelKernel()
CHARGE = DuelRequest("Franc Chevalers", "Billmen", charge=True, seed=9, count=300)
SHOOT = DuelRequest("Longbowmen", "Arbalestiers", mode="shoot", seed=9, count=200)


def test_the_game_offers_the_kernel() -> None:
    k = game("exillis").duel_kernel()
    assert isinstance(k, DuelKernel) and isinstance(k, ExIllisDuelKernel)


def test_units_levels_and_points_come_from_the_shipped_data() -> None:
    units = KERNEL.units()
    assert units[:2] == ["Arbalestiers", "Billmen"] and "Franc Chevalers" in units and len(units) == 21
    assert KERNEL.levels() == (1, 50)  # Lucifer's max_level
    # "Unit's Cost = Basic Cost x 2^(Level/10)": Billmen cost 40 → 40 × 2^0.1 = 42.87 → 43; level 10 → 80
    assert KERNEL.points("Billmen", 1) == 43.0
    assert KERNEL.points("billmen", 10) == 80.0
    with pytest.raises(InvalidStatError, match="levels 1 to 30"):
        KERNEL.points("Billmen", 31)


@pytest.mark.parametrize(("change", "error", "names"), [
    ({"first": "Bilmen"}, UnknownNameError, "Bilmen"),
    ({"second_level": 0}, InvalidStatError, "not 0"),
    ({"first_level": 31}, InvalidStatError, "levels 1 to 30"),
    ({"mode": "swim"}, UnknownNameError, "swim"),
    ({"count": 0}, InvalidStatError, "count"),
    ({"max_rounds": 0}, InvalidStatError, "max_rounds"),
    ({"seed": -1}, InvalidStatError, "seed"),
    ({"mode": "shoot", "charge": True}, ImpossibleRequestError, "charge"),
    ({"mode": "shoot"}, ImpossibleRequestError, "neither Billmen nor Vileins"),
    ({"options": {"luck_dmg": "x2.5"}}, UnknownNameError, "luck_dmg"),
    ({"options": {"luck_damage": "x9"}}, UnknownNameError, "x9"),
    ({"overrides": {"Goblins": {"acc": 1}}}, UnknownNameError, "Goblins"),
    ({"overrides": {"Vileins": {"accuracy": 1}}}, UnknownNameError, "accuracy"),
    ({"overrides": {"Vileins": {"acc": "high"}}}, InvalidStatError, "Vileins.acc"),
    ({"overrides": {"Vileins": {"ret": 2}}}, InvalidStatError, "ret is a fraction"),
])
def test_bad_requests_are_refused_naming_what_is_wrong(change: dict[str, Any], error: type[RulekeeperError],
                                                         names: str) -> None:
    fields: dict[str, Any] = {"first": "Billmen", "second": "Vileins", "count": 10} | change
    request = DuelRequest(**fields)
    for call in (KERNEL.check, KERNEL.duel, KERNEL.reference_duel):
        with pytest.raises(error, match=names):
            call(request)


def test_house_rules_reach_both_paths() -> None:
    """An override the reference engine feels, the kernel feels too (Vileins that never miss their mark)."""
    plain = DuelRequest("Vileins", "Billmen", seed=3, count=200)
    strong = DuelRequest("Vileins", "Billmen", seed=3, count=200, overrides={"Vileins": {"wpd": 400, "acc": 400}})
    for duel in (KERNEL.duel, KERNEL.reference_duel):
        assert duel(plain).outcomes["first destroys"] + duel(plain).outcomes["first routs"] == 0
        wins = duel(strong).outcomes["first destroys"] + duel(strong).outcomes["first routs"]
        assert wins > 100, duel  # from none of 200 to most (each unit strikes first in about half the battles)


def _chunks(request: DuelRequest, cuts: list[int]) -> DuelTally:
    total = DuelTally()
    edges = [0, *cuts, request.count]
    for lo, hi in zip(edges, edges[1:], strict=False):
        part = DuelRequest(**{**request.__dict__, "start": request.start + lo, "count": hi - lo})
        total = total.merged(KERNEL.duel(part))
    return total


@pytest.mark.parametrize("request_", [CHARGE, SHOOT], ids=["charge", "shoot"])
def test_chunks_and_threads_do_not_change_the_tally(request_: DuelRequest) -> None:
    whole = KERNEL.duel(request_)
    assert whole.battles == request_.count and sum(whole.outcomes.values()) == request_.count
    assert _chunks(request_, [1, 57, 150]).to_json() == whole.to_json()
    set_threads(1)
    try:
        assert KERNEL.duel(request_).to_json() == whole.to_json()
    finally:
        if NUMBA is not None:
            set_threads(NUMBA.config.NUMBA_NUM_THREADS)
    other_seed = KERNEL.duel(DuelRequest(**{**request_.__dict__, "seed": 10}))
    assert other_seed.to_json() != whole.to_json()
