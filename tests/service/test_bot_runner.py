"""The keeper's own side (issue 28): it acts by itself in every game, only for its side, in its time and
memory, and a battle that changes while it thinks cancels the move (the runner: service/bot_runner.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.bots import move_seed
from rulekeeper.core.game import SetupRequest
from rulekeeper.persistence.store import BattleStore, StaleStateError
from rulekeeper.service.battles import BattleService, game_of
from rulekeeper.service.bot_pool import WorkerPool
from rulekeeper.service.bot_runner import BotRunner
from rulekeeper.service.bot_seat import BotSeat, new_seat, seat_of
from rulekeeper.service.bot_worker import Job
from rulekeeper.service.scenarios import find_scenario

#: One shipped scenario of every game, the War Table campaign's hidden simultaneous orders included.
EVERY_GAME = ["exillis:duel", "battlesystem:hill_road", "dragonnoir:the_wizards_duel", "confrontation:the_ford",
              "wartable:oathsworn_vs_bloodless", "wartable-campaign:shroudfall"]


@pytest.fixture
def svc(tmp_path: Path) -> BattleService:
    return BattleService(BattleStore(str(tmp_path / "bots.db")))


@pytest.fixture(scope="module")
def workers() -> Iterator[WorkerPool]:
    """One pool for the module: a worker's start (its imports, a second or more) is paid once."""
    pool = WorkerPool(1024 * 1024 * 1024)
    yield pool
    pool.close()


@pytest.fixture
def runner(svc: BattleService, workers: WorkerPool) -> Iterator[BotRunner]:
    woken: list[str] = []
    r = BotRunner(svc, woken.append, workers=workers)
    r.woken = woken  # type: ignore[attr-defined]
    yield r
    r.close()


def battle(svc: BattleService, scenario: str, side: str = "second", strength: str = "easy", seed: int = 5) -> str:
    found = find_scenario(scenario)
    g = game_of(found.game)
    setup = g.setup(SetupRequest(scenario=found.info.path, seed=seed))
    seat = new_seat(g.roles(setup.document), side, strength, seed)
    assert seat is not None
    return svc.new(setup, meta={"bot": seat.to_meta()})


def human_move(svc: BattleService, bid: str) -> None:
    """The side the keeper does not play makes its shipped policy's move."""
    seat = seat_of(svc.record(bid).meta)
    assert seat is not None
    g, state = svc.game(bid), svc.state(bid)
    mine = [lg for lg in g.legal_actions(state) if lg.side != seat.side]
    policy = g.policy(state)
    action = policy if policy is not None and g.side_of(policy) != seat.side else mine[0].action
    svc.act(bid, action, side=g.side_of(action), shown=True)


def test_a_seat_is_stored_with_the_battle_and_read_back(svc: BattleService) -> None:
    bid = battle(svc, "exillis:duel", side="B", strength="strong", seed=9)
    seat = seat_of(svc.record(bid).meta)
    assert seat == BotSeat("B", "strong", seat.seed if seat else 0)
    assert seat is not None and seat.policy == "search" and seat.seconds == 2.0
    # a seeded battle gets the same bot seed again (its bot replays); two moves never share a seed
    assert seat.seed == new_seat(("A", "B"), "B", "strong", 9).seed  # type: ignore[union-attr]
    assert seat.seed_at(3) != seat.seed_at(4)
    assert seat_of({"bot": {"side": "B", "strength": "unheard-of", "seed": 1}}) is None  # unreadable: no keeper side
    # the seat ``battle new --bot B`` writes (no seed of its own: the battle's, as the CLI's moves use)
    cli = seat_of({"bot": {"side": "B", "strength": "easy"}})
    assert cli == BotSeat("B", "easy", None) and cli.seed_at(2, 7) == move_seed(7, 2) != cli.seed_at(2, 8)


@pytest.mark.parametrize("scenario", EVERY_GAME)
def test_the_keeper_plays_its_side_in_every_game(svc: BattleService, runner: BotRunner, scenario: str) -> None:
    bid = battle(svc, scenario)
    seat = seat_of(svc.record(bid).meta)
    assert seat is not None
    g = svc.game(bid)
    for _ in range(60):  # until the keeper's side has moved once (a side may act many times in a row)
        runner.poke(bid)
        assert runner.wait_idle(60)
        if runner.counters.moves:
            break
        human_move(svc, bid)
    assert runner.counters.moves >= 1, f"{scenario}: the keeper never moved"
    mine = [e for e in svc.store.entries(bid) if g.side_of(e.action) == seat.side]
    assert mine and all(e.shown for e in mine)  # it turns its own results over
    assert runner.woken and set(runner.woken) == {bid}  # the live pages were told
    why = runner.explanation(bid)
    assert why is not None and why.side == seat.side and why.candidates
    # the search itself played; only a machine too loaded to give it its time may have it replaced (never a crash)
    assert not why.fallback or why.fallback.startswith("no move within"), why.fallback
    assert svc.replay(bid).identical


