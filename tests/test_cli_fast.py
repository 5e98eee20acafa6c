"""``battle show`` without the Typer tree (``cli/fast.py``): the forms it takes, and everything it leaves to Typer.

Issue 22, point 6: building the Typer tree cost ``battle show`` more than a numpy import. The plain forms
run straight; each test here also runs the same command line through Typer and compares what was printed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_kit import run
from rulekeeper.cli import fast
from rulekeeper.cli.fast import ShowArgs, parse_show
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService

STARTER = Path(__file__).resolve().parents[1] / "examples" / "exillis" / "starter.yaml"


@pytest.mark.parametrize(("args", "parsed"), [
    (["battle", "show"], ShowArgs(None, None, False)),
    (["battle", "show", "b-12"], ShowArgs("b-12", None, False)),
    (["battle", "show", "--json", "b-12", "--db", "x.db"], ShowArgs("b-12", "x.db", True)),
    (["battle", "show", "--db=postgresql://h/db"], ShowArgs(None, "postgresql://h/db", False)),
    (["battle", "show", "--db="], ShowArgs(None, "", False)),
])
def test_the_plain_forms_are_read_as_click_reads_them(args: list[str], parsed: ShowArgs) -> None:
    assert parse_show(args) == parsed


@pytest.mark.parametrize("args", [
    [], ["battle"], ["battle", "list"], ["odds", "exillis"], ["battle", "show", "--help"], ["battle", "show", "-h"],
    ["battle", "show", "a", "b"], ["battle", "show", "--json", "--json"], ["battle", "show", "--db"],
    ["battle", "show", "--db", "--json"], ["battle", "show", "--db", "a", "--db", "b"], ["battle", "show", "--", "x"],
    ["battle", "show", "--dbx"], ["battle", "show", "-"], ["--help", "battle", "show"],
])
def test_everything_else_is_left_to_typer(args: list[str]) -> None:
    assert parse_show(args) is None
    assert fast.run(args) is False


def test_shell_completion_is_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast.COMPLETE_VAR, "bash_complete")
    assert fast.run(["battle", "show"]) is False


def stored_battle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, actions: int) -> tuple[Path, str]:
    """A store with one starter battle ``actions`` in, and the CLI's memory in the test's folder."""
    db = tmp_path / "b.db"
    monkeypatch.setenv("RULEKEEPER_STATE_DIR", str(tmp_path / "state"))
    with BattleStore(db) as store:
        svc = BattleService(store)
        bid = svc.new(STARTER, seed=4)
        svc.autoplay(bid, max_actions=actions)
    return db, bid


def both_ways(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
              command_lines: list[list[str]]) -> list[int]:
    """Each command line run the fast way and through Typer, asserted to print the same; the exit codes."""
    codes = []
    for args in command_lines:
        fast_way = run(monkeypatch, capsys, *args)
        codes.append(fast_way[0])
        with monkeypatch.context() as m:
            m.setattr(fast, "run", lambda args: False)
            typer_way = run(monkeypatch, capsys, *args)
        assert fast_way == typer_way, args
    return codes


def test_fast_and_typer_print_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db, bid = stored_battle(tmp_path, monkeypatch, 3)
    codes = both_ways(monkeypatch, capsys, [
        ["battle", "show", bid[:7], "--db", str(db)], ["battle", "show", "--json", f"--db={db}", bid],
        ["battle", "show", "b-missing", "--db", str(db)], ["battle", "show", "--db", str(db), "--json", "b-"]])
    assert codes == [0, 0, 2, 0]  # the missing battle: exit 2 both ways, with the same message


@pytest.mark.parametrize(("args", "parsed"), [
    (["battle", "actions"], ShowArgs(None, None, False)),
    (["battle", "actions", "--json", "b-12", "--db", "x.db"], ShowArgs("b-12", "x.db", True)),
])
def test_battle_actions_has_the_same_plain_forms(args: list[str], parsed: ShowArgs) -> None:
    assert parse_show(args, "actions") == parsed
    assert parse_show(args) is None and parse_show(["battle", "actions", "--help"], "actions") is None


def test_battle_actions_fast_and_through_typer_print_the_same_and_act_n_plays_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``battle actions`` is run before every move: it took 0.80 s of CPU through Typer and SQLAlchemy, and 0.27
    here. Both ways print the same, and remember the list under the same store URL, so ``battle act N`` (through
    the store) plays line N of a list the fast way showed, and refuses it once the battle moved."""
    db, bid = stored_battle(tmp_path, monkeypatch, 2)
    codes = both_ways(monkeypatch, capsys, [
        ["battle", "actions", bid[:7], "--db", str(db)], ["battle", "actions", "--json", f"--db={db}", bid],
        ["battle", "actions", "b-missing", "--db", str(db)], ["battle", "actions", "--db", str(db)]])
    assert codes == [0, 0, 2, 0]  # the missing battle: exit 2 both ways; then the current battle, as the first made it
    assert run(monkeypatch, capsys, "battle", "actions", "--db", str(db))[0] == 0  # the fast way, last
    code, out, err = run(monkeypatch, capsys, "battle", "act", "1", "--db", str(db))  # through Typer and the store
    assert code == 0, err
    code, out, err = run(monkeypatch, capsys, "battle", "act", "1", "--db", str(db))
    assert code == 2 and "moved since its actions were listed" in err
