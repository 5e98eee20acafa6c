"""Verifiable dice (issue 11): the commitment verifies, the seed is the sides', a tampered export fails.

A battle with verifiable dice is created with the keeper's secret committed; nobody acts before
every side has contributed; the last contribution reseeds the battle; once it is over the
revealed secret lets :func:`verify_export` recompute every draw, and any edit of the export
(a result, the secret, a contribution, an action, the seed) is named.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.game import Game
from rulekeeper.core.ruleset import game, register_for_tests, unregister_for_tests
from rulekeeper.core.wording import counted
from rulekeeper.persistence.dice_store import AlreadyContributedError, NotVerifiableError, contribution_commitment
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService, DiceNotReadyError
from rulekeeper.service.dice import BadContributionError, BadExportError, Dice, dice_seed, verify_export
from toygame.game import SCENARIO_DIR, ToyGame

DUEL = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/exillis/data/scenarios/duel.yaml"
A, B = "a1" * 32, "b2" * 32


@pytest.fixture()
def svc(tmp_path: Path) -> Iterator[BattleService]:
    register_for_tests(ToyGame)
    try:
        yield BattleService(BattleStore(tmp_path / "d.db"))
    finally:
        unregister_for_tests("toy")


def finished(svc: BattleService, scenario: Path = DUEL) -> str:
    """A verifiable battle played to its end, its last results revealed."""
    bid = svc.new(scenario, verifiable=True)
    dice = Dice(svc)
    dice.contribute(bid, "A", A)
    dice.contribute(bid, "B", B)
    svc.autoplay(bid)
    n = svc.store.get(bid).position
    svc.store.mark_shown(bid, n - 1)
    return bid


def test_the_commitment_verifies_and_the_seed_is_made_from_all_three(svc: BattleService) -> None:
    bid = finished(svc)
    status = Dice(svc).status(bid)
    assert status.revealed and status.secret is not None
    secret = bytes.fromhex(status.secret)
    assert hashlib.sha256(secret).hexdigest() == status.commitment
    digest = hashlib.sha256(b"rulekeeper-dice/1\n" + secret + bytes.fromhex(A) + bytes.fromhex(B)).digest()
    seed = int.from_bytes(digest[:8], "big") >> 1
    assert status.seed == seed == svc.store.get(bid).seed == svc.store.initial(bid)["seed"]
    assert 0 <= seed < 2**63
    # the set-up is sealed again with the dice in it, and the whole battle replays from the new seed
    meta = svc.store.get(bid).meta["dice"]
    assert meta["commitment"] == status.commitment
    assert meta["contributions"] == [{"role": "A", "value": A}, {"role": "B", "value": B}]
    assert svc.replay(bid).identical
    result = Dice(svc).verify(bid)
    n = svc.store.get(bid).position
    assert result.ok and result.verifiable and result.actions == n > 0 and result.message == f"verified: {counted(n, 'action')}"


def test_the_order_of_the_sides_matters_and_every_contribution_changes_the_seed() -> None:
    secret = "00" * 32
    base = dice_seed(secret, [("A", A), ("B", B)])
    assert base != dice_seed(secret, [("A", B), ("B", A)])
    assert base != dice_seed(secret, [("A", A), ("B", "b3" + B[2:])])
    assert base != dice_seed("01" + secret[2:], [("A", A), ("B", B)])


def test_nobody_acts_before_every_side_has_contributed(svc: BattleService) -> None:
    bid = svc.new(DUEL, verifiable=True)
    dice = Dice(svc)
    state, legal = svc.legal(bid)
    assert legal
    with pytest.raises(DiceNotReadyError) as refused:
        svc.act(bid, legal[0].action)
    assert refused.value.code == "dice_not_ready"
    with pytest.raises(DiceNotReadyError):
        svc.autoplay(bid)
    placeholder = svc.store.get(bid).seed
    dice.contribute(bid, "B", B)
    with pytest.raises(DiceNotReadyError):
        svc.act(bid, legal[0].action)
    assert svc.store.get(bid).position == 0 and svc.store.get(bid).seed == placeholder == 0
    status = dice.contribute(bid, "A", A)
    assert status.ready and status.waiting == () and not status.revealed and status.secret is None
    svc.act(bid, svc.legal(bid)[1][0].action)
    assert svc.store.get(bid).position == 1


def test_a_contribution_is_given_once_by_a_side_and_must_be_32_bytes(svc: BattleService) -> None:
    bid = svc.new(DUEL, verifiable=True)
    dice = Dice(svc)
    dice.contribute(bid, "A", A.upper())  # upper case is forgiven, stored in lower case
    assert svc.store.dice(bid).contributions == {"A": A}  # type: ignore[union-attr]
    # shown to nobody before every side has committed; its commitment is
    assert dice.status(bid).contributions == {"A": None, "B": None}
    assert dice.status(bid).commitments == {"A": contribution_commitment("A", A), "B": None}
    with pytest.raises(AlreadyContributedError) as twice:
        dice.contribute(bid, "A", B)
    assert twice.value.code == "dice_contributed" and svc.store.dice(bid).contributions == {"A": A}  # type: ignore[union-attr]
    for bad in ("", "ab" * 31, "zz" * 32, "ab" * 33):
        with pytest.raises(BadContributionError):
            dice.contribute(bid, "B", bad)
    with pytest.raises(UnknownNameError):
        dice.contribute(bid, "spectator", B)
    plain = svc.new(DUEL, seed=3)
    with pytest.raises(NotVerifiableError):
        dice.contribute(plain, "A", A)
    assert not dice.status(plain).verifiable


def test_a_game_without_chance_gets_no_dice(svc: BattleService) -> None:
    wartable = Path(__file__).resolve().parents[2] / "examples/wartable/oathsworn_vs_bloodless.yaml"
    bid = svc.new(wartable, verifiable=True, ruleset="wartable")
    assert not Dice(svc).status(bid).verifiable
    svc.autoplay(bid)
    assert svc.status(bid).over


@pytest.mark.parametrize("name", ["exillis", "wartable", "toy"])
def test_every_game_takes_a_new_seed_without_changing_its_input(svc: BattleService, name: str) -> None:
    g = game(name)
    assert isinstance(g, Game)
    scenario = g.scenarios()[0].path
    bid = svc.new(scenario, seed=5, ruleset=name)
    doc = svc.store.initial(bid)
    before = json.dumps(doc, sort_keys=True)
    again = g.reseeded(doc, 12345)
    assert json.dumps(doc, sort_keys=True) == before
    if g.deterministic:
        assert again == doc
    else:
        assert again["seed"] == 12345 and {k: v for k, v in again.items() if k != "seed"} == {
            k: v for k, v in doc.items() if k != "seed"}
        g.initial_state(again)


# -- tampered exports ---------------------------------------------------------------------------------


@pytest.fixture()
def export(svc: BattleService) -> dict[str, Any]:
    bid = finished(svc, SCENARIO_DIR / "race.yaml")
    doc = svc.store.export(bid)
    assert doc["dice"]["secret"] is not None and len(doc["log"]) >= 3
    return doc


def _flip(hex64: str) -> str:
    return ("0" if hex64[0] != "0" else "1") + hex64[1:]


def test_the_untouched_export_verifies(export: dict[str, Any]) -> None:
    result = verify_export(export)
    assert result.ok and result.verifiable and result.actions == len(export["log"])


def test_an_edited_result_names_its_action(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    record = doc["log"][2]["result"]
    record["chance"][0]["u"] = 0.5 if record["chance"][0]["u"] != 0.5 else 0.25
    result = verify_export(doc)
    assert not result.ok and result.index == 2 and result.field == "log.2.result" and result.actions == 2
    assert result.message.startswith("action 3 (")


def test_an_edited_action_names_its_action(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    kinds = [e["action"]["kind"] for e in doc["log"]]
    i = next(i for i, k in enumerate(kinds) if k == "roll")
    doc["log"][i]["action"]["kind"] = "hold"
    result = verify_export(doc)
    assert not result.ok and result.index == i and result.field is not None and result.field.startswith(f"log.{i}")


def test_an_edited_secret_fails_the_commitment(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["dice"]["secret"] = _flip(doc["dice"]["secret"])
    result = verify_export(doc)
    assert not result.ok and result.field == "dice.secret" and "commitment" in result.message
    # a forger who also changes the commitment is caught by the copy sealed with the set-up
    doc["dice"]["commitment"] = hashlib.sha256(bytes.fromhex(doc["dice"]["secret"])).hexdigest()
    result = verify_export(doc)
    assert not result.ok and result.field == "dice.commitment"


def test_an_edited_contribution_names_the_side(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["dice"]["contributions"]["B"] = _flip(doc["dice"]["contributions"]["B"])
    result = verify_export(doc)
    assert not result.ok and result.field == "dice.contributions.B" and "side B" in result.message
    assert "does not match the commitment" in result.message
    # its commitment changed to match: not the commitment sealed with the set-up
    forged = contribution_commitment("B", doc["dice"]["contributions"]["B"])
    doc["dice"]["commitments"]["B"] = forged
    result = verify_export(doc)
    assert not result.ok and result.field == "dice.commitments.B" and "side B" in result.message
    # changed in the sealed copy too: the seed no longer matches the battle's
    doc["battle"]["meta"]["dice"]["commitments"][1]["value"] = forged
    doc["battle"]["meta"]["dice"]["contributions"][1]["value"] = doc["dice"]["contributions"]["B"]
    result = verify_export(doc)
    assert not result.ok and result.field == "battle.seed"


def test_a_chosen_seed_passed_off_as_the_dice_fails(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["battle"]["seed"] += 1
    doc["initial"]["seed"] += 1
    result = verify_export(doc)
    assert not result.ok and result.field == "battle.seed"
    doc = copy.deepcopy(export)
    doc["initial"]["seed"] += 1
    result = verify_export(doc)
    assert not result.ok and result.field == "initial"


def test_an_edited_time_is_caught_by_the_chain(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["log"][1]["shown"] = not doc["log"][1]["shown"]
    result = verify_export(doc)
    assert not result.ok and result.field == "log.1" and result.index == 1


def test_an_export_made_before_the_end_cannot_be_verified_yet(svc: BattleService) -> None:
    bid = svc.new(SCENARIO_DIR / "race.yaml", verifiable=True)
    Dice(svc).contribute(bid, "A", A)
    Dice(svc).contribute(bid, "B", B)
    svc.autoplay(bid, max_actions=2)
    doc = svc.store.export(bid)
    assert doc["dice"]["secret"] is None and not Dice(svc).status(bid).revealed
    result = verify_export(doc)
    assert not result.ok and result.field == "dice.secret" and "not over" in result.message


def test_a_plain_battle_replays_but_is_not_called_verifiable(svc: BattleService) -> None:
    bid = svc.new(SCENARIO_DIR / "race.yaml", seed=4)
    svc.autoplay(bid, max_actions=4)
    result = verify_export(svc.store.export(bid))
    assert result.ok and not result.verifiable and "plain seed" in result.message


def test_what_is_not_an_export_is_refused_as_such() -> None:
    for bad in ({}, [], {"format": "rulekeeper-battle", "version": 2}, "x"):
        with pytest.raises(BadExportError):
            verify_export(bad)


def test_an_export_with_dice_imports_and_keeps_its_dice(svc: BattleService, tmp_path: Path) -> None:
    bid = finished(svc, SCENARIO_DIR / "race.yaml")
    path = tmp_path / "e.json"
    svc.export(bid, path)
    other = BattleService(BattleStore(tmp_path / "other.db"))
    copy_id = other.import_(path, new_id=True)
    mine, theirs = Dice(svc).status(bid), Dice(other).status(copy_id)
    assert theirs.to_dict() == mine.to_dict() and theirs.revealed
    assert Dice(other).verify(copy_id).ok
    tampered = json.loads(path.read_text())
    tampered["dice"]["secret"] = _flip(tampered["dice"]["secret"])
    path.write_text(json.dumps(tampered))
    with pytest.raises(Exception, match="dice.secret"):
        other.import_(path, new_id=True)
