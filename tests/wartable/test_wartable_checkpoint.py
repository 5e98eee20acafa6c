"""The War Table engagement's compact checkpoints (issue 22: stored ÷ engine ≤ 2×), and older battles' full ones."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import BattleSetup, Game, SetupRequest
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService
from rulekeeper.service.reading import game_of

ENCLAVE_FILE = Path(__file__).resolve().parents[2] / "examples" / "wartable" / "bloodless_assault_on_enclave.yaml"


@pytest.fixture(scope="module")
def g() -> Game:
    return game_of("wartable")


def setups(g: Game) -> tuple[BattleSetup, BattleSetup]:
    """A battle set up now (compact checkpoints) and the same battle as set up before issue 22 (no mark)."""
    new = g.setup(SetupRequest(scenario=ENCLAVE_FILE))
    old_doc = {k: v for k, v in new.document.items() if k != "checkpoint"}
    return new, dataclasses.replace(new, document=old_doc)


def test_a_new_battle_is_marked_and_its_checkpoints_are_compact(g: Game) -> None:
    new, old = setups(g)
    assert new.document["checkpoint"] == "compact" and "checkpoint" not in old.document
    s = g.initial_state(new.document)
    for _ in range(2):
        s = g.apply(s, g.policy(s)).state  # type: ignore[arg-type]
    compact, full = g.state_to_json(s), g.view(s, "attackers")
    assert sorted(compact) == ["fixed", "resolved", "ruleset"] and compact["resolved"] is True
    assert json.loads(compact["fixed"]) == new.document  # the initial document, once, as text
    assert len(json.dumps(compact)) * 2 < len(json.dumps(full))  # no report (3.1 kB, not 8.4): resolved again
    assert g.state_from_json(json.loads(json.dumps(compact))) == s == g.state_from_json(full)


def test_a_compact_checkpoint_with_a_damaged_fixed_text_is_refused(g: Game) -> None:
    s = g.initial_state(setups(g)[0].document)
    doc = g.state_to_json(s)
    spaced = json.dumps(json.loads(doc["fixed"]), indent=1)  # the same battle, not the text it encodes to
    unmarked = json.dumps({k: v for k, v in json.loads(doc["fixed"]).items() if k != "checkpoint"})
    for fixed in (5, "{not json", spaced, unmarked):
        with pytest.raises(RulekeeperError, match="damaged"):
            g.state_from_json({**doc, "fixed": fixed})


@pytest.mark.parametrize("which", [0, 1])
def test_new_and_older_stored_battles_replay_identically(g: Game, tmp_path: Path, which: int) -> None:
    """A battle stored before issue 22 keeps writing full checkpoints, so its replay still compares them."""
    svc = BattleService(BattleStore(tmp_path / "b.db"))
    bid = svc.new(setups(g)[which])
    svc.autoplay(bid)
    checkpoint = svc.store.nearest_checkpoint(bid, 2)
    assert checkpoint is not None and ("fixed" in checkpoint[1]) == (which == 0)
    rep = svc.replay(bid)
    assert rep.identical and rep.actions == 2, rep.differences
    other = BattleService(BattleStore(tmp_path / "b.db"))  # read anew from the checkpoint
    assert g.state_to_json(other.state(bid)) == g.state_to_json(rep.state)
