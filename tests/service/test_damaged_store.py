"""A database changed outside rulekeeper gets a typed error naming what is damaged, never a traceback.

Issue "Nothing hostile gets through", point 2: "bad JSON/snapshot/seed inside the database
(JSONDecodeError, KeyError, ValueError)" were tracebacks.  Each test damages one column of a
played battle of the toy game (its dice race lasts a few dozen actions) with plain SQL and runs the commands that read it, in process
(``main``, which turns typed errors into exit code 2), and through the web keeper's API.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulekeeper.cli.app import main
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.persistence import location
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService
from rulekeeper.web.api import create_app
from toygame.game import SCENARIO_DIR, ToyGame

SCENARIO = SCENARIO_DIR / "race.yaml"

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    def invoke(*args: str) -> tuple[int, str]:
        monkeypatch.setattr("sys.argv", ["rulekeeper", *args])
        with pytest.raises(SystemExit) as done:
            main()
        out = capsys.readouterr()
        return int(done.value.code or 0), out.out + out.err

    return invoke


@pytest.fixture
def played(tmp_path: Path, run: Run) -> Iterator[tuple[Path, str]]:
    register_for_tests(ToyGame)
    try:
        yield _play(tmp_path, run)
    finally:
        unregister_for_tests("toy")


def _play(tmp_path: Path, run: Run) -> tuple[Path, str]:
    db = tmp_path / "b.db"
    code, out = run("battle", "new", str(SCENARIO), "--ruleset", "toy", "--db", str(db), "--seed", "3", "--json")
    assert code == 0, out
    bid = json.loads(out)["id"]
    with BattleStore(db) as store:
        BattleService(store).autoplay(bid, max_actions=4)
        assert store.get(bid).position == 4
    return db, bid


def _damage(db: Path, sql: str, *params: object) -> None:
    raw = sqlite3.connect(db)
    raw.execute(sql, params)
    raw.commit()
    raw.close()


DAMAGES = {
    "result not JSON": ("UPDATE rk_log SET result = 'not json {' WHERE entry_index = 1", "not valid JSON"),
    "action not an object": ("UPDATE rk_log SET action = '[1, 2]' WHERE entry_index = 2", "not a JSON object"),
    "action of another game": ("UPDATE rk_log SET action = '{\"kind\": \"fly\"}' WHERE entry_index = 0", "action 0"),
    "checkpoint not JSON": ("UPDATE rk_log SET state = '{{{' WHERE entry_index = 3", "not valid JSON"),
    "seed not a number": ("UPDATE rk_battles SET seed = 'forty-two'", "seed"),
    "initial not a battle": ("UPDATE rk_battles SET initial = '{\"units\": 3}'", "initial document"),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_every_reading_command_answers_exit_2_naming_the_damage(played: tuple[Path, str], run: Run,
                                                                damage: str) -> None:
    db, bid = played
    sql, expected = DAMAGES[damage]
    _damage(db, sql)
    answered = 0
    for args in (["battle", "list"], ["battle", "show", bid], ["battle", "actions", bid], ["battle", "replay", bid],
                 ["battle", "export", bid, str(db.parent / "out.json")], ["battle", "autoplay", bid]):
        code, out = run(*args, "--db", str(db))
        assert "Traceback" not in out, (args, out)
        assert code in ((0, 1, 2) if args[1] == "replay" else (0, 2)), (args, out)  # replay: 1 = differs
        if code != 0:
            answered += 1
            assert len(out) < 3000, (args, out)
    # at least the full replay reads everything and must name the damage
    code, out = run("battle", "replay", bid, "--db", str(db))
    assert code in (1, 2) and expected in out.replace("\n", " "), out
    assert answered >= 1


def test_a_damaged_checkpoint_is_only_a_cache(played: tuple[Path, str], run: Run) -> None:
    """A checkpoint that is JSON but not a state of the game: the state is folded from the log instead."""
    db, bid = played
    _damage(db, "UPDATE rk_log SET state = '{\"junk\": true}'")
    code, out = run("battle", "show", bid, "--db", str(db), "--json")
    assert code == 0 and json.loads(out)["id"] == bid


def test_the_web_keeper_answers_a_damaged_battle_in_the_error_format(played: tuple[Path, str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db, bid = played
    with BattleStore(db) as store:
        from rulekeeper.persistence.access import AccessStore

        with AccessStore(db) as access:
            token = access.issue(bid, [*ToyGame().roles(store.initial(bid)), "spectator"])["spectator"]
    _damage(db, "UPDATE rk_log SET result = 'not json {'")
    monkeypatch.setattr(location, "SQLITE_BUSY_TIMEOUT_MS", 400)
    client = TestClient(create_app(db), raise_server_exceptions=False)
    r = client.get(f"/api/battles/{bid}", headers={"X-Rulekeeper-Token": token})
    assert r.status_code == 503 and r.json()["error"] == "damaged_store", r.text
    assert "not valid JSON" in r.json()["message"]
