"""The numpy fallback of the Ex illis duel kernel (issue 16: "numpy fallback when numba is missing").

It is chosen by itself when numba cannot be imported (``RULEKEEPER_NUMBA=0`` plays that here),
fights the same rules on the same counter-based stream, and so gives the numba kernel's tally
bit for bit — which the cross-check (test_lab_kernel.py) ties to the reference engine within 4σ;
one matchup is also checked against the reference engine directly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_lab_kernel import disagreements

from rulekeeper.core.duels import DuelRequest
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel.driver import run, run_fallback
from rulekeeper.rulesets.exillis.lab_kernel.jit import NUMBA

REQUESTS = {
    "melee, coin for deployment": DuelRequest("Billmen", "Vileins", seed=1, count=600),
    "mirror": DuelRequest("Billmen", "Billmen", seed=2, count=600),
    "charge": DuelRequest("Franc Chevalers", "Billmen", charge=True, seed=3, count=400),
    "shoot, from index 17": DuelRequest("Longbowmen", "Arbalestiers", mode="shoot", seed=4, count=300, start=17),
    "draws at max_rounds": DuelRequest("Serjants (Spear)", "Soffrances", seed=2, count=200, max_rounds=6),
    "house rules, fixed deployment": DuelRequest(
        "Serjants (Spear)", "Serjants (Sword)", second_level=4, seed=5, count=400, deployment="first",
        options={"rout_on_breaking_casualty": "yes", "luck_damage": "x2.5"},
        overrides={"Serjants (Spear)": {"ret": 0.5}}),
}
needs_numba = pytest.mark.skipif(NUMBA is None, reason="numba is not installed: there is no second path to compare")


def _plain(request: DuelRequest) -> dict[str, object]:
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in request.__dict__.items()}


@needs_numba
@pytest.mark.parametrize("name", list(REQUESTS))
def test_the_fallback_draws_what_the_kernel_draws(name: str) -> None:
    request = REQUESTS[name]
    fast, slow = run(request), run_fallback(request)
    assert fast.tally.method == "monte carlo (numba kernel)" and slow.tally.method == "monte carlo (numpy kernel)"
    assert {**slow.tally.to_json(), "method": ""} == {**fast.tally.to_json(), "method": ""}
    assert (slow.attacks, slow.uniforms) == (fast.attacks, fast.uniforms)
    if name == "draws at max_rounds":
        assert slow.tally.rounds[6] > 0


FALLBACK = """
import json, sys
from rulekeeper.core.duels import DuelRequest
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
k = ExIllisDuelKernel()
print(json.dumps([k.duel(DuelRequest(**json.loads(a))).to_json() for a in sys.argv[1:]]))
"""


@needs_numba
def test_without_numba_the_fallback_is_chosen_and_agrees() -> None:
    """With numba unavailable the kernel picks the fallback itself and says so in the method."""
    requests = [REQUESTS["charge"], REQUESTS["shoot, from index 17"]]
    env = {**os.environ, "RULEKEEPER_NUMBA": "0"}
    out = subprocess.run([sys.executable, "-c", FALLBACK, *(json.dumps(_plain(r)) for r in requests)], env=env,
                         capture_output=True, text=True, check=True)
    for request, tally in zip(requests, json.loads(out.stdout), strict=True):
        fast = ExIllisDuelKernel().duel(request).to_json()
        assert tally["method"] == "monte carlo (numpy kernel)"
        assert {**tally, "method": ""} == {**fast, "method": ""}


def test_the_fallback_agrees_with_the_reference_engine() -> None:
    """The issue's cross-check, on the fallback itself: win probability and casualties within 4σ."""
    request = DuelRequest("Billmen", "Billmen", seed=8, count=4000)
    slow = ExIllisDuelKernel().reference_duel(DuelRequest("Billmen", "Billmen", seed=9, count=300))
    assert disagreements(run_fallback(request).tally, slow) == []
