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
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"
_EXILLIS = game("exillis")
INITIAL = _EXILLIS.initial_state(_EXILLIS.setup(SetupRequest(scenario=STARTER, seed=5)).document)


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def engine_battle() -> int:
    """The starter battle autoplayed through the protocol, in memory (set-up not timed)."""
    g = game("exillis")
    state = INITIAL
    n = 0
    while (action := g.policy(state)) is not None:
        state = g.apply(state, action).state
        n += 1
    return n


def engine_and_stored(folder: Path, rounds: int) -> list[tuple[float, float]]:
    """(engine, stored) times of the same battle, side by side in alternating rounds.

    Stored: autoplayed by the service on a SQLite file (a new battle each round, one
    database); alternating keeps a busy or throttled machine from favouring either side.
    """
    svc = BattleService(BattleStore(folder / "stored.db"))
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        engine_battle()
        engine = time.perf_counter() - t0
        bid = svc.new(STARTER, seed=5)
        t0 = time.perf_counter()
        svc.autoplay(bid)
        out.append((engine, time.perf_counter() - t0))
    return out


def long_battle(svc: BattleService, length: int, seed: int) -> tuple[str, int]:
    """A starter battle of about ``length`` actions whose last one drew chance and is face down.

    Both sides wait (the starter has no turn limit) until ``length - 1`` actions, then the
    first action with chance is played without revealing it. Returns the battle and its length.
    """
    g = game("exillis")
    pick = random.Random(seed)
    bid = svc.new(STARTER, seed=seed)
    while True:
        state, legal = svc.legal(bid)
        position = svc.record(bid).position
        if not legal:
            raise SystemExit(f"the battle ended after {position} actions; try another seed")
        if position >= length - 1:
            chancy = [lg for lg in legal if g.preview(state, lg.action).draws]
            if chancy:
                svc.act(bid, chancy[0].action, shown=False)
                return bid, position + 1
            moves = [lg for lg in legal if lg.action["kind"] in ("move", "charge", "shoot")]
            svc.act(bid, pick.choice(moves or legal).action, shown=True)
            continue
        waits = [lg for lg in legal if lg.action["kind"] == "wait"]
        svc.act(bid, pick.choice(waits or legal).action, shown=True)


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
    pairs = engine_and_stored(folder, 3 * repeat)
    engine = statistics.median(e for e, _ in pairs)
    stored = statistics.median(s for _, s in pairs)
    ratio = statistics.median(s / e for e, s in pairs)
    print(f"1. starter battle, {actions} actions: engine alone {engine * 1000:.0f} ms "
          f"({engine / actions * 1000:.2f} ms/action), stored {stored * 1000:.0f} ms "
          f"({stored / actions * 1000:.2f} ms/action): stored ÷ engine = {ratio:.2f}× "
          f"(median of {len(pairs)} side-by-side rounds; quartiles "
          f"{' – '.join(f'{q:.2f}' for q in statistics.quantiles([s / e for e, s in pairs], n=4)[::2])})")
    app = create_app(folder / "pages.db")
    keeper = app.state.keeper
    client = TestClient(app)
    costs: dict[int, dict[str, float]] = {}
    lengths = {}
    for wanted in (10, 300):
        bid, n = long_battle(keeper.service, wanted, seed=3)
        lengths[wanted] = n
        tokens = keeper.access.issue(bid, keeper.service.roles(bid))
        side = game("exillis").side_of(keeper.store.entry(bid, n - 1).action)
        costs[wanted] = page_costs(client, bid, tokens[side], n, repeat)
    print(f"2. at {lengths[300]} actions ÷ at {lengths[10]} actions:")
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
