"""Issue 30: ``rulekeeper play`` in a real terminal (pexpect): every shipped scenario played to its end by typing
numbers only, and a move made by a second process shown within a second.

Each battle is autoplayed to its end by the service, then its last actions are taken back (autoplay leaves
results face down, so they may be), and the terminal plays them again: the test reads the battle through the
protocol, finds the number of the default policy's action in the list the loop shows, and types that number.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from forked_terminal import ForkedTerminal

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import games
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

ROOT = Path(__file__).resolve().parents[2]
#: Actions each battle is played by hand in the terminal (the ones before are autoplayed).
BY_HAND = 2
SCENARIOS = [(g.name, sc.key, sc.path) for g in games() for sc in g.scenarios()]


def env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120", "NO_COLOR": "1", "TERM": "xterm",
            "RULEKEEPER_DB": str(tmp / "battles.db"), "RULEKEEPER_STATE_DIR": str(tmp / "state")}


class RealTerminal(pexpect.spawn):  # type: ignore[misc]
    """``rulekeeper play ARGS`` in a fresh interpreter on a pseudo-terminal of its own, as the user starts it."""

    def __init__(self, tmp: Path, *args: str) -> None:
        super().__init__(sys.executable, ["-m", "rulekeeper", "play", *args, "--poll", "0.2"], env=env(tmp),
                         encoding="utf-8", timeout=60, dimensions=(50, 120))

    def exit_code(self) -> int:
        self.close()
        return int(self.exitstatus if self.exitstatus is not None else -1)


def spawn(tmp: Path, *args: str) -> ForkedTerminal:
    """``rulekeeper play ARGS`` on a pseudo-terminal, forked from this process (``forked_terminal.py``: the
    same ``main`` without a new interpreter's 1.3 s of imports)."""
    return ForkedTerminal(["play", *args, "--poll", "0.2"], env(tmp))


def nearly_over(svc: BattleService, name: str, path: Path) -> str:
    """A battle of ``path`` autoplayed to its end, its last :data:`BY_HAND` actions taken back."""
    bid = svc.new(SetupRequest(scenario=path, seed=1), ruleset=name)
    svc.autoplay(bid)
    assert svc.status(bid).over
    for _ in range(min(BY_HAND, svc.record(bid).position)):
        svc.undo(bid)
    return bid


@pytest.mark.parametrize(("game", "scenario", "path"), SCENARIOS, ids=[f"{g}-{s}" for g, s, _ in SCENARIOS])
def test_the_loop_plays_the_scenario_to_its_end_by_numbers(tmp_path: Path, game: str, scenario: str, path: Path) -> None:
    svc = BattleService(BattleStore(str(tmp_path / "battles.db")))
    bid = nearly_over(svc, game, path)
    child = spawn(tmp_path, bid[:8])
    typed = []
    child.expect_exact("you> ")
    while not svc.status(bid).over:
        state = svc.state(bid)
        g = svc.game(bid)
        n = [lg.action for lg in g.legal_actions(state)].index(g.policy(state)) + 1
        child.sendline(str(n))
        typed.append(n)
        child.expect_exact("Play it? [Y/n] ")
        child.sendline("")
        while child.expect_exact(["Enter: next result · a: all ", "you> ", "The battle is over."]) == 0:
            child.sendline("a")
        if child.after != "you> ":
            break
    child.expect(pexpect.EOF)
    assert child.exit_code() == 0, child.before
    assert svc.status(bid).over and len(typed) == min(BY_HAND, svc.record(bid).position)
    assert svc.replay(bid).identical


def test_a_move_made_by_another_process_appears_within_a_second(tmp_path: Path) -> None:
    starter = ROOT / "examples" / "exillis" / "starter.yaml"
    svc = BattleService(BattleStore(str(tmp_path / "battles.db")))
    bid = svc.new(starter, seed=1)
    child = RealTerminal(tmp_path, bid, "--side", "B")
    child.expect_exact("Waiting for side A")
    child.expect_exact("B> ")
    subprocess.run([sys.executable, "-m", "rulekeeper", "battle", "act", bid, "move", "Billmen", "C3"], env=env(tmp_path),
                   check=True, capture_output=True, timeout=120)
    done = time.monotonic()
    child.expect_exact("◆ 1. side A: move A:Billmen C3", timeout=10)
    shown = time.monotonic() - done
    child.expect_exact("Your actions")
    child.expect_exact("B> ")
    child.sendline("1")
    child.expect_exact("Play it? [Y/n] ")
    child.sendline("y")
    child.expect_exact("B> ")
    assert svc.record(bid).position == 2
    child.sendline("u")
    child.expect_exact("Last action taken back.")
    child.expect_exact("B> ")
    child.sendline("l")
    child.expect_exact("move A:Billmen C3")
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert child.exit_code() == 0
    assert svc.record(bid).position == 1
    assert shown < 1.0, f"the other side's move appeared after {shown:.2f} s"


def test_q_at_the_confirmation_goes_back_and_plays_nothing(tmp_path: Path) -> None:
    """Played as a user: typing q at "Play it? [Y/n]" to leave played the action shown (anything but n played it).
    Now n or q goes back to the list, another answer is asked again, and only Enter or y plays."""
    starter = ROOT / "examples" / "exillis" / "starter.yaml"
    svc = BattleService(BattleStore(str(tmp_path / "battles.db")))
    bid = svc.new(starter, seed=1)
    child = spawn(tmp_path, bid)
    child.expect_exact("> ")
    child.sendline("1")
    child.expect_exact("Play it? [Y/n] ")
    child.sendline("q")
    child.expect_exact("> ")
    assert svc.record(bid).position == 0
    child.sendline("1")
    child.expect_exact("Play it? [Y/n] ")
    child.sendline("maybe")
    child.expect_exact("Enter or y plays it; n goes back to your actions.")
    child.expect_exact("Play it? [Y/n] ")
    child.sendline("y")
    child.expect_exact("> ")
    assert svc.record(bid).position == 1
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert child.exit_code() == 0
