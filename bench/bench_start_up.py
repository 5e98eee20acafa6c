"""Start-up of the command line ÷ ``python -c "import numpy"``, paired runs side by side (issue 22, point 6).

    python bench/bench_start_up.py [--runs 7] [--only show,odds,help] [--bytecode] [--against SRC]

Each round runs ``import numpy`` and every command once, in turn (the order rotates), so a busy
or throttled machine slows both sides of a ratio alike; the ratio of each round is taken, then the
median of the rounds. CPU is the child's user + system time (``getrusage``), wall the elapsed time.

* ``help``: ``rulekeeper --help`` (after one run that writes the command manifest);
* ``odds``: ``rulekeeper odds exillis melee Billmen "Franc Chevalers"``;
* ``show``: ``rulekeeper battle show ID`` of an Ex illis starter battle 20 actions in, on a SQLite
  file made for the bench (``--db``), which is the default store's kind;
* ``actions``: ``rulekeeper battle actions ID`` of the same battle (the list a player reads before each move;
  no goal was set for it: read it against ``show``).

``--bytecode``: the children compile every module once (the warm-up round) into a folder of the
bench's own (``PYTHONPYCACHEPREFIX``) and read it from there, as an installed package whose files
pip compiled; by default the environment's ``PYTHONDONTWRITEBYTECODE`` is kept, so when it
is set rulekeeper's own modules compile from source on every run while numpy's come compiled.
``--against SRC``: also run each command with another checkout's ``src`` first on the path
(``name@other``), in the same rounds: before and after a change, side by side.
All four run without building the Typer tree (``cli/fast.py``: ``cli/fast_help.py`` for ``--help``, the
game's own ``quick_command`` for ``odds``); ``help`` does so once the warm-up round has written the manifest.
Goals (issue 22): help ≤ 2×, odds ≤ 3×, show ≤ 3×.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"
GOALS = {"help": 2.0, "odds": 3.0, "show": 3.0}


def stored_battle(folder: Path) -> tuple[Path, str]:
    """An Ex illis starter battle 20 actions in, on a SQLite file of its own."""
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.service.battles import BattleService

    db = folder / "bench.db"
    with BattleStore(db) as store:
        svc = BattleService(store)
        bid = svc.new(STARTER, seed=3)
        svc.autoplay(bid, max_actions=20)
    return db, bid


def commands(db: Path, bid: str) -> dict[str, list[str]]:
    rk = [sys.executable, "-m", "rulekeeper"]
    return {
        "numpy": [sys.executable, "-c", "import numpy"],
        "help": [*rk, "--help"],
        "odds": [*rk, "odds", "exillis", "melee", "Billmen", "Franc Chevalers"],
        "show": [*rk, "battle", "show", bid, "--db", str(db)],
        "actions": [*rk, "battle", "actions", bid, "--db", str(db)],
    }


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU, wall) seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="help,odds,show,actions")
    parser.add_argument("--bytecode", action="store_true")
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rk-start-"))
    db, bid = stored_battle(folder)
    wanted = args.only.split(",")
    srcs = {"": ROOT / "src", **({"@other": args.against.resolve()} if args.against else {})}
    runs: dict[str, tuple[list[str], dict[str, str]]] = {}
    for suffix, src in srcs.items():
        env = {**os.environ, "RULEKEEPER_CACHE_DIR": str(folder / f"cache{suffix}"),
               "RULEKEEPER_STATE_DIR": str(folder / "state"),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
        if args.bytecode:  # compiled once into a folder of the bench's own: no source tree gets __pycache__
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(folder / "pyc")
        for name, cmd in commands(db, bid).items():
            if name in wanted or (name == "numpy" and not suffix):
                runs[name + suffix] = (cmd, env)
    names = list(runs)
    for cmd, env in runs.values():  # warm-up: the manifest, the parsed-data cache, bytecode (not measured)
        timed(cmd, env)
    rounds: list[dict[str, tuple[float, float]]] = []
    for r in range(args.runs):
        order = names[r % len(names):] + names[:r % len(names)]
        rounds.append({name: timed(*runs[name]) for name in order})
    print(f"{args.runs} paired rounds ({'bytecode' if args.bytecode else 'env as is'}; "
          f"PYTHONDONTWRITEBYTECODE={runs['numpy'][1].get('PYTHONDONTWRITEBYTECODE', '')!r}); "
          f"import numpy: CPU {statistics.median(r['numpy'][0] for r in rounds):.3f} s, "
          f"wall {statistics.median(r['numpy'][1] for r in rounds):.3f} s")
    for name in names[1:]:
        cpu = [r[name][0] / r["numpy"][0] for r in rounds]
        wall = [r[name][1] / r["numpy"][1] for r in rounds]
        print(f"  {name:<11} CPU {statistics.median(r[name][0] for r in rounds):.3f} s = {statistics.median(cpu):.2f}× "
              f"({min(cpu):.2f}–{max(cpu):.2f}); wall {statistics.median(r[name][1] for r in rounds):.3f} s = "
              f"{statistics.median(wall):.2f}× ({min(wall):.2f}–{max(wall):.2f})"
              + (f"; goal ≤ {GOALS[name.split('@')[0]]:.0f}×" if name.split("@")[0] in GOALS else ""))


if __name__ == "__main__":
    main()
