"""Issue 30, second point: numbered actions, ``battle act N``, a stale number refused, listed texts taken back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_kit import run
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"
SHROUDFALL = ROOT / "examples" / "wartable" / "shroudfall.yaml"


def new(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(monkeypatch, capsys, "battle", "new", *args, "--json")
    assert code == 0, err
    return str(json.loads(out)["id"])


def test_actions_are_numbered_and_act_n_plays_line_n(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``battle actions`` listed no numbers and ``battle act ID 1`` was refused."""
    bid = new(monkeypatch, capsys, str(STARTER))
    code, out, _ = run(monkeypatch, capsys, "battle", "actions")
    assert code == 0 and "│ 8  │ move A:Billmen C3" in out
    listed = json.loads(run(monkeypatch, capsys, "battle", "actions", bid[:5], "--json")[1])["actions"]
    assert [a["n"] for a in listed] == list(range(1, len(listed) + 1)) and listed[7]["text"] == "move A:Billmen C3"
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid[:5], "8", "--json")
    assert code == 0 and json.loads(out)["action"] == {"kind": "move", "unit": "A:Billmen", "target": "C3"}


def test_a_number_from_a_list_the_battle_moved_past_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A stale number is refused, not re-mapped onto the new list (another terminal played in between)."""
    bid = new(monkeypatch, capsys, str(STARTER))
    code, _, err = run(monkeypatch, capsys, "battle", "act", "3")
    assert code == 2 and "stale_list" in err and "battle actions" in err  # no list shown yet
    run(monkeypatch, capsys, "battle", "actions")
    BattleService(BattleStore(None)).act(bid, {"kind": "move", "unit": "A:Billmen", "target": "C3"})
    code, _, err = run(monkeypatch, capsys, "battle", "act", "3")
    assert code == 2 and "moved since its actions were listed (then 0 actions played, now 1)" in err
    assert BattleStore(None).get(bid).position == 1
    run(monkeypatch, capsys, "battle", "actions")
    code, out, _ = run(monkeypatch, capsys, "battle", "act", "1", "--json")
    assert code == 0 and json.loads(out)["position"] == 2
    code, _, err = run(monkeypatch, capsys, "battle", "act", "1")  # the same list cannot be played twice
    assert code == 2 and "stale_list" in err


def test_a_number_outside_the_list_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    new(monkeypatch, capsys, str(STARTER))
    run(monkeypatch, capsys, "battle", "actions")
    code, _, err = run(monkeypatch, capsys, "battle", "act", "99")
    assert code == 2 and "no action 99: the list has 11 lines (1 to 11)" in err


def test_the_campaign_orders_are_taken_back_as_listed(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``battle act ID oathsworn "every unit holds"`` → 'write each order as UNIT: ORDER [TARGET]'."""
    bid = new(monkeypatch, capsys, str(SHROUDFALL), "--ruleset", "wartable-campaign")
    listed = json.loads(run(monkeypatch, capsys, "battle", "actions", "--json")[1])["actions"]
    holds = next(a for a in listed if a["text"] == "Oathsworn: every unit holds")
    code, out, err = run(monkeypatch, capsys, "battle", "act", bid, "oathsworn", "every unit holds", "--json")
    assert code == 0, err
    assert json.loads(out)["action"]["orders"] == holds["orders"]
    code, out, err = run(monkeypatch, capsys, "battle", "act", "Bloodless: every unit holds", "--json")
    assert code == 0, err


def test_listed_texts_of_exillis_are_taken_back_verbatim(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``stance A:Billmen [defensive]`` is listed; the game's own parser read ``[defensive]`` as the option."""
    new(monkeypatch, capsys, str(STARTER))
    code, out, err = run(monkeypatch, capsys, "battle", "act", "stance", "A:Billmen", "[defensive]", "--json")
    assert code == 0, err
    assert json.loads(out)["action"] == {"kind": "stance", "unit": "A:Billmen", "option": "defensive"}
    code, _, err = run(monkeypatch, capsys, "battle", "act", "hold", "the", "line")
    assert code == 2 and "Traceback" not in err  # words that are no listed text: the game's parser refuses them
