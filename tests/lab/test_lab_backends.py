"""Backends: the same bytes whatever runs the battles, merging in any order, clear failures."""

from __future__ import annotations

import socket
import sys
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.core.duels import OUTCOMES, DuelRequest, DuelTally
from rulekeeper.core.errors import RulekeeperError, UnknownNameError
from rulekeeper.lab.backends import Runner, run_duel, split
from rulekeeper.lab.duel import tally_csv
from rulekeeper.lab.errors import BackendMissingError, LabRequestError, SchedulerUnreachableError
from rulekeeper.lab.works import KernelSource
from toygame.duel import ToyDuelKernel

REQUEST = DuelRequest("Pikes", "Knights", 1, 3, seed=11, count=1200)


@pytest.fixture(scope="module")
def serial_csv() -> str:
    from rulekeeper.core.ruleset import register_for_tests
    from toygame import ToyGame

    register_for_tests(ToyGame)
    return tally_csv(run_duel(ToyDuelKernel(), REQUEST, backend="serial"))


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """A LocalCluster of two thread workers (processes=False: seconds faster to start)."""
    from dask.distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    yield str(cluster.scheduler_address)
    cluster.close()


def test_the_serial_tally_is_a_real_fight(serial_csv: str) -> None:
    tally = run_duel(ToyDuelKernel(), REQUEST)
    assert tally.battles == 1200 and sum(tally.outcomes.values()) == 1200
    assert sum(tally.rounds.values()) == 1200 == sum(tally.first_survivors.values())
    assert 0 < tally.outcomes["first destroys"] < 1200 and 0 < tally.outcomes["second destroys"] < 1200
    assert serial_csv.startswith("histogram,key,battles\nbattles,,1200\noutcome,first destroys,")
    # another seed fights other battles
    assert tally_csv(run_duel(ToyDuelKernel(), DuelRequest("Pikes", "Knights", 1, 3, seed=12, count=1200))) != serial_csv


@pytest.mark.parametrize(("workers", "chunk"), [(1, None), (1, 7), (2, 100), (3, 1200)])
def test_serial_chunk_sizes_give_the_same_bytes(serial_csv: str, workers: int, chunk: int | None) -> None:
    with Runner("serial", workers) as runner:
        assert tally_csv(run_duel(ToyDuelKernel(), REQUEST, runner=runner, chunk=chunk)) == serial_csv


def test_process_pool_gives_the_same_bytes(serial_csv: str) -> None:
    seen: list[tuple[int, int]] = []
    got = run_duel(ToyDuelKernel(), REQUEST, backend="process", workers=2, chunk=250,
                   progress=lambda done, total: seen.append((done, total)))
    assert tally_csv(got) == serial_csv
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (1200, 1200) and len(seen) == 5


def test_dask_gives_the_same_bytes(serial_csv: str, dask_scheduler: str) -> None:
    for chunk in (97, 600):
        got = run_duel("toy", REQUEST, backend="dask", scheduler=dask_scheduler, chunk=chunk)
        assert tally_csv(got) == serial_csv


def test_a_range_of_battles_is_split_exactly() -> None:
    assert split(5, 10, 4) == [(5, 4), (9, 4), (13, 2)]
    assert split(0, 3, 10) == [(0, 3)]
    # battles 0-599 and 600-1199 fought apart add up to the whole request
    first = run_duel(ToyDuelKernel(), DuelRequest("Pikes", "Knights", 1, 3, seed=11, count=600))
    second = run_duel(ToyDuelKernel(), DuelRequest("Pikes", "Knights", 1, 3, seed=11, start=600, count=600))
    assert first.merged(second).to_json() == run_duel(ToyDuelKernel(), REQUEST).to_json()


