"""The compiled particle loops (``whole/particle_kernels.py``, numba) give the numpy reference's numbers bit for bit.

The guide: "Hot Monte Carlo loops may be specialised (numba, numpy fallback) but are cross-checked against
the reference". The sampled previews (``whole/sampled_volley.py``, ``whole/sampled_round.py``) draw with numpy;
with numba the same draws run as compiled loops that take the same uniforms from the same generator in the same
order. Here every sampler of several sampled previews (volleys with Swift Shot, friendly fire, Missile Block;
lightning; the rounds of a charge into a crowded zone, a group's fight with the wounds carried between rounds, the
simultaneous exchange) runs both ways on the same stream: the particles' hit points, deaths in order, friendly
fire and the whole odds shown must be identical. The test session runs the numpy reference (tests/conftest.py:
``RULEKEEPER_NUMBA=0``), so the compiled side runs in one process of its own, with numba on.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from exillis_matchups import MATCHUPS, SIMULTANEOUS

needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")

#: Sampled (the exact kernel's allowance set to 0) both ways: volleys, lightning, rounds, actions of several rounds.
CHECKED = ["swift shot", "volley into a melee", "volley at shielded knights", "lightning into a melee",
           "charge into a crowded zone", "group fight of a hero and retinue", "simultaneous exchange at equal priority"]

SCRIPT = r"""
import json, sys
import numpy as np
sys.path[:0] = sys.argv[2].split("|")
from exillis_battle_kit import legal, tables
from exillis_matchups import MATCHUPS, SIMULTANEOUS
from rulekeeper.rulesets.exillis.whole import compiled, dist, sampled_round, sampled_volley
from rulekeeper.rulesets.exillis.whole.compute import whole_action

dist.EXACT_WORK = 0
dist.MAX_SECONDS = float("inf")
seen = []
for module, attr in ((sampled_volley, "shots"), (sampled_round, "strikes")):
    def wrapped(self, _orig=getattr(module._Sampler, attr)):
        _orig(self)
        hp = ([self.s_hp, self.t_all, self.ff] if hasattr(self, "s_hp") else
              [self.a_hp, self.t_all, self.recv_all, self.ret_all, self.a_dead])
        seen.append([h.tolist() for h in (*hp, self.deaths.order, self.deaths.n)])
    setattr(module._Sampler, attr, wrapped)
by = {m.name: m for m in [*MATCHUPS, *SIMULTANEOUS]}
out = {}
for name in json.loads(sys.argv[1]):
    m = by[name]
    runs = []
    for on in (False, True):
        compiled.use(on)
        assert (compiled.kernels() is not None) == on
        seen.clear()
        state = m.build()
        lg = next(lg for lg in legal(state) if lg.action.kind == m.kind and lg.action.unit == m.unit
                  and (m.target is None or lg.action.target == m.target)
                  and (m.option is None or lg.action.option == m.option))
        odds = whole_action(state, tables(), lg)
        runs.append((odds.to_dict() if odds is not None else None, list(seen), odds.method if odds else None))
    (ref, ref_seen, method), (fast, fast_seen, _m) = runs
    out[name] = {"method": method, "samplers": len(ref_seen), "particles_equal": ref_seen == fast_seen,
                 "odds_equal": ref == fast}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def both_ways() -> dict[str, dict[str, Any]]:
    here = Path(__file__).resolve().parent
    paths = "|".join(str(p) for p in (here, here.parent / "battle", here.parents[1], here.parents[2] / "src"))
    env = {**os.environ, "RULEKEEPER_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(CHECKED), paths], env=env, capture_output=True,
                          text=True, check=True)
    answers: dict[str, dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return answers


def test_the_checked_positions_exist() -> None:
    assert set(CHECKED) <= {m.name for m in [*MATCHUPS, *SIMULTANEOUS]}


@needs_numba
@pytest.mark.parametrize("name", CHECKED)
def test_compiled_loops_draw_what_the_reference_draws(name: str, both_ways: dict[str, dict[str, Any]]) -> None:
    got = both_ways[name]
    assert got["method"] == "estimate" and got["samplers"] >= 1
    assert got["particles_equal"]
    assert got["odds_equal"]
