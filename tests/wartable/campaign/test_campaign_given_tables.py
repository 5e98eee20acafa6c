"""The game master's own tables: ``battle new CAMPAIGN --data TABLE``.

Issue 13: "Delve tables, quests, bounties, prayers and world events as data: a table file with
weighted or dice-ranged entries and their effects (Health, Stability, Faith, items), a shipped
example marked as an example, and the game master's own tables loaded with ``--data``." The seed:
"The results of these expeditions are determined randomly on a table such as the example provided
below:" (the table itself is lost). A given table is stored in the campaign's initial document, so
replay never reads the file again; every hostile file is a typed error naming the file and the
place, exit code 2, and no battle is created.
"""

from __future__ import annotations

import json
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulekeeper.core.yamlfiles as yamlfiles
from rulekeeper.cli.app import app
from rulekeeper.cli.app import main as cli_main
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import DataFileError
from rulekeeper.core.game import SetupRequest
from rulekeeper.rulesets.wartable.campaign import load_table, roll_on
from rulekeeper.rulesets.wartable.campaign.checkpoint import state_from_json
from rulekeeper.rulesets.wartable.campaign.game import WarTableCampaign

ROOT = Path(__file__).resolve().parents[3]
SHROUDFALL = ROOT / "examples" / "wartable" / "shroudfall.yaml"
BARROW = ROOT / "examples" / "wartable" / "barrow_delve.yaml"
BATTLE = ROOT / "examples" / "wartable" / "oathsworn_vs_bloodless.yaml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def ids(db: str) -> set[str]:
    code, out = run("battle", "list", "--db", db, "--json")
    assert code == 0, out
    return {str(r["id"]) for r in json.loads(out)}


def main_exit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``rulekeeper ARGS`` through the real entry point: a typed error is exit code 2, no traceback."""
    monkeypatch.setattr(sys, "argv", ["rulekeeper", *args])
    with pytest.raises(SystemExit) as done:
        cli_main()
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out + captured.err


def test_the_example_gm_table_is_marked_as_an_example() -> None:
    t = load_table(BARROW)
    assert t.example and t.estimate is not None and t.sides is None
    assert t.odds() == (("Cave-in", Fraction(1, 5)), ("Barrow-wight", Fraction(1, 4)),
                        ("Grave goods", Fraction(3, 10)), ("Blessed ossuary", Fraction(1, 4)))


def test_a_campaign_started_with_the_gms_own_table_rolls_on_it(tmp_path: Path) -> None:
    """Seeded: the Delve of round 1 draws on the given table, with its odds, exactly as ``roll_on`` would."""
    own = tmp_path / "my_barrow.yaml"
    shutil.copy(BARROW, own)
    db = str(tmp_path / "c.db")
    code, out = run("battle", "new", str(SHROUDFALL), "--data", str(own), "--seed", "3", "--db", db)
    assert code == 0, out
    (bid,) = ids(db)
    own.unlink()  # the table is in the stored campaign: the file is never read again
    run("battle", "act", bid, "oathsworn", "Hearthmere Guard: reclaim", "--db", db)
    code, out = run("battle", "act", bid, "bloodless", "Barrow Horde: delve", "--json", "--db", db)
    assert code == 0, out
    record = json.loads(out)
    (draw,) = [c for c in record["chance"] if c["label"] == "Delve The Barrow: Barrow Horde"]
    table = load_table(BARROW)
    assert [o for o, _ in draw["odds"]] == [e.result for e in table.entries]
    assert draw["weights"] == [4, 5, 6, 5] and draw["probability"] == pytest.approx(0.2)
    # the same draw from the same seed, on the table itself
    g = WarTableCampaign()
    state = g.initial_state(g.setup(SetupRequest(scenario=SHROUDFALL, seed=3, data=(BARROW,))).document)
    expected = roll_on(table, Fate.from_state(state.rng), "Delve The Barrow: Barrow Horde")
    assert draw["outcome"] == expected.entry.result == "Cave-in"
    code, out = run("battle", "replay", bid, "--db", db)
    assert code == 0 and "identical" in out, out


def test_the_given_table_is_stored_in_the_initial_document() -> None:
    g = WarTableCampaign()
    doc = g.setup(SetupRequest(scenario=SHROUDFALL, seed=1, data=(BARROW,))).document
    stored = doc["tables"]["delve_example"]  # the Dungeon's own reference now names the GM's table
    assert stored["name"] == "Barrow delve" and stored["source"] == str(BARROW)
    assert [e["result"] for e in stored["entries"]] == ["Cave-in", "Barrow-wight", "Grave goods", "Blessed ossuary"]
    assert state_from_json(doc).table_map()["delve_example"] == load_table(BARROW)
    # without --data the shipped example stays
    plain = g.setup(SetupRequest(scenario=SHROUDFALL, seed=1)).document
    assert plain["tables"]["delve_example"]["name"] == "Delve (example)"


def test_a_dungeon_may_name_the_given_table_itself(tmp_path: Path) -> None:
    """A Dungeon whose ``table:`` names no shipped table is answered by the ``--data`` table of that name."""
    text = SHROUDFALL.read_text(encoding="utf-8").replace("table: delve_example", "table: Barrow delve")
    camp = tmp_path / "camp.yaml"
    camp.write_text(text, encoding="utf-8")
    g = WarTableCampaign()
    with pytest.raises(DataFileError, match=r"dungeons\[0\]\.table: Unknown shipped table 'Barrow delve'"):
        g.setup(SetupRequest(scenario=camp))
    doc = g.setup(SetupRequest(scenario=camp, data=(BARROW,))).document
    assert doc["tables"]["Barrow delve"]["name"] == "Barrow delve"


def test_the_bounded_loader_reads_every_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one bounded loader (``core.datafiles``: size, depth, expanded size, numbers) scans the file."""
    scanned: list[str] = []
    real = yamlfiles._scan_yaml

    def spy(text: str) -> None:
        scanned.append(text)
        real(text)

    monkeypatch.setattr(yamlfiles, "_scan_yaml", spy)
    WarTableCampaign().setup(SetupRequest(scenario=SHROUDFALL, data=(BARROW,)))
    assert BARROW.read_text(encoding="utf-8") in scanned