def test_it_never_moves_for_the_other_side(svc: BattleService, runner: BotRunner) -> None:
    """Side A (the human's) to act: a poke changes nothing, however often it comes."""
    bid = battle(svc, "exillis:duel", side="B", strength="simple")
    assert svc.status(bid).to_act == ("A",)
    for _ in range(3):
        runner.poke(bid)
    assert runner.wait_idle(60)
    assert svc.record(bid).position == 0 and runner.counters.moves == 0


def test_it_waits_for_a_face_down_result_of_the_human(svc: BattleService, runner: BotRunner) -> None:
    """The human's results face down: the keeper does not decide on what its player may still take back."""
    bid = battle(svc, "exillis:duel", side="B", strength="simple", seed=3)
    g = svc.game(bid)
    charge = next(lg.action for lg in g.legal_actions(svc.state(bid)) if lg.action.get("kind") == "charge")
    _, position = svc.act(bid, charge, shown=False, side="A")
    assert svc.status(bid).to_act == ("B",)
    runner.poke(bid)
    assert runner.wait_idle(60)
    assert svc.record(bid).position == position  # waiting for the reveal
    svc.reveal(bid, position)
    runner.poke(bid)
    assert runner.wait_idle(60)
    assert svc.record(bid).position > position


def test_a_write_while_it_thinks_cancels_the_move(svc: BattleService, runner: BotRunner) -> None:
    bid = battle(svc, "exillis:duel", side="B", strength="strong", seed=3)
    runner.workers.warm()  # the worker's start is not what this test times
    move = next(lg.action for lg in svc.game(bid).legal_actions(svc.state(bid)) if lg.action.get("kind") == "move")
    svc.act(bid, move, side="A", shown=True)
    runner.poke(bid)
    time.sleep(0.5)
    assert runner.thinking(bid)
    svc.undo(bid)  # the human takes the move back: the keeper's turn is gone
    assert runner.wait_idle(3)  # stopped at once, not after its 2 s
    assert runner.counters.cancelled == 1 and runner.counters.moves == 0
    assert svc.record(bid).position == 0


def test_a_move_computed_before_an_undo_and_a_new_move_is_stale(svc: BattleService) -> None:
    """Position alone would not tell: undo + another move bring it back; the revision does."""
    bid = battle(svc, "exillis:duel", side="B", strength="simple", seed=3)
    g = svc.game(bid)
    moves = [lg.action for lg in g.legal_actions(svc.state(bid)) if lg.action.get("kind") == "move"]
    svc.act(bid, moves[0], side="A", shown=True)
    rec = svc.record(bid)
    answer = g.policy(svc.state(bid))
    svc.undo(bid)
    svc.act(bid, moves[1], side="A", shown=True)
    assert svc.record(bid).position == rec.position
    with pytest.raises(StaleStateError):
        svc.act(bid, answer, expected_position=rec.position, side="B", expected_revision=rec.revision)


def test_a_late_move_is_cut_off_and_the_shipped_policy_plays(svc: BattleService, workers: WorkerPool) -> None:
    """The time bound: a strong search (2 s) given 0.3 s is stopped, and the battle goes on all the same."""
    runner = BotRunner(svc, grace=0.3 - 2.0, workers=workers)
    try:
        runner.workers.warm()
        bid = battle(svc, "exillis:duel", side="B", strength="strong", seed=3)
        human_move(svc, bid)
        started = time.monotonic()
        runner.poke(bid)
        assert runner.wait_idle(60)
        assert time.monotonic() - started < 1.5
        assert runner.counters.timeouts == 1 and runner.counters.moves == 1
        why = runner.explanation(bid)
        assert why is not None and "no move within 0.3 s" in why.fallback
    finally:
        runner.close()


def test_a_worker_past_its_memory_gets_an_error_not_the_keeper() -> None:
    """The memory bound: a worker capped at 1 MB more than its imports cannot run a search."""
    pool = WorkerPool(1024 * 1024)
    try:
        svc_game = game_of("exillis")
        found = find_scenario("exillis:duel")
        state = svc_game.initial_state(svc_game.setup(SetupRequest(scenario=found.info.path, seed=3)).document)
        job = Job("exillis", svc_game.state_to_json(state), "A", "search", "strong", 2.0, 1, 1024 * 1024)
        answer = pool.run(job, 30.0, lambda: True, 0.1)
        assert answer is not None and "error" in answer, answer
        # out of memory shows as a MemoryError, or, when the cap bites while a module is loaded, as the loader's
        # "failed to map segment" (the clean-clone CI run of 2026-12-01): either way an error, and the keeper lives
        assert any(why in answer["error"] for why in ("memory", "MemoryError", "failed to map", "Cannot allocate")), answer
    finally:
        pool.close()
