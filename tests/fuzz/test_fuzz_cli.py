"""Issue "Nothing hostile gets through": every command that reads a file or an ID, fed the hostile corpus
and hypothesis junk, under a memory limit; 0 tracebacks, every refusal exit code 2, bounded output.

The driver runs in a child process (``driver.py cli``) under ``RLIMIT_AS``; its counts are printed at the
end of the pytest run (``tests/conftest.py``) and kept in ``test-artifacts/fuzz-summary-cli.txt``.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from cli_cases import CLI_TABLE, EXCLUDED, leaf_commands, uncovered
from fuzzlib import CORE_HOSTILE, CORPUS, KNOWN_BUGS, MEMORY_LIMIT
from runner import explain, run_driver

ROOT = Path(__file__).resolve().parents[2]
#: Half of each parameter's hypothesis examples (the table's figures): the whole corpus still goes to every
#: parameter, and hypothesis draws about 200 files and texts instead of 400, for the suite's 15 minutes.
HYPOTHESIS_SCALE = 0.5


def test_every_command_that_reads_a_file_or_an_id_is_in_the_fuzz_table() -> None:
    """A new command (or a new path/ID parameter) must be added to ``cli_cases.CLI_TABLE``."""
    assert uncovered() == []
    paths = {p for p, _ in leaf_commands()}
    assert set(CLI_TABLE) <= paths, set(CLI_TABLE) - paths  # no stale entries either
    assert set(EXCLUDED) <= paths


def test_the_cli_fuzz_suite_finds_no_traceback_and_only_exit_0_or_2(tmp_path: Path) -> None:
    summary = run_driver("cli", tmp_path, scale=HYPOTHESIS_SCALE)
    assert summary["failure_count"] == 0, explain(summary)
    assert set(summary["cases"]) == set(CLI_TABLE)  # every command of the table was run
    assert summary["total"] >= 1500 and summary["corpus_files"] >= 70 and summary["export_files"] >= 100
    assert summary["slowest"]["seconds"] < 5.0
    assert summary["peak_rss_mb"] * 1024 * 1024 < MEMORY_LIMIT
    refusals = sum(o.get("exit 2", 0) for o in summary["outcomes"].values())
    assert refusals >= 1000, summary["outcomes"]
    assert {k["bug"] for k in summary["known"]} <= {b.key for b in KNOWN_BUGS}


def test_the_corpus_is_kept_as_small_files() -> None:
    files = sorted(CORPUS.iterdir()) + sorted(CORE_HOSTILE.iterdir())
    assert len(files) >= 50
    assert all(f.stat().st_size < 10_000 for f in files)  # the big ones are made at test time


# -- the bugs the fuzz suite found in the CLI and the core, fixed -------------------------------------------


def run_main(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``rulekeeper ARGV`` through ``main()``, with a strict UTF-8 stdout as a terminal has."""
    from rulekeeper.cli.app import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "argv", ["rulekeeper", *argv])
    with pytest.raises(SystemExit) as done:
        main()
    return int(done.value.code or 0), out.buffer.getvalue().decode(), err.buffer.getvalue().decode()


def test_a_name_that_looks_like_rich_markup_is_printed_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: ``rulekeeper odds exillis melee "[/]" Billmen`` → MarkupError traceback (cli/output.py)."""
    code, _, err = run_main(["odds", "exillis", "melee", "[/]", "Billmen"], monkeypatch)
    assert code == 2 and "'[/]'" in err and "unknown_name" in err


def test_a_file_name_that_is_not_utf8_is_printed_escaped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Was: ``rulekeeper battle export ID $'x\\xff.json'`` wrote the file, then a UnicodeEncodeError traceback
    printing its name (a non-UTF-8 argv byte is a lone surrogate); likewise every --json answer echoing one."""
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.service.battles import BattleService

    db = tmp_path / "b.db"
    svc = BattleService(BattleStore(str(db)))
    bid = svc.new(ROOT / "src" / "rulekeeper" / "rulesets" / "exillis" / "data" / "scenarios" / "duel.yaml", seed=1)
    code, out, _ = run_main(["battle", "export", bid, str(tmp_path / "x\udcff.json"), "--db", str(db)], monkeypatch)
    assert code == 0 and "x\\udcff.json" in out
    code, out, _ = run_main(["battle", "autoplay", bid, "--side", "\udcff", "--db", str(db), "--json"], monkeypatch)
    assert code == 2 and json.loads(out)["name"] == "\udcff"  # valid JSON: the escape is a JSON escape


