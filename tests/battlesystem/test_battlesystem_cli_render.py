"""``rulekeeper battle show|act`` draw a Battle System battle as a hex map in the terminal (render.py).

In-process through ``rulekeeper.cli.app.main()`` with a monkeypatched ``sys.argv``; the presenter's
pieces (board, units, Fate Screen, turn bar, end screen) are also checked on hand-made states.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs_kit import G, act, battle, set_unit
from rich.console import Console

from cli_kit import run, run_captured
from rulekeeper.rulesets.battlesystem.render import CELL, BattleSystemCliPresenter, fate_line

RIVER = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/battlesystem/data/scenarios/river_crossing.yaml"


def column_of(col: int, row: int) -> int:
    """Where hex (col, row) starts on its lines: 3 characters of row number, odd rows half a hex east."""
    return 3 + (CELL // 2 if row % 2 else 0) + col * CELL


def hex_lines(text: str, row: int) -> list[str]:
    """The three lines of map row ``row`` (0-based) in a printed board."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^\s*{row + 1} ", line) and "A" in line[:12])
    return lines[start:start + 3]


def new_battle(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> str:
    code, out, err = run(monkeypatch, capsys, "battle", "new", str(RIVER), "--seed", "7", "--db", db, "--json", *extra)
    assert code == 0, err
    return str(json.loads(out)["id"])


def test_battle_show_draws_the_hex_map_and_the_units(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "b.db")
    bid = new_battle(monkeypatch, capsys, db)
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", db)
    assert code == 0
    assert '"map"' not in out and "[[" not in out  # no longer the generic JSON view
    assert "River crossing — turn 1 of 30" in out and "Turn 1 of 30: Riverguard to act" in out
    row3 = hex_lines(out, 2)  # row 3: Captain of the Ford (a5, general) on A3, Hill Guns (b2) on the +2 hilltop G3
    assert row3[0][column_of(0, 2):].startswith("A3 .") and row3[0][column_of(6, 2):].startswith("G3 .+2")
    assert row3[1][column_of(0, 2):].startswith("a5 Gn♛") and row3[2][column_of(0, 2):].startswith(" 20/100")
    assert row3[1][column_of(6, 2):].startswith("b2 At")
    row6 = hex_lines(out, 5)  # odd row: half a hex east; B6 and C6 dense forest, D6 shallow river
    assert row6[0][column_of(1, 5):].startswith("B6 F") and row6[0][column_of(3, 5):].startswith("D6 ~")
    for name in ("Captain of the Ford", "Raider Chief", "Hill Guns"):
        assert name in out
    assert "General ♛" in out and "a5 Captain of the Ford" in out and "rallies ≤3" in out


def test_battle_act_prints_the_fate_screen_and_the_moved_counter(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    db = str(tmp_path / "b.db")
    bid = new_battle(monkeypatch, capsys, db)
    code, out, _ = run(monkeypatch, capsys, "battle", "act", bid, "move", "Riverguard Foot", "C2", "--db", db)
    assert code == 0 and "Fate Screen" in out and "Riverguard Foot move B2 → C2 (1 point, 3 left)" in out
    row2 = hex_lines(out, 1)
    assert row2[1][column_of(2, 1):].startswith("a1 LI") and not row2[1][column_of(1, 1):].startswith("a1")
    code, _, err = run(monkeypatch, capsys, "battle", "act", bid, "rally", "Captain of the Ford", "Ford Pikes",
                       "--db", db)
    assert code == 2 and "not legal now" in err  # nobody flees yet: a typed refusal, no traceback


def test_an_autoplayed_battle_ends_on_the_end_screen(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "b.db")
    bid = new_battle(monkeypatch, capsys, db, "--autoplay")
    code, out, _ = run(monkeypatch, capsys, "battle", "show", bid, "--db", db)
    gold = json.loads((Path(__file__).resolve().parents[1] / "golden/battlesystem_river_crossing_seed7.json")
                      .read_text(encoding="utf-8"))
    winner = gold["final"]["names"]["AB".index(gold["final"]["winner"])]
    assert code == 0 and "The battle is over" in out and f"{winner} win" in out
    assert "Soldiers able to fight" in out and "escaped" in out


def render(thing: object) -> str:
    console = Console(width=120, color_system=None)
    with console.capture() as cap:
        console.print(thing)
    return cap.get()


def test_fleeing_units_barrage_targets_and_pursuit_show_on_the_board() -> None:
    s = battle([("A", "Artillery", "Guns", "A1"), ("A", "Light Infantry", "Foot", "D1"),
                ("B", "Light Cavalry", "Horse", "E1"), ("B", "Pikemen", "Pikes", "H1")], seed=3)
    s = act(s, kind="barrage", unit="Guns", hex="G1").state
    s = act(set_unit(s, "Horse", morale=1), kind="attack", unit="Foot", target="Horse").state
    p = BattleSystemCliPresenter()
    board = render(p.board(s))
    row = hex_lines(board, 0)
    assert row[0][column_of(6, 0):].startswith("G1 .  ✸")  # a barrage will land here
    assert row[2][column_of(4, 0):].split()[1] == "RUN"  # Horse broke: fleeing
    units = render(p.units(s))
    assert "may pursue Horse" in units and "barrage → G1" in units and "fleeing" in units
    bar = render(p.turn_bar(s))
    assert "barrages: Guns → G1" in bar and "Reds to act" in bar


def test_the_fate_screen_styles_each_kind_of_line() -> None:
    s = battle([("A", "General", "Chief", "A1"), ("A", "Light Infantry", "Foot", "C1"),
                ("B", "Heavy Infantry", "Shields", "H1")], seed=4)
    out = act(set_unit(s, "Foot", morale=0), kind="rally", unit="Chief", target="Foot")
    screen = render(BattleSystemCliPresenter().outcome(list(out.report)))
    assert f"Chief rally Foot: 3d10 morale restored (estimated: data/command.yaml) rolls {out.chance[0].outcome}" \
        in screen and "Foot stop fleeing" in screen
    line = fate_line(out.report[0])
    total = str(out.chance[0].outcome)
    assert line.plain.endswith(f"rolls {total}")
    assert any(span.style == "bold reverse" and line.plain[span.start:span.end] == total for span in line.spans)
    assert str(fate_line(out.report[1]).style) == "bold green"  # the rally line
    assert G.cli_presenter().result(s).plain == ""  # not over: no end screen


def test_the_action_list_gives_a_figure_after_a_colon(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Played as a user: the Odds column read "movement points left after this move 3" (the figure run into
    the words); a chance still follows its outcome ("hit 70.0 %")."""
    db = str(tmp_path / "b.db")
    bid = new_battle(monkeypatch, capsys, db)
    done = run_captured("battle", "actions", bid, "--db", db, width=250)  # one table row a line, whatever the terminal
    code, out = done.returncode, done.stdout
    assert code == 0
    row = next(line for line in out.splitlines() if "Riverguard Foot move to C2" in line)
    assert "costs 1 of 4 points" in row  # a move's cost, said once (a move has no odds)
    assert re.search(r"end their turn +│ +│ barrages to fire: 0 ", out)  # a figure that is not a chance
    assert not re.search(r"after this move \d", out)
