"""The store's side of verifiable dice, on SQLite and PostgreSQL: contributions, reseeding, cascade, race."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from rulekeeper.persistence import chain
from rulekeeper.persistence.dice_store import (
    AlreadyContributedError,
    DiceRecord,
    NotVerifiableError,
    commitment_of,
    contribution_commitment,
)
from rulekeeper.persistence.location import normalise_url
from rulekeeper.persistence.store import BattleStore, StoreError

SECRET = "5e" * 32
ROLES = ("A", "B")


def _seal(dice: DiceRecord, initial: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, Any]]:
    seed = int(dice.contributions["A"][:8], 16) + int(dice.contributions["B"][:8], 16)
    return seed, {**initial, "seed": seed}, {"commitment": dice.commitment, "contributions": dice.ordered()}


def _battle(store: BattleStore) -> str:
    bid = store.create(ruleset="toy", scenario="race", seed=0, initial={"seed": 0, "board": [1, 2]}, title="t",
                       meta={"sides": {"A": "Reds", "B": "Blues"}})
    store.add_dice(bid, commitment=commitment_of(SECRET), secret=SECRET, roles=ROLES)
    return bid


def test_the_last_contribution_reseeds_and_reseals_the_battle(any_db: str) -> None:
    with BattleStore(any_db) as store:
        bid = _battle(store)
        before = store.get(bid)
        dice = store.contribute(bid, "B", "00000002" + "0" * 56, _seal)
        assert not dice.ready and dice.waiting == ("A",) and store.get(bid).seed == 0
        with pytest.raises(AlreadyContributedError):
            store.contribute(bid, "B", "f" * 64, _seal)
        dice = store.contribute(bid, "A", "00000001" + "0" * 56, _seal)
        assert dice.ready and dice.secret == SECRET
        after = store.get(bid)
        assert after.seed == 3 and store.initial(bid) == {"seed": 3, "board": [1, 2]}
        assert after.meta["sides"] == {"A": "Reds", "B": "Blues"} and after.meta["dice"]["commitment"] == dice.commitment
        assert after.revision > before.revision and after.head != before.head
        assert store.verify_chain(bid) == []  # sealed again: the new genesis covers the new seed and meta
        assert store.dice(bid) == dice
        doc = store.export(bid)
        assert doc["dice"] == {"commitment": commitment_of(SECRET), "roles": ["A", "B"],
                               "contributions": dice.contributions, "secret": None,  # not over: no secret
                               "commitments": {r: contribution_commitment(r, v) for r, v in dice.contributions.items()}}
        assert chain.genesis(doc["battle"], doc["initial"]) == doc["chain"]["genesis"]
        store.set_status(bid, "over")
        assert store.export(bid)["dice"]["secret"] == SECRET


def test_refusals(any_db: str) -> None:
    with BattleStore(any_db) as store:
        bid = _battle(store)
        plain = store.create(ruleset="toy", scenario="race", seed=4, initial={"seed": 4})
        with pytest.raises(NotVerifiableError):
            store.contribute(plain, "A", "1" * 64, _seal)
        with pytest.raises(StoreError):
            store.contribute(bid, "A", "not hex", _seal)
        with pytest.raises(StoreError):
            store.add_dice(plain, commitment="x", secret=None, roles=ROLES)
        assert store.dice(plain) is None and store.dice(bid) is not None and store.dice(bid).contributions == {}


def test_the_dice_go_with_their_battle(any_db: str) -> None:
    with BattleStore(any_db) as store:
        bid = _battle(store)
        store.delete(bid)
        assert store.dice(bid) is None
    engine = create_engine(normalise_url(any_db))
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rk_dice")).scalar() == 0
    engine.dispose()


def test_two_sides_contributing_at_once_both_count_and_the_battle_is_reseeded_once(any_db: str) -> None:
    with BattleStore(any_db) as setup:
        bids = [_battle(setup) for _ in range(4)]
    errors: list[BaseException] = []

    def give(bid: str, role: str) -> None:
        try:
            with BattleStore(any_db) as store:
                store.contribute(bid, role, ("0000000a" if role == "A" else "00000005") + "0" * 56, _seal)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=give, args=(bid, role)) for bid in bids for role in ROLES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with BattleStore(any_db) as store:
        for bid in bids:
            dice = store.dice(bid)
            assert dice is not None and dice.ready
            assert store.get(bid).seed == 15 and store.verify_chain(bid) == []
