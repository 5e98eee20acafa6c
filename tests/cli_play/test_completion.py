"""Issue 30: Tab completion of battle ids and of actions (units, hexes, zones) in bash, through Typer's own script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"
#: The completion script ``rulekeeper --show-completion bash`` printed, by test folder.
SCRIPTS: dict[str, str] = {}


def bash_complete(tmp: Path, line: str) -> list[str]:
    """What bash offers on Tab after ``line``, with the script ``rulekeeper --show-completion bash`` prints."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    wrapper = bin_dir / "rulekeeper"  # this checkout's rulekeeper, as the installed script would run it
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rulekeeper "$@"\n')
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT / "src"),
           "RULEKEEPER_DB": str(tmp / "battles.db"), "RULEKEEPER_STATE_DIR": str(tmp / "state"),
           # the shell named, not looked for among the parent processes: a run with no shell above it (started in
           # the background, then orphaned) was told "Shell  not supported."
           "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    if str(tmp) not in SCRIPTS:  # the same script every time: asked once a test (a process of about 1 s)
        SCRIPTS[str(tmp)] = subprocess.run(["rulekeeper", "--show-completion", "bash"], env=env, capture_output=True,
                                           text=True, check=True, timeout=120).stdout
    script = SCRIPTS[str(tmp)]
    assert "complete -o default -F _rulekeeper_completion rulekeeper" in script
    probe = (f"{script}\nCOMP_WORDS=({line}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n"
             "[[ \"$LINE\" == *' ' ]] && { COMP_WORDS+=(''); COMP_CWORD=$((COMP_CWORD + 1)); }\n"
             "_rulekeeper_completion rulekeeper\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], env={**env, "LINE": line}, capture_output=True,
                          text=True, check=True, timeout=120)
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completes_commands_battle_ids_and_the_words_of_actions(tmp_path: Path) -> None:
    svc = BattleService(BattleStore(str(tmp_path / "battles.db")))
    first, second = svc.new(STARTER, seed=1), svc.new(STARTER, seed=2)
    assert bash_complete(tmp_path, "rulekeeper pl") == ["play"]
    assert set(bash_complete(tmp_path, "rulekeeper battle show b-")) == {first, second}
    assert bash_complete(tmp_path, f"rulekeeper battle show {first[:-3]}") == [first]
    # battle act ID: the next word of the battle's legal actions, as the game lists them
    assert bash_complete(tmp_path, f"rulekeeper battle act {first} ") == ["move", "stance", "wait"]
    hexes = bash_complete(tmp_path, f"rulekeeper battle act {first} move A:Billmen ")
    assert hexes == ["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"]
    assert bash_complete(tmp_path, f"rulekeeper battle act {first} move A:Billmen C") == ["C1", "C2", "C3"]
    assert bash_complete(tmp_path, f"rulekeeper play {first} --side ") == ["A", "B"]
