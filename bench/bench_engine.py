"""Engine speed: autoplayed battles per second, loading a saved state, parsing the unit data.

    python bench/bench_engine.py [--runs 7] [--battles 10] [--json]

Prints, each as the median of ``--runs`` runs:

1. autoplayed starter battles per second, engine alone (``examples/exillis/starter.yaml``,
   seeds 1..``--battles``, policy + engine, no database);
2. ``state_from_dict`` of the starter battle's initial state, in µs;
3. parsing ``units.yaml`` with the strict loader on libyaml's C parser and on the pure-Python one, in ms.

It runs against whatever ``rulekeeper`` is importable, so an older checkout can be measured
side by side in one go::

    git worktree add /tmp/rk_old HEAD
    python bench/bench_engine.py --json > new.json
    PYTHONPATH=/tmp/rk_old/src python bench/bench_engine.py --json > old.json
    git worktree remove --force /tmp/rk_old

(or ``python bench/bench_engine.py --against /tmp/rk_old/src``, which measures both in alternating
rounds, each in a fresh interpreter, and prints the medians and their ratios).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STARTER = ROOT / "examples/exillis/starter.yaml"


def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn`` over ``runs`` runs, after one warm-up run (caches, imports)."""
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def autoplay_step() -> Callable[[Any, Any], Any]:
    """One autoplayed action: ``choose_and_apply`` where it exists, else ``choose`` then ``apply``."""
    from rulekeeper.rulesets.exillis.battle import policy
    from rulekeeper.rulesets.exillis.battle.engine import apply

    fused = getattr(policy, "choose_and_apply", None)
    if fused is not None:
        return fused  # type: ignore[no-any-return]

    def step(state: Any, t: Any) -> Any:
        lg = policy.choose(state, t)
        return None if lg is None else apply(state, lg.action, t)

    return step


def battles_per_second(runs: int, battles: int) -> float:
    from rulekeeper.rulesets.exillis.battle.setup import initial_state
    from rulekeeper.rulesets.exillis.battle.tables import BattleTables
    from rulekeeper.rulesets.exillis.scenario import load_scenario

    t = BattleTables.shipped()
    scenario = load_scenario(STARTER, t.roster, t.rules)
    step = autoplay_step()

    def play_all() -> None:
        for seed in range(1, battles + 1):
            state = initial_state(scenario, seed, t)
            while not state.over:
                state = step(state, t).state

    return battles / median_time(play_all, runs)


def state_from_dict_us(runs: int) -> float:
    from rulekeeper.rulesets.exillis.battle.setup import initial_state, state_from_dict, state_to_dict
    from rulekeeper.rulesets.exillis.battle.tables import BattleTables
    from rulekeeper.rulesets.exillis.scenario import load_scenario

    t = BattleTables.shipped()
    doc = json.loads(json.dumps(state_to_dict(initial_state(load_scenario(STARTER, t.roster, t.rules), 5, t))))
    n = 200
    return median_time(lambda: [state_from_dict(doc, t) for _ in range(n)], runs) / n * 1e6


def units_yaml_ms(runs: int) -> dict[str, float | None]:
    """The strict loader on the C parser (None when this checkout has none) and on pure Python."""
    import yaml

    from rulekeeper.core import yamlfiles

    text = (ROOT / "src/rulekeeper/rulesets/exillis/data/units.yaml").read_text(encoding="utf-8")
    pure = getattr(yamlfiles, "PureStrictLoader", yamlfiles.StrictLoader)
    fast = yamlfiles.StrictLoader if getattr(yamlfiles, "C_LOADER", False) else None

    def parse(loader: Any) -> float:
        return median_time(lambda: yaml.load(text, Loader=loader), runs) * 1e3  # noqa: S506 - safe loaders

    return {"c": None if fast is None else parse(fast), "pure": parse(pure)}


def measure(runs: int, battles: int) -> dict[str, Any]:
    import rulekeeper

    return {
        "rulekeeper": str(Path(rulekeeper.__file__).parent),
        "battles_per_s": battles_per_second(runs, battles),
        "state_from_dict_us": state_from_dict_us(runs),
        "units_yaml_ms": units_yaml_ms(runs),
    }


def show(m: dict[str, Any], label: str = "") -> None:
    y = m["units_yaml_ms"]
    c = "n/a" if y["c"] is None else f"{y['c']:.1f}"
    print(f"{label}{m['rulekeeper']}")
    print(f"  starter battles/s, engine alone {m['battles_per_s']:9.2f}   ({1e3 / m['battles_per_s']:.1f} ms each)")
    print(f"  state_from_dict                 {m['state_from_dict_us']:9.1f} µs")
    print(f"  units.yaml parse, C / pure      {c:>9} / {y['pure']:.1f} ms")


def _child(src: str, runs: int, battles: int) -> dict[str, Any]:
    """Measure the rulekeeper under ``src`` (a ``src`` directory) in a fresh interpreter."""
    cmd = [sys.executable, __file__, "--json", "--runs", str(runs), "--battles", str(battles)]
    out = subprocess.run(cmd, env={"PYTHONPATH": src, "PATH": ""}, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _medians(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Per figure, the median over rounds (a machine's load comes and goes; both sides share it)."""
    def med(get: Callable[[dict[str, Any]], float | None]) -> float | None:
        values = [v for v in (get(x) for x in samples) if v is not None]
        return statistics.median(values) if values else None

    return {
        "rulekeeper": samples[0]["rulekeeper"],
        "battles_per_s": med(lambda x: x["battles_per_s"]),
        "state_from_dict_us": med(lambda x: x["state_from_dict_us"]),
        "units_yaml_ms": {"c": med(lambda x: x["units_yaml_ms"]["c"]), "pure": med(lambda x: x["units_yaml_ms"]["pure"])},
    }


def against(src: str, runs: int, battles: int, rounds: int) -> None:
    """This checkout and the one at ``src``, measured in alternating rounds, so both see the same load."""
    here = str(ROOT / "src")
    old: list[dict[str, Any]] = []
    new: list[dict[str, Any]] = []
    for _ in range(rounds):
        old.append(_child(src, runs, battles))
        new.append(_child(here, runs, battles))
    before, after = _medians(old), _medians(new)
    show(before, "before: ")
    show(after, "after:  ")
    per_round = ", ".join(f"{n['battles_per_s'] / o['battles_per_s']:.2f}" for o, n in zip(old, new, strict=True))
    print(f"battles/s ratio after/before      {after['battles_per_s'] / before['battles_per_s']:9.2f}×   (rounds: {per_round})")
    print(f"state_from_dict ratio before/after{before['state_from_dict_us'] / after['state_from_dict_us']:9.2f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--battles", type=int, default=10)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--against", metavar="SRC", help="also measure the rulekeeper under SRC (e.g. /tmp/rk_old/src)")
    ap.add_argument("--rounds", type=int, default=5, help="with --against: alternating rounds (median is shown)")
    args = ap.parse_args()
    if args.against:
        against(args.against, args.runs, args.battles, args.rounds)
    elif args.json:
        print(json.dumps(measure(args.runs, args.battles)))
    else:
        show(measure(args.runs, args.battles))


if __name__ == "__main__":
    main()
