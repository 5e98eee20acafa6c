"""The lab's unit-against-unit table played by the search bot next to the shipped policy's (issue 28).

    python bench/bench_bot_units.py [--units Billmen Hobelars ...] [--battles 20] [--budget 60] [--json]

``lab duel`` and ``lab sweep`` run duel kernels (one fight, no decisions to take), so the policy question is asked
with ``lab play`` instead: for every pair of Ex illis units, a generated one-unit-per-side battle (a 3 x 3 board,
no terrain, each unit in the middle of its own edge, side A first) is autoplayed ``--battles`` times by the
shipped policy on both sides and again by the search bot on both sides (``lab.play.PlayWork``, the work behind
``rulekeeper lab play GAME FILE --policy search``; the same battle seeds for both). A row gives the first
unit's win rate under each policy with Wilson's 95 % interval, and its *verdict*: the first unit wins (its
interval above 50 %), loses (below) or even (the interval holds 50 %). The rows whose verdict changes with the
policy are listed at the end: there, the table computed with the naive policy measured the policy, not the
units. ``--budget`` is the bot's (simulations by default: the figures are reproducible on any machine).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rulekeeper.lab.play import play_work  # noqa: E402
from rulekeeper.lab.stats import wilson  # noqa: E402

UNITS = ("Billmen", "Hobelars", "Longbowmen", "Arbalestiers", "Franc Chevalers")

SCENARIO = """name = "{first} against {second}"
description = "A generated one-unit-per-side battle (bench/bench_bot_units.py)."
first = "A"

[board]
width = 3
height = 3

[[armies]]
side = "A"
name = "{first}"
deployment = ["A1", "A2", "A3"]

  [[armies.units]]
  unit = "{first}"
  zone = "A2"

[[armies]]
side = "B"
name = "{second}"
deployment = ["C1", "C2", "C3"]

  [[armies.units]]
  unit = "{second}"
  zone = "C2"
"""


def verdict(wins: int, battles: int) -> str:
    low, high = wilson(wins, battles)
    return "wins" if low > 0.5 else "loses" if high < 0.5 else "even"


def cell(path: Path, policy: str, battles: int, budget: str, seed: int) -> dict[str, Any]:
    """Side A's wins in ``battles`` battles of the scenario at ``path``, both sides played by ``policy``."""
    work, _ = play_work("exillis", str(path), seed, (), (policy,), budget if policy == "search" else None)
    started = time.perf_counter()
    tally = work.run(0, battles)
    wins = tally.winners.get("A", 0)
    low, high = wilson(wins, battles)
    return {"policy": work.describe(), "wins": wins, "battles": battles, "rate": wins / battles, "low95": low,
            "high95": high, "verdict": verdict(wins, battles), "seconds": time.perf_counter() - started}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--units", nargs="*", default=list(UNITS))
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--budget", default="60", help="the search bot's budget per move (60: simulations)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for first, second in itertools.permutations(args.units, 2):
            path = Path(folder) / f"{first}-{second}.toml".replace(" ", "_")
            path.write_text(SCENARIO.format(first=first, second=second), encoding="utf-8")
            row = {"first": first, "second": second,
                   **{name: cell(path, name, args.battles, args.budget, args.seed) for name in ("simple", "search")}}
            row["changed"] = row["simple"]["verdict"] != row["search"]["verdict"]
            rows.append(row)
            if not args.json:
                s, b = row["simple"], row["search"]
                print(f"{first:16} vs {second:16} first wins: simple {100 * s['rate']:3.0f} % "
                      f"[{100 * s['low95']:.0f}, {100 * s['high95']:.0f}] {s['verdict']:5}  search "
                      f"{100 * b['rate']:3.0f} % [{100 * b['low95']:.0f}, {100 * b['high95']:.0f}] {b['verdict']:5}"
                      f"{'  << verdict changes' if row['changed'] else ''}  ({b['seconds']:.0f}s)", flush=True)
    if args.json:
        print(json.dumps({"battles": args.battles, "budget": args.budget, "rows": rows}, indent=1))
    else:
        changed = [f"{r['first']} vs {r['second']}" for r in rows if r["changed"]]
        print(f"{len(rows)} matchups, {args.battles} battles each per policy (search budget {args.budget}); "
              f"verdict changes: {', '.join(changed) or 'none'}")


if __name__ == "__main__":
    main()
