"""``rulekeeper lab duel`` and every bad input: a typed error naming it, exit code 2, no traceback."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from lab_cli import run_cli


def test_lab_is_a_command_group_of_rulekeeper() -> None:
    ran = run_cli("lab", "--help")
    assert ran.code == 0
    for command in ("play", "duel", "sweep", "compare"):
        assert command in ran.out


def test_duel_prints_odds_with_intervals_and_writes_plot_and_csv(tmp_path: Path) -> None:
    plot, table = tmp_path / "duel.png", tmp_path / "duel.csv"
    ran = run_cli("lab", "duel", "toy", "Pikes", "knights", "--levels", "1,10", "--sims", "800", "--backend",
                  "serial", "--plot", str(plot), "--csv", str(table), "--seed", "4")
    assert ran.code == 0, ran.err
    assert "Pikes (level 1) vs Knights (level 10)" in ran.out and "monte carlo (toy kernel)" in ran.out
    assert "95 % Wilson interval" in ran.out and "rounds" in ran.out and "Knights survivors:" in ran.out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    doc = json.loads(run_cli("lab", "duel", "toy", "Pikes", "Knights", "--levels", "1,10", "--sims", "800",
                             "--backend", "serial", "--seed", "4", "--json").out)
    assert doc["method"] == "monte carlo (toy kernel)" and doc["exact"] is False
    assert doc["levels"] == [1, 10] and doc["battles"] == 800
    first, second, draw = (doc["results"][k]["probability"] for k in ("first wins", "second wins", "draw"))
    assert first + second + draw == pytest.approx(1.0)
    assert table.read_text(encoding="utf-8").splitlines()[1] == "battles,,800"
    counts = dict(line.split(",")[1:] for line in table.read_text(encoding="utf-8").splitlines()[2:7])
    assert int(counts["first destroys"]) + int(counts["first routs"]) == round(first * 800)


def refused(*argv: str) -> str:
    ran = run_cli(*argv)
    assert ran.code == 2, (argv, ran.out, ran.err)
    assert "Traceback" not in ran.err
    return ran.err + ran.out


def dead_address() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.parametrize(("argv", "named"), [
    (("lab", "duel", "chess", "Pikes", "Knights"), "Unknown ruleset 'chess'"),
    (("lab", "duel", "toy", "Pikemen", "Knights", "--sims", "10"), "Unknown unit 'Pikemen'. Did you mean 'Pikes'"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--levels", "1,11"), "level 11 is impossible here (levels 1 to 10)"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--levels", "0"), "level 0 is impossible"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--levels", "one"), "--levels 'one'"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--sims", "0"), "--sims must be at least 1, got 0"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--sims", "-5"), "--sims must be at least 1, got -5"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--mode", "joust"), "Unknown duel mode 'joust'"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--backend", "gpu"), "Unknown lab backend 'gpu'"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--plot", "/no/such/folder/x.png"), "'/no/such/folder' does not exist"),
    (("lab", "duel", "wartable", "a", "b"), "wartable has no duel kernel"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--option", "bust"), "NAME=VALUE"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--option", "fog=thick"), "Unknown option of toy"),
    (("lab", "play", "toy", "race", "--sims", "0"), "--sims must be at least 1"),
    (("lab", "play", "toy", "marathon"), "Unknown scenario of toy 'marathon'"),
    (("lab", "play", "toy", "nowhere/race.yaml"), "scenario file 'nowhere/race.yaml' not found"),
    (("lab", "play", "toy", "race", "--seed", "-1"), "--seed must be 0 or more"),
    (("lab", "sweep", "toy", "--out", "/no/such/parent/sweep"), "'/no/such/parent' does not exist"),
    (("lab", "sweep", "toy", "--units", "Pikes,Dragons", "--out", "unused"), "Unknown unit 'Dragons'"),
    (("lab", "sweep", "toy", "--units", "Pikes,pikes", "--out", "unused"), "names a unit twice"),
    (("lab", "sweep", "toy", "--sims", "0", "--out", "unused"), "--sims must be at least 1"),
    (("lab", "compare", "/no/such/base", "/no/such/variant"), "holds no sweep"),
    (("lab", "duel", "toy", "Pikes", "Knights", "--deployment", "last"), "Unknown deployment order 'last'"),
    (("lab", "sweep", "toy", "--deployment", "never", "--out", "unused"), "Unknown deployment order 'never'"),
    # the Ex illis kernel refuses before it fights (numba never compiles for these)
    (("lab", "duel", "exillis", "Bilmen", "Vileins", "--sims", "10"), "Unknown unit 'Bilmen'. Did you mean 'Billmen'"),
    (("lab", "duel", "exillis", "Billmen", "Vileins", "--levels", "1,31"), "Vileins can be fielded at levels 1 to 30"),
    (("lab", "duel", "exillis", "Billmen", "Vileins", "--sims", "0"), "--sims must be at least 1, got 0"),
    (("lab", "duel", "exillis", "Billmen", "Vileins", "--mode", "shoot"), "neither Billmen nor Vileins"),
    (("lab", "duel", "exillis", "Billmen", "Vileins", "--csv", "/no/such/folder/x.csv"),
     "'/no/such/folder' does not exist"),
    (("lab", "sweep", "exillis", "--units", "Billmen,Goblins", "--out", "unused"), "Unknown unit 'Goblins'"),
    (("lab", "sweep", "exillis", "--levels", "31", "--units", "Billmen,Vileins", "--out", "unused"),
     "can be fielded at levels 1 to 30"),
])
def test_bad_input_is_named_with_exit_code_2(argv: tuple[str, ...], named: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert named in refused(*argv)
    assert not (tmp_path / "unused").exists() or not any((tmp_path / "unused").iterdir())


def test_a_bad_house_rule_file_is_named(tmp_path: Path) -> None:
    rule = tmp_path / "rule.yaml"
    rule.write_text("units:\n  Pikes:\n    hit: 0.4\nweather: rain\n", encoding="utf-8")
    assert "rule.yaml: weather: Extra inputs are not permitted" in refused(
        "lab", "duel", "toy", "Pikes", "Knights", "--house-rule", str(rule))
    rule.write_text("units:\n  Pikes:\n    reach: 2\n", encoding="utf-8")
    assert "Unknown stat of Pikes 'reach'" in refused("lab", "duel", "toy", "Pikes", "Knights", "--house-rule",
                                                       str(rule))
    rule.write_text("options:\n  bust: sometimes\n", encoding="utf-8")
    assert "Unknown value of option bust (in" in refused("lab", "duel", "toy", "Pikes", "Knights",
                                                         "--house-rule", str(rule))
    assert "file not found" in refused("lab", "duel", "toy", "Pikes", "Knights", "--house-rule",
                                       str(tmp_path / "missing.yaml"))


def test_a_dead_scheduler_gives_exit_2_in_bounded_time() -> None:
    address = dead_address()
    began = time.monotonic()
    text = refused("lab", "duel", "toy", "Pikes", "Knights", "--sims", "10", "--scheduler", address,
                   "--connect-timeout", "1", "--json")
    assert time.monotonic() - began < 15
    doc = json.loads(text)
    assert doc["error"] == "scheduler_unreachable" and doc["scheduler"] == address


@pytest.mark.parametrize("command", [
    ("lab", "sweep", "toy", "--units", "Pikes,Knights", "--sims", "10", "--out", "swept"),
    ("lab", "play", "toy", "race", "--sims", "2"),
])
def test_a_dead_scheduler_stops_sweep_and_play_with_exit_2(command: tuple[str, ...], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """"a dead scheduler address: a clear error naming it, exit 2" — for every command that takes one."""
    monkeypatch.chdir(tmp_path)
    address = dead_address()
    text = refused(*command, "--scheduler", address, "--connect-timeout", "1")
    assert address in text
    assert not (tmp_path / "swept" / "cells").exists() or not any((tmp_path / "swept" / "cells").iterdir())


def test_an_interrupted_cli_sweep_keeps_its_finished_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"an interrupted sweep keeps every finished cell": Ctrl-C after two cells, exit 130, both kept; the rerun resumes."""
    from rulekeeper.lab import sweep as sweeps

    real = sweeps.run_sweep
    out = tmp_path / "swept"
    argv = ("lab", "sweep", "toy", "--units", "Pikes,Knights", "--sims", "50", "--backend", "serial", "--out", str(out))

    def interrupted(*args: object, **kw: object) -> object:
        seen: list[object] = []

        def after(cell: object) -> None:
            seen.append(cell)
            if len(seen) == 2:
                raise KeyboardInterrupt

        return real(*args, **{**kw, "on_cell": after})  # type: ignore[arg-type]

    monkeypatch.setattr(sweeps, "run_sweep", interrupted)
    ran = run_cli(*argv)
    assert ran.code == 130 and "interrupted: 2 finished cells kept" in ran.out + ran.err
    assert len(list((out / "cells").glob("*.json"))) == 2
    monkeypatch.setattr(sweeps, "run_sweep", real)
    again = run_cli(*argv, "--json")
    assert again.code == 0, again.err
    assert len(list((out / "cells").glob("*.json"))) == 4


def test_dask_without_the_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    assert "pip install 'rulekeeper[cluster]'" in refused("lab", "duel", "toy", "Pikes", "Knights", "--sims", "10",
                                                           "--backend", "dask")
