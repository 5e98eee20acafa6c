"""The numpy fallback of the Ex illis duel kernel (issue 16: "numpy fallback when numba is missing").

It is chosen by itself when numba cannot be imported (``RULEKEEPER_NUMBA=0`` plays that, for the whole test session),
fights the same rules on the same counter-based stream, and so gives the numba kernel's tally
bit for bit — which the cross-check (test_lab_kernel.py) ties to the reference engine within 4σ;
one matchup is also checked against the reference engine directly.

The numba kernel is compiled for one thread here (``RULEKEEPER_NUMBA_PARALLEL=0``: about 20 s of CPU instead of
60 s on this 2-core machine, a third of the suite's budget for the file). The tallies do not depend on the compile:
each battle draws from its own index of the counter-based stream, which the chunked runs check. The threaded
compile and its one-thread rerun are checked with ``RULEKEEPER_NUMBA_PARALLEL=1 pytest tests/exillis/test_lab_kernel_fallback.py``
(and by ``bench/lab.py``, which times 1 and 2 threads and asserts their tallies are equal).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from test_lab_kernel import disagreements

from rulekeeper.core.duels import DuelRequest
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel.driver import run_fallback
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
needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                                 reason="numba is not installed: there is no second path to compare")
CHUNKED = {"charge": [1, 57, 150], "shoot, from index 17": [1, 57, 150]}
#: "1": compile the kernel for threads and rerun it on one (see the module's docstring); "0" by default.
THREADED = os.environ.get("RULEKEEPER_NUMBA_PARALLEL", "0")


def _plain(request: DuelRequest) -> dict[str, object]:
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in request.__dict__.items()}


#: Run in a process of its own with numba on (the test session runs the fallback, tests/conftest.py): the
#: kernel compiles once here (about 20 s of CPU for one thread, 60-80 s threaded) instead of in every test that fights.
NUMBA_RUNS = """
import json, sys
from rulekeeper.core.duels import DuelRequest, DuelTally
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel.driver import run
from rulekeeper.rulesets.exillis.lab_kernel.jit import NUMBA, PARALLEL, set_threads
assert NUMBA is not None, "numba did not load"
requests, chunked = json.loads(sys.argv[1]), json.loads(sys.argv[2])
answers = {}
for name, fields in requests.items():
    kept = run(DuelRequest(**fields))
    answer = {"tally": kept.tally.to_json(), "attacks": kept.attacks, "uniforms": kept.uniforms}
    if name in chunked:
        edges = [0, *chunked[name], fields["count"]]
        total = DuelTally()
        for lo, hi in zip(edges, edges[1:]):
            total = total.merged(run(DuelRequest(**{**fields, "start": fields["start"] + lo, "count": hi - lo})).tally)
        answer["chunked"] = total.to_json()
        if PARALLEL:
            set_threads(1)
            answer["one thread"] = run(DuelRequest(**fields)).tally.to_json()
            set_threads(NUMBA.config.NUMBA_NUM_THREADS)
    answers[name] = answer
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def numba_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every request of this file fought by the numba kernel, in one process that compiles it once."""
    env = {**os.environ, "RULEKEEPER_NUMBA": "1", "RULEKEEPER_NUMBA_PARALLEL": THREADED,
           "NUMBA_CACHE_DIR": str(tmp_path_factory.mktemp("numba-cache"))}  # never the install's cache
    requests = json.dumps({name: _plain(request) for name, request in REQUESTS.items()})
    out = subprocess.run([sys.executable, "-c", NUMBA_RUNS, requests, json.dumps(CHUNKED)], env=env,
                         capture_output=True, text=True, check=True)
    answers: dict[str, dict[str, Any]] = json.loads(out.stdout)
    return answers


@needs_numba
@pytest.mark.parametrize("name", list(REQUESTS))
def test_the_fallback_draws_what_the_kernel_draws(name: str, numba_runs: dict[str, dict[str, Any]]) -> None:
    request, fast = REQUESTS[name], numba_runs[name]
    slow = run_fallback(request)
    assert fast["tally"]["method"] == "monte carlo (numba kernel)"
    assert slow.tally.method == "monte carlo (numpy kernel)"
    assert {**slow.tally.to_json(), "method": ""} == {**fast["tally"], "method": ""}
    assert [slow.attacks, slow.uniforms] == [fast["attacks"], fast["uniforms"]]
    if name == "draws at max_rounds":
        assert slow.tally.rounds[6] > 0


@needs_numba
@pytest.mark.parametrize("name", list(CHUNKED))
def test_the_kernel_tally_does_not_depend_on_chunks_or_threads(name: str,
                                                                numba_runs: dict[str, dict[str, Any]]) -> None:
    """"Results do not depend on threads, chunks or workers" (issue 16), on the numba kernel itself."""
    fast = numba_runs[name]
    assert fast["chunked"] == fast["tally"]
    if THREADED == "1":
        assert fast["one thread"] == fast["tally"]
    else:  # a one-thread compile: the rerun on one thread would compare the kernel with itself
        assert "one thread" not in fast
    assert fast["tally"]["battles"] == REQUESTS[name].count


def test_without_numba_the_fallback_is_chosen() -> None:
    """With numba unavailable (the test session plays that, tests/conftest.py) the kernel picks the fallback
    itself and says so in the method; the tests above tie that tally to numba's bit for bit."""
    assert NUMBA is None
    tally = ExIllisDuelKernel().duel(REQUESTS["charge"])
    assert tally.method == "monte carlo (numpy kernel)"
    assert {**tally.to_json(), "method": ""} == {**run_fallback(REQUESTS["charge"]).tally.to_json(), "method": ""}


def test_the_fallback_agrees_with_the_reference_engine() -> None:
    """The issue's cross-check, on the fallback itself: win probability and casualties within 4σ."""
    request = DuelRequest("Billmen", "Billmen", seed=8, count=4000)
    slow = ExIllisDuelKernel().reference_duel(DuelRequest("Billmen", "Billmen", seed=9, count=300))
    assert disagreements(run_fallback(request).tally, slow) == []
