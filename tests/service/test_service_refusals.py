"""Refusals of the battle service found by probing the CLI: typed errors, nothing half-done."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core.errors import ReplayMismatchError, RulekeeperError, UnknownNameError
from rulekeeper.persistence.store import BattleNotFoundError, BattleStore
from rulekeeper.service.battles import BattleService

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "src" / "rulekeeper" / "rulesets" / "exillis" / "data" / "scenarios" / "duel.yaml"


@pytest.fixture()
def svc(tmp_path: Path) -> BattleService:
    return BattleService(BattleStore(tmp_path / "b.db"))


def test_autoplay_for_a_side_the_battle_does_not_have_is_refused(svc: BattleService) -> None:
    bid = svc.new(DUEL, seed=1)
    with pytest.raises(UnknownNameError, match="'C'"):
        svc.autoplay(bid, sides={"C"})
    assert svc.record(bid).position == 0


def test_export_to_a_place_that_cannot_be_written_is_a_typed_error(svc: BattleService, tmp_path: Path) -> None:
    bid = svc.new(DUEL, seed=1)
    for where in (tmp_path / "missing" / "x.json", tmp_path, Path("/dev/full")):
        with pytest.raises(RulekeeperError, match="cannot write"):
            svc.export(bid, where)


def unchained(doc: dict[str, Any]) -> dict[str, Any]:
    """The export as rulekeeper wrote it before the hash chain (version 1)."""
    for entry in doc["log"]:
        del entry["chain"]
    del doc["chain"]
    return {**doc, "version": 1}


@pytest.mark.parametrize("field", ["report", "events", "chance", "acp"])
def test_an_edited_result_is_refused_on_import_and_leaves_nothing(svc: BattleService, tmp_path: Path,
                                                                     field: str) -> None:
    """Replay compares everything it recomputes: a forged note, event or number is caught.

    The file is made a version 1 export (no hash chain) so that the replay, not the chain,
    is what catches the forgery; ``tests/service/test_tampering.py`` checks the chain.
    """
    bid = svc.new(DUEL, seed=2)
    svc.autoplay(bid, max_actions=6)
    path = tmp_path / "b.json"
    svc.export(bid, path)
    doc = json.loads(path.read_text())
    entry = next(e for e in doc["log"] if e["result"].get(field))
    value = entry["result"][field]
    entry["result"][field] = value + 1 if isinstance(value, (int, float)) else [*value, value[0]]
    path.write_text(json.dumps(unchained(doc)))
    other = BattleService(BattleStore(tmp_path / "other.db"))
    with pytest.raises(ReplayMismatchError):
        other.import_(path)
    assert other.list() == []
    with pytest.raises(BattleNotFoundError):
        other.record(bid)


def test_a_nul_byte_or_a_huge_title_is_refused_the_same_on_every_backend(svc: BattleService) -> None:
    from rulekeeper.persistence.store import StoreError

    for title in ("bad\x00title", "x" * 10_000):
        with pytest.raises(StoreError):
            svc.new(DUEL, seed=1, title=title)
    assert svc.list() == []


def test_undo_for_a_link_is_checked_by_the_service_in_the_order_a_player_reads_it(svc: BattleService) -> None:
    """The page and the API hand the link's role to ``undo``: one rule for both (it was written twice).

    Spectators never write; another side may not take back this side's action; a finished battle is over
    only as the link sees it: a last blow still face down may be taken back by its side.
    """
    from rulekeeper.service.battles import GameOverError, UnauthorizedError

    bid = svc.new(DUEL, seed=3)
    svc.autoplay(bid, max_actions=1)
    last_side = svc.game(bid).side_of(svc.store.entry(bid, 0).action)
    other = "B" if last_side == "A" else "A"
    with pytest.raises(UnauthorizedError, match="spectators"):
        svc.undo(bid, expected_position=1, link="spectator")
    with pytest.raises(UnauthorizedError, match="only the side that played"):
        svc.undo(bid, expected_position=1, link=other)
    assert svc.record(bid).position == 1
    svc.undo(bid, expected_position=1, link=last_side)
    assert svc.record(bid).position == 0
    svc.autoplay(bid)  # to the end: the last blow's results are face down
    assert svc.status(bid).over
    end = svc.record(bid).position
    striker = svc.game(bid).side_of(svc.store.entry(bid, end - 1).action)
    loser = "B" if striker == "A" else "A"
    with pytest.raises(UnauthorizedError, match="only the side that played"):  # not "game_over": not seen yet
        svc.undo(bid, expected_position=end, link=loser)
    assert svc.reveal(bid, end)
    with pytest.raises(GameOverError):
        svc.undo(bid, expected_position=end, link=striker)
    assert svc.record(bid).position == end