counters = st.dictionaries(st.integers(0, 30), st.integers(1, 50), max_size=6).map(Counter)
tallies = st.builds(
    lambda outcomes, rounds, a, b: DuelTally(sum(outcomes.values()), outcomes, rounds, a, b, "monte carlo"),
    st.dictionaries(st.sampled_from(OUTCOMES), st.integers(1, 50), min_size=1).map(Counter),
    counters, counters, counters)


@settings(max_examples=40, deadline=None)
@given(st.lists(tallies, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_merging_tallies_does_not_depend_on_order_or_grouping(parts: list[DuelTally], rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    in_order = DuelTally()
    for part in parts:
        in_order = in_order.merged(part)
    shuffled = parts[:]
    rnd.shuffle(shuffled)
    # a random binary grouping of the shuffled parts: merge neighbours until one is left
    while len(shuffled) > 1:
        i = rnd.randrange(len(shuffled) - 1)
        shuffled[i:i + 2] = [shuffled[i].merged(shuffled[i + 1])]
    assert shuffled[0].to_json() == in_order.to_json()
    assert tally_csv(shuffled[0]) == tally_csv(in_order)
    assert in_order.battles == sum(p.battles for p in parts)


def test_workers_get_the_kernel_by_game_name() -> None:
    source = KernelSource.of(ToyDuelKernel())
    assert source.ref is not None and source.ref.name == "toy" and source.kernel is None
    assert KernelSource.of("dice race").ref is not None


def test_a_kernel_no_game_offers_travels_pickled() -> None:
    class Unlisted(ToyDuelKernel):
        pass

    with pytest.raises(LabRequestError, match="does not pickle"):
        KernelSource.of(Unlisted())  # a local class does not pickle
    assert run_duel(Unlisted(), REQUEST).battles == 1200  # serially it is used as it is


def test_a_typed_error_in_a_worker_keeps_its_code() -> None:
    bad = DuelRequest("Pikes", "Knights", overrides={"Pikes": {"hit": 0.5}}, count=10)

    class Late(ToyDuelKernel):
        def check(self, request: DuelRequest) -> None:  # lets the request through: the worker refuses it
            pass

        def duel(self, request: DuelRequest) -> DuelTally:
            raise UnknownNameError("unit", "Pikemen", ["Pikes"])

    with pytest.raises(RulekeeperError, match="Pikemen") as caught:
        run_duel(Late(), bad, backend="serial")
    assert caught.value.code == "unknown_name"


def test_bad_requests_are_refused_before_any_battle() -> None:
    with pytest.raises(LabRequestError, match="at least 1, got 0"):
        run_duel(ToyDuelKernel(), DuelRequest("Pikes", "Knights", count=0))
    with pytest.raises(UnknownNameError, match="Pikemen"):
        run_duel(ToyDuelKernel(), DuelRequest("Pikemen", "Knights", count=5))
    with pytest.raises(UnknownNameError, match="lab backend"):
        run_duel(ToyDuelKernel(), REQUEST, backend="threads")
    with pytest.raises(LabRequestError, match="--workers"):
        run_duel(ToyDuelKernel(), REQUEST, workers=0)
    with pytest.raises(LabRequestError, match="has no duel kernel"):
        KernelSource.of("wartable").get()


def test_dask_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(BackendMissingError, match=r"pip install 'rulekeeper\[cluster\]'"):
        run_duel(ToyDuelKernel(), REQUEST, backend="dask")


def test_a_dead_scheduler_is_named_in_bounded_time() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    began = time.monotonic()
    with pytest.raises(SchedulerUnreachableError, match=f"tcp://127.0.0.1:{port}"):
        run_duel(ToyDuelKernel(), REQUEST, backend="dask", scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=1.0)
    assert time.monotonic() - began < 15


def test_a_worker_that_dies_is_a_typed_error() -> None:
    from toygame.duel import DyingDuelKernel

    with pytest.raises(LabRequestError, match="a worker process died"):
        run_duel(DyingDuelKernel(), DuelRequest("Pikes", "Knights", count=4), backend="process", workers=1)