ENTRY = "  - {roll: '%s', result: %s}\n"
HEAD = "table: Delve\nreplaces: [delve_example]\n"


def _ranged(*spans: str) -> str:
    return HEAD + "dice: d100\nentries:\n" + "".join(ENTRY % (s, f"R{i}") for i, s in enumerate(spans))


def _weighted(*weights: str) -> str:
    return HEAD + "entries:\n" + "".join(f"  - {{weight: {w}, result: W{i}}}\n" for i, w in enumerate(weights))


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))

#: (case, file text, what the error must say: the place and the problem)
HOSTILE: list[tuple[str, str | bytes, tuple[str, ...]]] = [
    ("malformed_yaml", "table: [Delve\nentries: {", ("YAML syntax error at line",)),
    ("duplicate_key", HEAD + "table: Again\nentries: []\n", ("duplicate key 'table'", "line 3")),
    ("not_a_mapping", "- a\n- b\n", ("(top level): expected a mapping",)),
    ("empty_file", "", ("table: Field required",)),
    ("entries_not_a_list", HEAD + "entries: {a: 1}\n", ("entries: Input should be a valid list",)),
    ("wrong_type_weight", _weighted("5", "heavy"), ("entries[1].weight", "valid number")),
    ("wrong_type_result", HEAD + "entries:\n  - {weight: 1, result: [a]}\n", ("entries[0].result",)),
    ("wrong_type_items", HEAD + "entries:\n  - {weight: 1, result: A, effects: {items: Relic}}\n",
     ("entries[0].effects.items",)),
    ("negative_weight", _weighted("5", "-2"), ("entries[1].weight", "greater than 0")),
    ("zero_weight", _weighted("0", "3"), ("entries[0].weight", "greater than 0")),
    ("infinite_weight", _weighted("1", ".inf"), ("entries[1].weight", "finite")),
    ("weight_beyond_float", _weighted("1.0e+308", "1.0e+308"), ("entries[0].weight", "less than or equal to 1000000000")),
    ("roll_and_weight", HEAD + "dice: d6\nentries:\n  - {roll: '1-6', weight: 2, result: A}\n",
     ("entries[0]", "not both or neither")),
    ("range_without_dice", HEAD + "entries:\n  - {roll: '1-6', result: A}\n",
     ("entries[0].roll: a die range needs the table's dice",)),
    ("overlapping_ranges", _ranged("01-40", "30-70", "71-00"), ("entries[1].roll", "overlaps entries[0] 'R0' (1-40) on 30-40")),
    ("gapped_ranges", _ranged("01-20", "26-00"), ("entries[1].roll: no entry covers 21-25",)),
    ("gap_at_the_end", _ranged("01-20", "21-90"), ("entries: no entry covers 91-100",)),
    ("range_off_the_die", _ranged("01-50", "51-120"), ("entries[1].roll: expected a range such as '01-20' within 1-100",)),
    ("bad_dice", HEAD + "dice: 2d6\nentries:\n  - {roll: '2-12', result: A}\n", ("dice: expected a die such as 'd100'",)),
    ("repeated_result", HEAD + "entries:\n  - {weight: 1, result: A}\n  - {weight: 1, result: A}\n",
     ("entries[1].result: 'A' repeats entries[0]",)),
    ("unknown_effect", HEAD + "entries:\n  - {weight: 1, result: A, effects: {gold: 5}}\n",
     ("entries[0].effects.gold", "Extra inputs are not permitted")),
    ("unknown_key", HEAD + "odds: even\nentries:\n  - {weight: 1, result: A}\n", ("odds: Extra inputs are not permitted",)),
    ("huge_effect", HEAD + "entries:\n  - {weight: 1, result: A, effects: {stability: 1.0e+300}}\n",
     ("entries[0].effects.stability", "less than or equal to 1000000")),
    ("too_many_entries", _weighted(*["1"] * 1001), ("entries: List should have at most 1000 items",)),
    ("huge_file", "table: Delve\nabout: " + "x" * (8 * 1024 * 1024) + "\n", ("larger than 8,388,608 bytes",)),
    ("long_text", HEAD + "about: " + "x" * 100_001 + "\nentries: []\n", ("a text longer than 100,000 characters",)),
    ("alias_bomb", BOMB, ("YAML beyond the reader's limits", "once its aliases are expanded")),
    ("deep_nesting", "table: " + "[" * 200 + "]" * 200 + "\n", ("YAML beyond the reader's limits", "deeper than 64")),
    ("long_number", HEAD + "entries:\n  - {weight: " + "9" * 60 + ", result: A}\n", ("a number longer than 40 digits",)),
    ("control_character", HEAD + "entries:\n  - {weight: 1, result: \"A\\e[2J\"}\n", ("control character U+001B",)),
    ("not_utf8", b"table: D\xe9lve\n", ("UTF-8",)),
    ("unit_data_not_a_table", "units:\n  - {name: X, health: 1, attack: 1, defense: 1}\n",
     ("(top level): this is War Table unit data",)),
    ("rolled_by_no_dungeon", "table: World events\nentries:\n  - {weight: 1, result: Eclipse}\n",
     ("table: no Dungeon of 'Shroudfall' rolls on 'World events'", "replaces:")),
]


