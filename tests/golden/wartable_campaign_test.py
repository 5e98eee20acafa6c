"""The shipped three-round Shroudfall campaign (seed 7) replays bit for bit: through the game protocol
action by action, and stored through the neutral battle service (replay, export, import)."""

from __future__ import annotations

import json
from pathlib import Path

from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

from .wartable_campaign_playthrough import GOLDEN, ORDERS, SCENARIO, SEED, digest, play, start


def gold() -> dict:  # type: ignore[type-arg]
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_the_golden_campaign_replays_action_by_action() -> None:
    g, state = start()
    steps = gold()["steps"]
    assert len(steps) == 6
    for i, step in enumerate(steps):
        out = g.apply(state, step["action"])
        assert [[c.request.label, c.outcome, c.u] for c in out.chance] == step["chance"], f"step {i}"
        assert [item["text"] for item in out.report] == step["report"], f"step {i}"
        state = out.state
        assert digest(g.state_to_json(state)) == step["state"], f"step {i}"
    assert g.status(state).over and g.state_to_json(state) == gold()["final"]
    # the numbers of the library's three-round test: Reclaim 70 -> 90, Faith 55 -> 100, -12 reach (and no
    # Downtime charge in the arrival round, issue 25), the Attack 120 -> 84 and 80 -> 68, -12 and -8 (8.4 -> 8)
    c = state.campaign
    assert {e.name: e.stability for e in c.enclaves} == {"Hearthmere": 90, "Lantern Hill": 68}
    assert (c.unit("Lantern Wardens").health, c.unit("Ford Horde").health) == (68, 84)
    assert [[r for r, _ in state.history], [dict((n, v) for n, v, _ in s)["Lantern Hill"] for _, s in state.history]] == [
        [1, 2, 3, 4], [55, 100, 88, 68]]
    assert steps[1]["chance"][0][:2] == ["Delve The Barrow: Barrow Horde", "Forgotten shrine"]


def test_the_golden_campaign_is_what_the_orders_give_today() -> None:
    assert play() == gold()


def test_the_golden_campaign_stored_replays_exports_and_imports(tmp_path: Path) -> None:
    svc = BattleService(BattleStore(str(tmp_path / "c.db")))
    bid = svc.new(SCENARIO, seed=SEED)
    assert svc.record(bid).ruleset == "wartable-campaign"
    # undo before the round resolves: the Oathsworn take their orders back and give them again
    svc.act(bid, ORDERS[0])
    svc.undo(bid)
    assert svc.status(bid).to_act == ("oathsworn", "bloodless")
    for given in ORDERS:
        svc.act(bid, given)
    g = svc.game(bid)
    assert g.state_to_json(svc.state(bid)) == gold()["final"]
    rep = svc.replay(bid)
    assert rep.identical and rep.actions == 6
    svc.export(bid, tmp_path / "c.json")
    again = svc.import_(tmp_path / "c.json", new_id=True)
    assert again != bid and g.state_to_json(svc.state(again)) == gold()["final"]
