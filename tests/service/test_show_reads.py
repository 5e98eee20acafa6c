"""``battle show`` reads a current SQLite store with the standard library, and shows exactly what the store shows.

Issue 22, point 6: SQLAlchemy alone cost ``battle show`` 2.8 times a numpy import, so a SQLite file at the
current schema revision is read by :mod:`rulekeeper.persistence.sqlite_reads` through the service's own
reading code; anything else, and any failure of those reads, goes through the store. Each test runs the
same command both ways (the store's way by making :func:`open_reads` answer ``None``) and compares every
byte printed and the exit code.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_kit import run
from rulekeeper.cli import battle_view
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.persistence import migrate, sqlite_reads
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService, game_of
from rulekeeper.service.reading import BattleReading
from toygame.game import SCENARIO_DIR, ToyGame

RULESETS = Path(__file__).resolve().parents[2] / "src" / "rulekeeper" / "rulesets"
#: One shipped scenario of each game (and the toy), played a few actions in by its own policy.
BATTLES = {
    "exillis": RULESETS / "exillis" / "data" / "scenarios" / "starter.yaml",
    "battlesystem": RULESETS / "battlesystem" / "data" / "scenarios" / "hill_road.yaml",
    "confrontation": RULESETS / "confrontation" / "data" / "scenarios" / "ruined_wall.yaml",
    "dragonnoir": RULESETS / "dragonnoir" / "data" / "scenarios" / "the_ford.yaml",
    "wartable": RULESETS / "wartable" / "data" / "scenarios" / "oathsworn_vs_bloodless.yaml",
    "toy": SCENARIO_DIR / "race.yaml",
}


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests("toy")


@pytest.fixture(autouse=True)
def own_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEKEEPER_STATE_DIR", str(tmp_path / "state"))


def _battle(db: Path, ruleset: str, actions: int, seed: int = 3) -> str:
    with BattleStore(db) as store:
        svc = BattleService(store)
        bid = svc.new(BATTLES[ruleset], seed=seed, ruleset=ruleset)
        svc.autoplay(bid, max_actions=actions)
    return bid


def _both(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str,
          fast: bool = True) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """``rulekeeper ARGS`` through the store, then through the stdlib reads (``fast``: the store must not open)."""
    with monkeypatch.context() as m:
        m.setattr(sqlite_reads, "open_reads", lambda db: None)
        m.setattr(BattleStore, "fast_sqlite", False)  # the store's own SQLAlchemy reads, not its stdlib ones
        by_store = run(monkeypatch, capsys, *args)
    with monkeypatch.context() as m:
        if fast:
            def refuse(db: str | None) -> BattleService:
                raise AssertionError("the store was opened: the stdlib reads failed or were not tried")

            m.setattr(battle_view, "service", refuse)
        by_reads = run(monkeypatch, capsys, *args)
    return by_store, by_reads


@pytest.mark.parametrize("ruleset", list(BATTLES))
def test_each_game_shows_the_same_battle_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    db = tmp_path / "b.db"
    bid = _battle(db, ruleset, actions=6)
    for extra in ([], ["--json"]):
        by_store, by_reads = _both(monkeypatch, capsys, "battle", "show", bid[:6], "--db", str(db), *extra)
        assert by_store[0] == 0, by_store
        assert by_reads == by_store
    assert "Log fingerprint" in by_store[1] or "fingerprint" in json.loads(by_store[1])


def test_the_current_battle_and_a_battle_just_begun(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "b.db"
    first = _battle(db, "exillis", actions=0)
    _battle(db, "toy", actions=3)
    code, _, _ = run(monkeypatch, capsys, "battle", "use", first, "--db", str(db))
    assert code == 0
    by_store, by_reads = _both(monkeypatch, capsys, "battle", "show", "--db", str(db))
    assert by_store[0] == 0 and first in by_store[1]
    assert by_reads == by_store


def test_a_face_down_result_is_shown_as_the_store_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The last action's chance results still face down: the same state, the same fingerprint, both ways
    (and the service's per-side view, which hides them, reads the same moment from either store)."""
    db = tmp_path / "b.db"
    bid = _battle(db, "exillis", actions=4)
    with BattleStore(db) as store:
        svc = BattleService(store)
        g = svc.game(bid)
        state, legal = svc.legal(bid)
        chancy = next(lg.action for lg in legal if g.preview(state, lg.action).draws)
        svc.act(bid, chancy, shown=False)
        visible = svc.visible(bid)
        assert visible.pending is not None  # face down
        hidden = g.state_to_json(visible.state)
    reads = sqlite_reads.open_reads(db)
    assert reads is not None
    with reads:
        reading = BattleReading(reads)
        before = reading.state_at(bid, reading.record(bid).position - 1)
        assert g.state_to_json(before) == hidden
    by_store, by_reads = _both(monkeypatch, capsys, "battle", "show", bid, "--db", str(db), "--json")
    assert by_store[0] == 0 and by_reads == by_store


