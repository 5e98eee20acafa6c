"""Any edit of an exported or stored battle is detected (issue "Nothing hostile gets through", point 4).

"edit an action's ``report`` or ``events`` (or the battle's recorded seed field), import, and
``battle replay`` still says 'identical, bit for bit'".  Now: "a hash chain over the log detects
any edit; tests tamper with each field of an export and expect refusal".  The battle is a
played game of the toy dice race (chance in every action).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.persistence import chain
from rulekeeper.persistence.store import BattleNotFoundError, BattleStore
from rulekeeper.service.battles import BattleService
from toygame.game import SCENARIO_DIR, ToyGame


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BattleService, str, dict[str, Any]]]:
    register_for_tests(ToyGame)
    try:
        folder = tmp_path_factory.mktemp("tamper")
        svc = BattleService(BattleStore(folder / "b.db"))
        bid = svc.new(SCENARIO_DIR / "race.yaml", seed=4, title="Thursday race")
        svc.autoplay(bid, max_actions=6)
        path = folder / "b.json"
        svc.export(bid, path)
        yield svc, bid, json.loads(path.read_text())
    finally:
        unregister_for_tests("toy")


def _tampered(doc: dict[str, Any], path: str) -> dict[str, Any]:
    """The document with the value at ``path`` changed the smallest way its type allows."""
    out = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node: Any = out
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    key: Any = int(last) if last.isdigit() else last
    value = node[key]
    if isinstance(value, bool):
        node[key] = not value
    elif isinstance(value, int):
        node[key] = value + 1
    elif isinstance(value, str) and len(value) == 64:  # a link: one hex digit changed
        node[key] = ("0" if value[0] != "0" else "1") + value[1:]
    elif isinstance(value, str) and value[:4].isdigit():  # a time: one microsecond later
        node[key] = value[:-7] + str((int(value[-7]) + 1) % 10) + value[-6:]
    elif isinstance(value, str):
        node[key] = value + "!"
    elif isinstance(value, dict):
        node[key] = {**value, "forged": 1}
    else:
        raise AssertionError(f"no tampering for {path}")
    return out


SEALED = [
    "battle.ruleset", "battle.scenario", "battle.seed", "battle.title", "battle.meta", "battle.created",
    "battle.status", "battle.turn", "initial",
    "log.0.action", "log.0.result", "log.2.shown", "log.2.created", "log.1.chain", "log.1.result",
    "chain.genesis", "chain.head",
]


@pytest.mark.parametrize("field", SEALED)
def test_every_field_of_an_export_tampered_is_refused_and_leaves_nothing(
        exported: tuple[BattleService, str, dict[str, Any]], tmp_path: Path, field: str) -> None:
    svc, bid, doc = exported
    register_for_tests(ToyGame)
    try:
        forged = tmp_path / "forged.json"
        forged.write_text(json.dumps(_tampered(doc, field)))
        other = BattleService(BattleStore(tmp_path / "other.db"))
        with pytest.raises(RulekeeperError) as info:
            other.import_(forged)
        assert other.list() == []
        with pytest.raises(BattleNotFoundError):
            other.record(bid)
        assert len(str(info.value)) < 2000
    finally:
        unregister_for_tests("toy")


def test_the_untouched_export_imports_and_what_is_not_sealed_is_said(
        exported: tuple[BattleService, str, dict[str, Any]], tmp_path: Path) -> None:
    """Not sealed on purpose (``persistence/chain.py``): the id and the time this copy last changed."""
    svc, bid, doc = exported
    register_for_tests(ToyGame)
    try:
        other = BattleService(BattleStore(tmp_path / "other.db"))
        path = tmp_path / "copy.json"
        path.write_text(json.dumps(_tampered(_tampered(doc, "battle.id"), "battle.updated")))
        copy_id = other.import_(path)
        assert copy_id == bid + "!" and other.replay(copy_id).identical
        assert other.record(copy_id).head == svc.record(bid).head == doc["chain"]["head"]  # same fingerprint
    finally:
        unregister_for_tests("toy")


@pytest.mark.parametrize(("sql", "found"), [
    ("UPDATE rk_log SET shown = NOT shown WHERE entry_index = 1", "action 1: changed after it was recorded"),
    ("UPDATE rk_log SET created = '2020-01-01T00:00:00+00:00' WHERE entry_index = 2", "action 2: changed"),
    ("UPDATE rk_battles SET seed = '5'", "set-up"),
    ("UPDATE rk_battles SET title = 'Friday race'", "set-up"),
    ("UPDATE rk_battles SET head = genesis", "fingerprint"),
])
def test_an_edit_inside_the_database_is_found_by_replay(tmp_path: Path, sql: str, found: str) -> None:
    """What no replay recomputes (times, shown flags, set-up fields) is caught by the chain."""
    register_for_tests(ToyGame)
    try:
        db = tmp_path / "b.db"
        svc = BattleService(BattleStore(db))
        bid = svc.new(SCENARIO_DIR / "race.yaml", seed=4, title="Thursday race")
        svc.autoplay(bid, max_actions=6)
        assert svc.replay(bid).identical
        raw = sqlite3.connect(db)
        raw.execute(sql)
        raw.commit()
        raw.close()
        replay = BattleService(BattleStore(db)).replay(bid)
        assert not replay.identical and any(found in d for d in replay.differences), replay.differences
    finally:
        unregister_for_tests("toy")


def test_the_chain_follows_undo_and_reveal(tmp_path: Path) -> None:
    """Undo takes the head back to the link before; revealing a result re-seals its entry."""
    register_for_tests(ToyGame)
    try:
        store = BattleStore(tmp_path / "b.db")
        svc = BattleService(store)
        bid = svc.new(SCENARIO_DIR / "race.yaml", seed=4)
        heads = [store.get(bid).head]
        for _ in range(3):
            svc.autoplay(bid, max_actions=1)
            heads.append(store.get(bid).head)
        assert len(set(heads)) == 4 and store.verify_chain(bid) == []
        store.mark_shown(bid, 2)
        revealed = store.get(bid).head
        assert revealed not in heads and store.verify_chain(bid) == []
        store.pop_last(bid, 3)
        assert store.get(bid).head == heads[2] and store.verify_chain(bid) == []
        svc.undo(bid)
        assert store.get(bid).head == heads[1]
        genesis = store.export(bid)["chain"]["genesis"]
        assert chain.fingerprint(genesis).count("-") == 3
    finally:
        unregister_for_tests("toy")


def test_the_web_log_shows_the_fingerprint_only_once_every_result_is_revealed(tmp_path: Path) -> None:
    """A fingerprint seals the face-down result too: shown then, a client could hash each possible result."""
    from fastapi.testclient import TestClient

    from rulekeeper.persistence.access import AccessStore
    from rulekeeper.web.api import create_app

    register_for_tests(ToyGame)
    try:
        db = tmp_path / "b.db"
        store = BattleStore(db)
        svc = BattleService(store)
        bid = svc.new(SCENARIO_DIR / "race.yaml", seed=4)
        svc.autoplay(bid, max_actions=2)  # autoplay leaves its results face down
        token = AccessStore(db).issue(bid, ["A", "B", "spectator"])["spectator"]
        client = TestClient(create_app(db))
        pending = client.get(f"/api/battles/{bid}/log", headers={"X-Rulekeeper-Token": token}).json()
        assert pending["fingerprint"] is None
        assert "Log fingerprint" not in client.get(f"/b/{bid}/log?token={token}").text
        store.mark_shown(bid, 1)
        shown = client.get(f"/api/battles/{bid}/log", headers={"X-Rulekeeper-Token": token}).json()
        assert shown["fingerprint"] == chain.fingerprint(store.get(bid).head or "")
        assert shown["fingerprint"] in client.get(f"/b/{bid}/log?token={token}").text
    finally:
        unregister_for_tests("toy")