def test_a_100000_character_name_gets_a_short_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: the name echoed whole, twice with --json (200 kB of refusal)."""
    code, out, _ = run_main(["odds", "exillis", "melee", "Billmen", "x" * 100_000, "--json"], monkeypatch)
    assert code == 2 and len(out) < 5_000 and json.loads(out)["error"] == "unknown_name"


def test_every_error_is_bounded() -> None:
    from rulekeeper.core.errors import MAX_DETAIL, RulekeeperError, UnknownNameError

    err = RulekeeperError("m" * 1_000_000, where="w" * 1_000_000, n=5)
    assert len(err.message) < 3_000 and len(err.details["where"]) <= MAX_DETAIL + 1 and err.details["n"] == 5
    named = UnknownNameError("unit", "Bilmen", ["Billmen", "Vileins"])
    assert named.suggestions[0] == "Billmen" and named.details["name"] == "Bilmen"
    long = UnknownNameError("unit", "B" * 100_000, ["Billmen"])
    assert len(long.message) < 200 and len(long.details["name"]) <= MAX_DETAIL + 1


def test_an_unhashable_yaml_key_is_a_yaml_error_for_every_reader() -> None:
    """Was: a TypeError escaping ``load_yaml`` (the War Table's reader let it through as a traceback)."""
    import yaml

    from rulekeeper.core.yamlfiles import load_yaml

    with pytest.raises(yaml.YAMLError, match="cannot be a key"):
        load_yaml((CORE_HOSTILE / "unhashable_key.yaml").read_text())


# -- bugs the suite found, now fixed: their reproductions stay -------------------------------------------


def test_a_battle_id_with_a_lone_surrogate_is_not_found(tmp_path: Path) -> None:
    from rulekeeper.persistence.campaign import CampaignStore
    from rulekeeper.persistence.store import BattleNotFoundError, BattleStore

    db = str(tmp_path / "b.db")
    with pytest.raises(BattleNotFoundError):
        BattleStore(db).get("b\udcff")  # `rulekeeper battle show $'b\xff'`
    assert CampaignStore(db).units("\udcff") == []  # `rulekeeper campaign show --muster $'\xff'`


def test_a_nul_in_the_database_path_is_a_store_error() -> None:
    from rulekeeper.persistence.store import BattleStore, StoreError

    with pytest.raises(StoreError):
        BattleStore("%00").list()  # `rulekeeper battle list --db %00`


@pytest.mark.parametrize("content", ["a = " + "[" * 3000 + "]" * 3000, "a = " + "9" * 5000,
                                     "a = " + "[" * 100 + "]" * 100, "#" * (9 * 1024 * 1024)],
                         ids=["deep", "huge-int", "beyond-depth-limit", "beyond-size-limit"])
def test_the_war_table_reader_keeps_the_core_limits(tmp_path: Path, content: str) -> None:
    """``rulekeeper resolve wartable --battle F.toml`` (or ``--data``): deep and huge-int were tracebacks;
    past the depth or size limit the file was read regardless (250k entries: 13 s and 1.7 GB; /dev/zero: no end)."""
    from rulekeeper.core.errors import DataFileError
    from rulekeeper.rulesets.wartable.data import read_mapping

    path = tmp_path / "units.toml"
    path.write_text(content)
    with pytest.raises(DataFileError):
        read_mapping(path)


# -- found when the lab, the War Table campaign, Confrontation and Dragon Noir joined the table: fixed ----------

TOO_LONG = "n" * 300  # a file name longer than the file system allows (ENAMETOOLONG)
LAB = ["exillis", "Billmen", "Vileins", "--sims", "2", "--backend", "serial"]


@pytest.mark.parametrize("argv", [
    ["odds", "dragonnoir", "combat", "--attacker", "Laberne", "--defender", "Jon", "--sheet", "{long}"],
    ["lab", "play", "exillis", "{long}.toml", "--sims", "2", "--backend", "serial"],
    ["lab", "sweep", "exillis", "--units", "Billmen,Vileins", "--sims", "2", "--backend", "serial", "--out", "{long}"],
    ["lab", "compare", "{long}", "{tmp}"],
    ["lab", "duel", *LAB, "--csv", "{tmp}"],
    ["lab", "duel", *LAB, "--csv", "/dev/full"],
    ["lab", "duel", *LAB, "--plot", "{tmp}/histogram.json"],
], ids=["sheet-too-long", "play-too-long", "sweep-out-too-long", "compare-too-long", "csv-a-folder", "csv-disk-full",
        "plot-unknown-format"])
def test_a_path_the_os_refuses_is_a_typed_refusal(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """Were tracebacks: OSError (name too long) from ``Path.is_dir/exists/is_file`` in dragonnoir/data.py,
    lab/play.py, lab/sweep.py, lab/compare.py; OSError from ``--csv``'s write (cli/lab_cmds.py); matplotlib's
    ValueError for a ``--plot`` suffix it cannot write (lab/plots.py)."""
    args = [a.format(long=str(tmp_path / TOO_LONG), tmp=tmp_path) for a in argv]
    code, out, err = run_main(args, monkeypatch)
    assert code == 2 and "Traceback" not in out + err and err.strip().startswith("error"), (out, err)


def test_a_large_file_that_is_no_sweep_matrix_is_refused_before_its_rows_are_read(tmp_path: Path) -> None:
    """Was: ``lab compare`` read any ``matrix.csv`` whole into dicts (8 MiB of ``a: 1`` lines: 300 MB, MemoryError
    under the fuzz limit); now through the bounded reader, the header checked first."""
    from rulekeeper.core.errors import RulekeeperError
    from rulekeeper.lab.compare import read_matrix

    (tmp_path / "matrix.csv").write_text("a: 1\n" * 1_600_000)
    with pytest.raises(RulekeeperError, match="not a sweep matrix"):
        read_matrix(tmp_path)
    (tmp_path / "matrix.csv").write_text("a: 1\n" * 1_800_000)  # past the core's 8 MiB
    with pytest.raises(RulekeeperError, match="larger than"):
        read_matrix(tmp_path)
