"""Issue 23, fault 8: a host who also plays cannot choose the dice (commit, then reveal).

The attack as filed: the host reads the keeper's secret in its own database, sees the other
side's contribution, and tries contributions of its own (90 a second) until the seed suits it.
Here "suits it" is "the seed is divisible by 8" — any function of the seed the host can
compute (it knows the state, so e.g. whether the first charge succeeds) is as easy to grind.

With scheme ``rulekeeper-dice/2`` every side commits first; the other side's bytes are nowhere
in the keeper's database when the host must commit, and a reveal that is not what the host
committed to is refused with a typed 409.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from rulekeeper.persistence.dice_store import contribution_commitment
from rulekeeper.service.dice import dice_seed
from rulekeeper.web.api import create_app
from toygame.game import ToyGame


@pytest.fixture()
def keeper(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    register_for_tests(ToyGame)
    try:
        yield TestClient(create_app(tmp_path / "host.db"), follow_redirects=False), tmp_path / "host.db"
    finally:
        unregister_for_tests("toy")


def _grind(secret: str, other: str | None) -> tuple[str | None, int]:
    """The host's search: a contribution of side A making a seed divisible by 8 (None: nothing to grind on)."""
    if other is None:
        return None, 0
    for tries in range(1, 2000):
        mine = secrets.token_hex(32)
        if dice_seed(secret, [("A", mine), ("B", other)]) % 8 == 0:
            return mine, tries
    raise AssertionError("no seed divisible by 8 in 2000 tries")


def _everything_the_host_can_read(db: Path, bid: str) -> tuple[str, str]:
    """The host's own database: the battle's secret, and every byte of every table as text."""
    with sqlite3.connect(db) as con:
        secret = con.execute("SELECT secret FROM rk_dice WHERE battle_id = ?", (bid,)).fetchone()[0]
        dump = "\n".join(con.iterdump())
    con.close()
    return secret, dump


def _post(client: TestClient, b: dict[str, Any], role: str, **body: str) -> Any:
    return client.post(f"/api/battles/{b['id']}/dice", params={"token": b["tokens"][role]}, json=body)


def test_the_grinding_attack_works_on_a_contribution_seen_first() -> None:
    """The fault, reproduced: knowing the secret and the other side's bytes, a chosen seed takes a few tries."""
    secret, other = secrets.token_hex(32), secrets.token_hex(32)
    mine, tries = _grind(secret, other)
    assert mine is not None and dice_seed(secret, [("A", mine), ("B", other)]) % 8 == 0 and tries < 2000


def test_a_host_who_plays_cannot_see_the_other_side_before_committing_nor_change_its_own(
        keeper: tuple[TestClient, Path]) -> None:
    client, db = keeper
    attempts = 0
    for _ in range(20):
        attempts += 1
        b = client.post("/api/battles", json={"scenario": "duel"}).json()
        theirs, mine = secrets.token_hex(32), secrets.token_hex(32)
        # side B's device commits; its bytes stay on the device
        r = _post(client, b, "B", commitment=contribution_commitment("B", theirs))
        assert r.status_code == 200 and r.json()["contributions"] == {"A": None, "B": None}
        # B cannot reveal early either: the keeper refuses it until every side has committed
        r = _post(client, b, "B", contribution=theirs)
        assert r.status_code == 409 and r.json()["error"] == "dice_not_committed"
        # the host, about to commit, reads all its database: the secret, but nowhere B's bytes
        secret, dump = _everything_the_host_can_read(db, b["id"])
        assert secret in dump and theirs not in dump
        assert _grind(secret, None) == (None, 0)
        assert _post(client, b, "A", commitment=contribution_commitment("A", mine)).status_code == 200
        # now B reveals (every side has committed); the host sees B's bytes and grinds a better one of its own
        assert _post(client, b, "B", contribution=theirs).json()["contributions"] == {"A": None, "B": theirs}
        ground, _ = _grind(secret, theirs)
        assert ground is not None and ground != mine
        r = _post(client, b, "A", contribution=ground)
        assert r.status_code == 409 and r.json()["error"] == "contribution_mismatch"
        r = _post(client, b, "A", commitment=contribution_commitment("A", ground))  # nor commit again
        assert r.status_code == 409 and r.json()["error"] == "dice_contributed"
        # only what it committed to seals the dice: the seed nobody chose
        sealed = _post(client, b, "A", contribution=mine).json()
        assert sealed["ready"] and sealed["contributions"] == {"A": mine, "B": theirs}
        store = client.app.state.keeper.store  # type: ignore[attr-defined]
        assert store.get(b["id"]).seed == dice_seed(secret, [("A", mine), ("B", theirs)])
        assert store.get(b["id"]).meta["dice"]["commitments"] == [
            {"role": "A", "value": contribution_commitment("A", mine)},
            {"role": "B", "value": contribution_commitment("B", theirs)}]
    print(f"grinding attempts refused: {attempts} of {attempts}")


def test_a_commitment_and_a_contribution_are_each_checked(keeper: tuple[TestClient, Path]) -> None:
    client, _ = keeper
    b = client.post("/api/battles", json={"scenario": "duel"}).json()
    r = _post(client, b, "A", commitment="zz" * 32)
    assert r.status_code == 422 and r.json()["error"] == "bad_contribution" and r.json()["field"] == "commitment"
    r = _post(client, b, "A", commitment="ab" * 32, contribution="ab" * 32)
    assert r.status_code == 422 and r.json()["error"] == "bad_request"
    r = client.post(f"/api/battles/{b['id']}/dice", params={"token": b["tokens"]["A"]}, json={})
    assert r.status_code == 422 and r.json()["error"] == "bad_request"
    r = _post(client, b, "spectator", commitment="ab" * 32)
    assert r.status_code == 403