@pytest.mark.parametrize(("case", "text", "expected"), HOSTILE, ids=[c for c, _, _ in HOSTILE])
def test_a_hostile_table_file_is_refused_naming_file_and_place(
        case: str, text: str | bytes, expected: tuple[str, ...], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    db = str(tmp_path / "c.db")
    code, out = main_exit(monkeypatch, capsys, "battle", "new", str(SHROUDFALL), "--data", str(path), "--db", db)
    flat = " ".join(out.split())
    assert code == 2, out
    assert "Traceback" not in out and path.name in flat, out
    for part in expected:
        assert part in flat, (part, out)
    assert ids(db) == set()


def test_two_tables_for_one_dungeon_and_a_missing_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    second = tmp_path / "second.yaml"
    second.write_text(_weighted("1", "2"), encoding="utf-8")
    code, out = main_exit(monkeypatch, capsys, "battle", "new", str(SHROUDFALL), "--data", str(BARROW),
                          "--data", str(second), "--db", db)
    flat = " ".join(out.split())
    assert code == 2 and "second.yaml: table: 'Delve' answers to the Dungeon table 'delve_example'" in flat, out
    code, out = main_exit(monkeypatch, capsys, "battle", "new", str(SHROUDFALL), "--data",
                          str(tmp_path / "nowhere.yaml"), "--db", db)
    assert code == 2 and "nowhere.yaml: file not found" in " ".join(out.split()), out
    assert ids(db) == set()


def test_a_game_that_reads_no_data_files_refuses_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--data`` is never dropped silently: the one-engagement War Table game reads none at set-up."""
    db = str(tmp_path / "c.db")
    code, out = main_exit(monkeypatch, capsys, "battle", "new", str(BATTLE), "--ruleset", "wartable",
                          "--data", str(BARROW), "--db", db)
    assert code == 2 and "reads no --data files" in " ".join(out.split()), out
    assert ids(db) == set()
