"""Stored battles: act, undo (never after shown random results), stale writers, replay,
export/import, and a process killed mid-battle resuming at its last committed action."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulekeeper.core.errors import IllegalActionError, ReplayMismatchError
from rulekeeper.core.ruleset import game as _game
from rulekeeper.persistence.store import BattleStore, StaleStateError, StoreError
from rulekeeper.rulesets.exillis.battle.actions import Action, legal_actions
from rulekeeper.rulesets.exillis.battle.policy import choose
from rulekeeper.service.battles import BattleService, GameOverError, NotYourTurnError

EXILLIS = _game("exillis")

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"


@pytest.fixture()
def svc(tmp_path: Path) -> BattleService:
    return BattleService(BattleStore(tmp_path / "battles.db"))


def _play_until(svc: BattleService, bid: str, kinds: set[str], limit: int = 300) -> Action:
    """Let the policy play until an action of one of ``kinds`` is legal; return it."""
    for _ in range(limit):
        state, legal = svc.legal(bid)
        for lg in legal:
            if lg.action["kind"] in kinds:
                return Action.from_dict(lg.action)
        lg2 = choose(state, EXILLIS.t)
        assert lg2 is not None
        svc.act(bid, lg2.action)
    raise AssertionError(f"no {kinds} action came up")


def test_new_battle_is_stored_with_the_first_group_active(svc: BattleService) -> None:
    bid = svc.new(STARTER, seed=3)
    rec = svc.record(bid)
    assert rec.scenario == "Starter armies" and rec.position == 0 and rec.status == "active"
    state = svc.state(bid)
    assert state.active == ("A:Billmen", "A:Decurion")
    assert [r.id for r in svc.list()] == [bid]


def test_move_can_be_undone_but_a_shown_random_result_cannot(svc: BattleService) -> None:
    bid = svc.new(STARTER, seed=3)
    before = svc.state(bid)
    svc.act(bid, Action("move", "Billmen", "C3"))
    assert svc.state(bid).unit("A:Billmen").zone == (2, 2)
    after_undo = svc.undo(bid)
    assert after_undo == before and svc.record(bid).position == 0
    chance_action = _play_until(svc, bid, {"charge", "shoot", "fight"})
    out, pos = svc.act(bid, chance_action)
    assert out.chance
    with pytest.raises(IllegalActionError, match="already shown"):
        svc.undo(bid)
    assert svc.record(bid).position == pos


def test_unshown_random_result_can_be_undone_and_replays_identically(svc: BattleService) -> None:
    bid = svc.new(STARTER, seed=4)
    a = _play_until(svc, bid, {"charge", "shoot"})
    pos = svc.record(bid).position
    out, _ = svc.act(bid, a, shown=False)
    assert out.chance
    svc.undo(bid)
    assert svc.record(bid).position == pos
    again, _ = svc.act(bid, a)
    assert [c.to_dict() for c in again.chance] == [c.to_dict() for c in out.chance]  # the RNG state is in the log


def test_stale_writer_is_refused_and_changes_nothing(svc: BattleService, tmp_path: Path) -> None:
    bid = svc.new(STARTER, seed=3)
    other = BattleService(BattleStore(tmp_path / "battles.db"))
    svc.act(bid, Action("move", "Billmen", "C3"), expected_position=0)
    with pytest.raises(StaleStateError):
        other.act(bid, Action("move", "Billmen", "B3"), expected_position=0)
    assert svc.record(bid).position == 1
    assert svc.state(bid).unit("A:Billmen").zone == (2, 2)


def test_not_your_turn_and_game_over(svc: BattleService) -> None:
    bid = svc.new(STARTER, seed=3)
    with pytest.raises(NotYourTurnError):
        svc.act(bid, Action("move", "Vileins", "C2"))
    with pytest.raises(IllegalActionError):
        svc.act(bid, Action("charge", "Billmen", "D2"))
    assert svc.record(bid).position == 0
    svc.autoplay(bid)
    assert svc.state(bid).over
    with pytest.raises(GameOverError):
        svc.act(bid, Action("wait", "Billmen"))


def test_replay_is_bit_identical_and_detects_a_tampered_snapshot(svc: BattleService) -> None:
    bid = svc.new(STARTER, seed=8)
    svc.autoplay(bid, max_actions=20)
    rep = svc.replay(bid)
    assert rep.identical and rep.actions == 20
    pos = svc.store.get(bid).position
    snap = svc.store.checkpoint(bid, pos)  # the stored state after the last action
    assert snap is not None
    snap["units"][0]["morale"] += 1
    entry = svc.store.pop_last(bid, pos)
    svc.store.append(bid, pos - 1, entry.action, entry.result, checkpoint=snap)
    bad = svc.replay(bid)
    assert not bad.identical and any("morale" in d for d in bad.differences)


def test_export_import_round_trip_and_a_forged_log_is_refused(svc: BattleService, tmp_path: Path) -> None:
    bid = svc.new(STARTER, seed=5)
    svc.autoplay(bid, max_actions=15)
    f = tmp_path / "b.json"
    svc.export(bid, f)
    other = BattleService(BattleStore(tmp_path / "other.db"))
    new = other.import_(f)
    assert new == bid and other.state(new) == svc.state(bid)
    doc = json.loads(f.read_text())
    doc["log"][3]["result"]["chance"][0]["u"] = 0.999
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    with pytest.raises(StoreError, match="log.3: entry 3 was changed"):  # the hash chain breaks at the forged entry
        BattleService(BattleStore(tmp_path / "third.db")).import_(forged)
    for entry in doc["log"]:  # a version 1 file (no chain): the replay catches it
        del entry["chain"]
    del doc["chain"]
    forged.write_text(json.dumps({**doc, "version": 1}))
    with pytest.raises(ReplayMismatchError):
        BattleService(BattleStore(tmp_path / "fourth.db")).import_(forged)


def test_killed_mid_autoplay_resumes_at_the_last_committed_action(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    svc = BattleService(BattleStore(db))
    bid = svc.new(ROOT / "examples" / "exillis" / "forest_fence.yaml", seed=2)
    env = {**os.environ, "RULEKEEPER_DB": str(db)}
    script = (
        "from rulekeeper.persistence.store import BattleStore\n"
        "from rulekeeper.service.battles import BattleService\n"
        "import time\n"
        f"s = BattleService(BattleStore({str(db)!r}))\n"
        f"s.autoplay({bid!r}, progress=lambda st: time.sleep(0.02))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], env=env)
    deadline = time.time() + 60
    while time.time() < deadline and BattleStore(db).get(bid).position < 5:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    fresh = BattleService(BattleStore(db))
    rec = fresh.record(bid)
    assert rec.position >= 5
    assert len(fresh.store.entries(bid)) == rec.position
    assert [e.index for e in fresh.store.entries(bid)] == list(range(rec.position))
    rep = fresh.replay(bid)
    assert rep.identical, rep.differences
    final = fresh.autoplay(bid)
    assert final.over and fresh.replay(bid).identical


def test_legal_actions_match_the_engine(svc: BattleService) -> None:
    bid = svc.new(STARTER, seed=3)
    state, legal = svc.legal(bid)
    assert [lg.action for lg in legal] == [lg.action.to_dict() for lg in legal_actions(state, EXILLIS.t)]
