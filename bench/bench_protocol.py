"""The game protocol's costs, measured side by side in one run (ratios, never timed tests).

    python bench/bench_protocol.py [--quick]

1. Stored battle ÷ engine alone, per action: the starter battle autoplayed through the
   protocol in memory, and through the service on a SQLite file (each action its own
   transaction with a checkpoint of the state after it).
2. Pages at 300 actions ÷ at 10 actions: the face-down page (the board before a hidden
   result), the Fate Screen of the last action, a replay step and an undo, on two stored
   battles of those lengths (the checkpoints make them cost the same).
3. ``rulekeeper odds exillis melee Billmen "Franc Chevalers"`` wall time ÷ ``python -c
   "import numpy"`` (whole processes, median of several runs).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService
from rulekeeper.web.api import create_app

ROOT = Path(__file__).resolve().parents[1]
STARTER = ROOT / "examples" / "exillis" / "starter.toml"
HASTINGS = ROOT / "examples" / "exillis" / "hastings.toml"


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def engine_battle() -> int:
    g = game("exillis")
    state = g.initial_state(g.setup(SetupRequest(scenario=STARTER, seed=5)).document)
    n = 0
    while (action := g.policy(state)) is not None:
        state = g.apply(state, action).state
        n += 1
    return n


def stored_battle(folder: Path) -> int:
    svc = BattleService(BattleStore(folder / f"b{time.perf_counter_ns()}.db"))
    bid = svc.new(STARTER, seed=5)
    svc.autoplay(bid)
    return svc.record(bid).position


def long_battle(svc: BattleService, length: int, seed: int) -> str:
    """A battle of ``length`` actions whose last one drew chance and is still face down.

    Random legal actions (moves and waits preferred) keep the armies apart long enough.
    """
    g = game("exillis")
    pick = random.Random(seed)
    bid = svc.new(HASTINGS, seed=seed)
    while True:
        state, legal = svc.legal(bid)
        position = svc.record(bid).position
        if not legal:
            raise SystemExit(f"the battle ended after {position} actions; try another seed")
        if position == length - 1:
            chancy = [lg for lg in legal if g.preview(state, lg.action).draws]
            if chancy:
                svc.act(bid, chancy[0].action, shown=False)
                return bid
        quiet = [lg for lg in legal if lg.action["kind"] in ("wait", "move", "stance")]
        lg = pick.choice(quiet or legal)
        svc.act(bid, lg.action, shown=True)


def page_costs(client: TestClient, bid: str, token: str, n: int, repeat: int) -> dict[str, float]:
    base = f"/b/{bid}"
    out = {
        "face-down page": median_time(lambda: client.get(base, params={"token": token}), repeat),
        "replay step": median_time(lambda: client.get(f"{base}/replay", params={"token": token, "step": n - 1}), repeat),
    }
    client.post(f"{base}/reveal", data={"token": token, "position": str(n), "all": "1"})
    out["Fate Screen"] = median_time(lambda: client.get(base, params={"token": token, "fate": n - 1, "open": "all"}),
                                     repeat)
    svc: BattleService = client.app.state.keeper.service  # type: ignore[attr-defined]
    out["state before the last action"] = median_time(lambda: svc.state_at(bid, n - 1), repeat)
    return out


def process_median(cmd: list[str], repeat: int) -> float:
    return median_time(lambda: subprocess.run(cmd, capture_output=True, check=True), repeat)


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = 3 if quick else 7
    folder = Path(tempfile.mkdtemp(prefix="rk-bench-"))
    actions = engine_battle()
    engine = median_time(engine_battle, repeat)
    stored = median_time(lambda: stored_battle(folder), repeat)
    print(f"1. starter battle, {actions} actions: engine alone {engine * 1000:.0f} ms "
          f"({engine / actions * 1000:.2f} ms/action), stored {stored * 1000:.0f} ms "
          f"({stored / actions * 1000:.2f} ms/action): stored ÷ engine = {stored / engine:.2f}×")
    app = create_app(folder / "pages.db")
    keeper = app.state.keeper
    client = TestClient(app)
    costs: dict[int, dict[str, float]] = {}
    for n in (10, 300):
        bid = long_battle(keeper.service, n, seed=3)
        tokens = keeper.access.issue(bid, keeper.service.roles(bid))
        side = game("exillis").side_of(keeper.store.entry(bid, n - 1).action)
        costs[n] = page_costs(client, bid, tokens[side], n, repeat)
    print("2. at 300 actions ÷ at 10 actions:")
    for what in costs[10]:
        a, b = costs[10][what], costs[300][what]
        print(f"   {what:<30} {a * 1000:7.2f} ms → {b * 1000:7.2f} ms: {b / a:.2f}×")
    odds = process_median([sys.executable, "-m", "rulekeeper", "odds", "exillis", "melee", "Billmen",
                           "Franc Chevalers"], repeat)
    numpy = process_median([sys.executable, "-c", "import numpy"], repeat)
    print(f"3. rulekeeper odds exillis melee Billmen \"Franc Chevalers\": {odds:.2f} s; import numpy {numpy:.2f} s: "
          f"{odds / numpy:.1f}×")


if __name__ == "__main__":
    main()