DAMAGES = {
    "result not JSON": "UPDATE rk_log SET result = 'not json {' WHERE entry_index = 1",
    "action not an object": "UPDATE rk_log SET action = '[1, 2]' WHERE entry_index = 2",
    "action of another game": "UPDATE rk_log SET action = '{\"kind\": \"fly\"}' WHERE entry_index = 0",
    "checkpoints not JSON": "UPDATE rk_log SET state = '{{{'",
    "checkpoints not states": "UPDATE rk_log SET state = '{\"junk\": true}'",
    "checkpoint a number": "UPDATE rk_log SET state = 7",
    "seed not a number": "UPDATE rk_battles SET seed = 'forty-two'",
    "meta not JSON": "UPDATE rk_battles SET meta = 'x'",
    "initial not a battle": "UPDATE rk_battles SET initial = '{\"units\": 3}'",
    "position past the log": "UPDATE rk_battles SET position = 40",
    "a log entry missing": "DELETE FROM rk_log WHERE entry_index = 2",
    "shown not a boolean": "UPDATE rk_log SET shown = 'yes'",
    "no log table": "DROP TABLE rk_log",
    "a newer schema": "UPDATE rk_alembic_version SET version_num = '0099'",
    "no version table": "DROP TABLE rk_alembic_version",
    "not in WAL mode": "PRAGMA journal_mode = DELETE",
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_a_damaged_store_fails_or_falls_back_the_same_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str], damage: str) -> None:
    damaged = tmp_path / "damaged" / "b.db"
    damaged.parent.mkdir()
    bid = _battle(damaged, "toy", actions=4, seed=5)
    raw = sqlite3.connect(damaged, isolation_level=None)
    raw.execute(DAMAGES[damage])
    raw.close()  # the last connection: the WAL is folded into the file
    results = []
    # each on a copy: the store may upgrade (write) what it opens; "stdlib": the store with its own stdlib reads
    for way in ("store", "stdlib", "reads"):
        db = tmp_path / way / "b.db"
        db.parent.mkdir()
        shutil.copy(damaged, db)
        with monkeypatch.context() as m:
            if way != "reads":
                m.setattr(sqlite_reads, "open_reads", lambda db: None)
            m.setattr(BattleStore, "fast_sqlite", way != "store")
            code, out, err = run(monkeypatch, capsys, "battle", "show", bid, "--db", str(db))
        assert "Traceback" not in out + err
        results.append((code, (out + err).replace(str(db.parent), "DIR")))
    assert results[0][0] in (0, 2), results[0]
    assert results[1] == results[0] and results[2] == results[0]


def test_an_old_schema_is_upgraded_by_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A file at an older revision is not read by the stdlib path: the store upgrades it, then shows it."""
    from alembic import command

    from rulekeeper.persistence.location import make_engine, sqlite_url

    db = tmp_path / "b.db"
    bid = _battle(db, "toy", actions=3)
    engine = make_engine(sqlite_url(db))
    with engine.begin() as connection:
        command.downgrade(migrate.alembic_config(connection), "0005")
    engine.dispose()
    assert sqlite_reads.open_reads(db) is None
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", str(db), "--json")
    assert code == 0 and json.loads(out)["id"] == bid
    reads = sqlite_reads.open_reads(db)  # upgraded on that open: now the stdlib reads it
    assert reads is not None
    reads.close()


def test_the_reads_give_the_stores_records_and_entries(tmp_path: Path) -> None:
    db = tmp_path / "b.db"
    bid = _battle(db, "exillis", actions=5)
    _battle(db, "toy", actions=2)
    reads = sqlite_reads.open_reads(db)
    assert reads is not None
    with BattleStore(db) as store, reads:
        store.fast_sqlite = False  # its SQLAlchemy reads
        assert reads.url == store.url
        assert reads.list() == store.list()
        assert reads.get(bid) == store.get(bid)
        assert reads.initial(bid) == store.initial(bid)
        assert reads.entries(bid, 1, 4) == store.entries(bid, 1, 4) and len(reads.entries(bid)) == 5
        assert reads.nearest_checkpoint(bid, 5) == store.nearest_checkpoint(bid, 5)
        assert reads.nearest_checkpoint(bid, 0) is None


def test_only_a_plain_current_sqlite_file_is_read_without_the_store(tmp_path: Path) -> None:
    assert sqlite_reads.HEAD == migrate.HEAD
    assert sqlite_reads.open_reads(tmp_path / "missing.db") is None  # the store creates it
    assert not (tmp_path / "missing.db").exists()
    odd = tmp_path / "café #1.db"  # SQLAlchemy would spell its URL differently
    _battle(odd, "toy", actions=1)
    assert sqlite_reads.open_reads(odd) is None
    assert sqlite_reads.open_reads("sqlite://") is None
    assert sqlite_reads.open_reads("postgresql://rk@localhost/rk") is None
    plain = tmp_path / "plain.db"
    _battle(plain, "toy", actions=1)
    reads = sqlite_reads.open_reads(plain)
    assert reads is not None and game_of(reads.list()[0].ruleset).name == "toy"
    reads.close()
