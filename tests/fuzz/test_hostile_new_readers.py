"""Hostile files for the newest readers: Dragon Noir's ``--sheet`` folder and the lab's ``--house-rule``.

Every file a player hands rulekeeper is read through the one bounded loader (``core.datafiles``) and
refused with a typed error — exit code 2, one message naming the file and the place, no traceback
(docs/limits.md). Each case below is driven through the real entry point (``rulekeeper.cli.app.main``).
Tests marked ``xfail(strict=True)`` expose a real defect of the reader as it is today; each reason says
what goes wrong, so the owner can fix it and remove the mark.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekeeper.cli.app import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_SHEET = ROOT / "src" / "rulekeeper" / "rulesets" / "dragonnoir" / "data"
SHEET_FILES = ("terrain", "combat", "fire", "moves", "characters")

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi", strict=True))
HUGE = "about: " + "x" * (8 * 1024 * 1024) + "\n"
DEEP = "about: " + "[" * 200 + "]" * 200 + "\n"


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``rulekeeper ARGS`` through the real entry point; the exit code and everything printed, on one line."""
    monkeypatch.setattr(sys, "argv", ["rulekeeper", *args])
    code = 0
    try:
        cli_main()
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return code, " ".join((captured.out + captured.err).split())


def refused(code: int, out: str, *parts: str) -> None:
    """A typed refusal: exit 2, no traceback, every expected part (file, place, problem) in the message."""
    assert code == 2, out
    assert "Traceback" not in out, out
    for part in parts:
        assert part in out, (part, out)


# -- Dragon Noir: --sheet DIR (each file found there replaces the shipped one whole) ---------------------


def sheet_with(tmp_path: Path, name: str, change: Callable[[str], str] | str | bytes) -> Path:
    """A sheet folder holding the shipped ``NAME.yaml`` changed by ``change`` (or replaced by a text)."""
    folder = tmp_path / "sheet"
    folder.mkdir(exist_ok=True)
    shipped = (SHIPPED_SHEET / f"{name}.yaml").read_text(encoding="utf-8")
    text = change(shipped) if callable(change) else change
    (folder / f"{name}.yaml").write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return folder


def replace_once(old: str, new: str) -> Callable[[str], str]:
    """The first ``old`` (the first character, Laberne; the foot table) made ``new``."""
    def change(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)
    return change


COMBAT = ("odds", "dragonnoir", "combat", "--attacker", "Laberne", "--defender", "Jon")
FIRE_WOUNDED = ("odds", "dragonnoir", "fire", "--shooter", "Laberne:wounded", "--target", "Jon")

#: (case, sheet file, its change, what the refusal must say besides the file's name)
SHEET_CASES: list[tuple[str, str, Callable[[str], str] | str | bytes, tuple[str, ...]]] = [
    ("malformed_yaml", "combat", "columns: [1-1\nkeys: {", ("YAML syntax error at line",)),
    ("duplicate_key", "combat", lambda t: t + "\ncolumns: [\"1-1\"]\n", ("duplicate key 'columns'",)),
    ("not_a_mapping", "combat", "- a\n- b\n", ("(top level)",)),
    ("empty_file", "terrain", "", ("terrains: Field required",)),
    ("alias_bomb", "combat", BOMB, ("YAML beyond the reader's limits", "once its aliases are expanded")),
    ("huge_file", "combat", HUGE, ("larger than 8,388,608 bytes",)),
    ("deep_nesting", "combat", DEEP, ("YAML beyond the reader's limits", "deeper than 64")),
    ("long_text", "combat", "about: " + "x" * 100_001 + "\n", ("a text longer than 100,000 characters",)),
    ("long_number", "characters", replace_once("healthy: {attack: 5, movement: 7, defence: 5}",
                                               "healthy: {attack: " + "9" * 60 + ", movement: 7, defence: 5}"),
     ("a number longer than 40 digits",)),
    ("control_character", "combat", replace_once('A: {text: "no effect"}', 'A: {text: "no \\e[2J effect"}'),
     ("control character U+001B",)),
    ("not_utf8", "combat", b"columns: [\"1\xe9\"]\n", ("UTF-8",)),
    ("wrong_type_stat", "characters", replace_once("healthy: {attack: 5, movement: 7, defence: 5}",
                                                   "healthy: {attack: 5, movement: 7, defence: strong}"),
     ("characters.Laberne.foot.healthy.defence",)),
    ("negative_stat", "characters", replace_once("healthy: {attack: 5, movement: 7, defence: 5}",
                                                 "healthy: {attack: 5, movement: 7, defence: -5}"),
     ("characters.Laberne.foot.healthy.defence", "greater than or equal to 0")),
    ("unknown_key", "terrain", lambda t: t + "\nweather: rain\n", ("weather", "Extra inputs are not permitted")),
    ("letter_not_in_key", "combat", replace_once('3: "CDDEEF"', '3: "CDDEEZ"'),
     ("tables.foot row 3: letter ['Z'] not in the table's key",)),
    ("row_too_short", "combat", replace_once('3: "CDDEEF"', '3: "CDDEE"'), ("tables.foot row 3: 5 letters for 6",)),
    ("rows_not_consecutive", "combat", replace_once('    11: "AAAABB"', '    12: "AAAABB"'),
     ("rows must be consecutive die numbers",)),
    ("wrong_column", "combat", replace_once('columns: ["1-1", "2-1"', 'columns: ["1-1", "3-1"'),
     ("column 2 must be the ratio '2-1'",)),
    ("unknown_harm", "combat", replace_once('F: {text: "defender killed", defender: killed}',
                                            'F: {text: "defender killed", defender: eaten}'),
     ("keys.foot.F.defender",)),
]


@pytest.mark.parametrize(("case", "name", "change", "expected"), SHEET_CASES, ids=[c[0] for c in SHEET_CASES])
def test_a_hostile_sheet_file_is_refused_naming_file_and_place(
        case: str, name: str, change: Callable[[str], str] | str | bytes, expected: tuple[str, ...],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sheet_with(tmp_path, name, change)
    code, out = run(monkeypatch, capsys, *COMBAT, "--sheet", str(folder))
    refused(code, out, f"{name}.yaml", *expected)


def test_the_shipped_sheet_copied_into_a_folder_is_accepted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The cases above change one thing each: the unchanged copy is read as the shipped sheet."""
    folder = tmp_path / "sheet"
    folder.mkdir()
    for name in SHEET_FILES:
        shutil.copy(SHIPPED_SHEET / f"{name}.yaml", folder / f"{name}.yaml")
    code, out = run(monkeypatch, capsys, *COMBAT, "--sheet", str(folder))
    assert code == 0 and "die → result" in out, out


def test_a_sheet_that_is_no_folder_or_holds_a_folder_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "combat.yaml"
    a_file.write_text("columns: []\n", encoding="utf-8")
    code, out = run(monkeypatch, capsys, *COMBAT, "--sheet", str(a_file))
    refused(code, out, "combat.yaml", "not a folder")
    code, out = run(monkeypatch, capsys, *COMBAT, "--sheet", str(tmp_path / "nowhere"))
    refused(code, out, "nowhere", "not a folder")
    folder = tmp_path / "sheet"
    (folder / "combat.yaml").mkdir(parents=True)  # a folder where a sheet file should be
    code, out = run(monkeypatch, capsys, *COMBAT, "--sheet", str(folder))
    refused(code, out, "combat.yaml", "cannot read the file")


def test_a_sheet_whose_fire_health_modifiers_lack_a_state_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sheet_with(tmp_path, "fire", replace_once("modifiers: {healthy: 0, wounded: 2}",
                                                       "modifiers: {healthy: 0}"))
    code, out = run(monkeypatch, capsys, *FIRE_WOUNDED, "--sheet", str(folder))
    refused(code, out, "fire.yaml", "health_modifiers")


def test_a_sheet_with_a_far_away_row_number_is_refused_quickly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = sheet_with(tmp_path, "combat", replace_once('    11: "AAAABB"', '    1000000000000000: "AAAABB"'))
    code, out = run(monkeypatch, capsys, *COMBAT, "--sheet", str(folder))
    refused(code, out, "combat.yaml", "tables.foot", "consecutive")


# -- the lab: --house-rule FILE (options and unit stats for a duel or a sweep) -----------------------------


DUEL = ("lab", "duel", "exillis", "Billmen", "Vileins", "--sims", "10", "--backend", "serial")

#: (case, file name, file text, what the refusal must say besides the file's name)
HOUSE_CASES: list[tuple[str, str, str | bytes, tuple[str, ...]]] = [
    ("malformed_yaml", "rule.yaml", "units: {Billmen: {hp: 5}\n", ("YAML syntax error at line",)),
    ("malformed_toml", "rule.toml", "[units.Billmen\nhp = 5\n", ("TOML syntax error",)),
    ("unsupported_suffix", "rule.json", '{"units": {}}', ("unsupported file type '.json'",)),
    ("duplicate_key", "rule.yaml", "name: a\nname: b\n", ("duplicate key 'name'",)),
    ("not_a_mapping", "rule.yaml", "- a\n- b\n", ("(top)",)),
    ("unknown_key", "rule.yaml", "weather: rain\n", ("weather: Extra inputs are not permitted",)),
    ("units_not_a_mapping", "rule.yaml", "units: [Billmen]\n", ("units: Input should be a valid dictionary",)),
    ("stats_not_a_mapping", "rule.yaml", "units: {Billmen: 5}\n", ("units.Billmen: Input should be a valid dictionary",)),
    ("option_not_text", "rule.yaml", "options: {luck_damage: [x]}\n", ("options.luck_damage",)),
    ("unknown_option", "rule.yaml", "options: {nonsense: x}\n", ("Unknown option of exillis", "'nonsense'")),
    ("alias_bomb", "rule.yaml", BOMB, ("YAML beyond the reader's limits", "once its aliases are expanded")),
    ("huge_file", "rule.yaml", "name: " + "x" * (8 * 1024 * 1024) + "\n", ("larger than 8,388,608 bytes",)),
    ("deep_nesting", "rule.yaml", "name: " + "[" * 200 + "]" * 200 + "\n", ("deeper than 64",)),
    ("huge_toml", "rule.toml", 'name = "' + "x" * (8 * 1024 * 1024) + '"\n', ("larger than 8,388,608 bytes",)),
    ("deep_toml", "rule.toml", "name = " + "[" * 200 + "]" * 200 + "\n", ("rule.toml",)),
    ("long_number", "rule.yaml", "units: {Billmen: {hp: " + "9" * 60 + "}}\n", ("a number longer than 40 digits",)),
    ("control_character", "rule.yaml", 'name: "a\\e[2Jb"\n', ("control character U+001B",)),
    ("not_utf8", "rule.yaml", b"name: \xe9\n", ("UTF-8",)),
]


@pytest.mark.parametrize(("case", "file", "text", "expected"), HOUSE_CASES, ids=[c[0] for c in HOUSE_CASES])
def test_a_hostile_house_rule_is_refused_naming_file_and_place(
        case: str, file: str, text: str | bytes, expected: tuple[str, ...], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / file
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    code, out = run(monkeypatch, capsys, *DUEL, "--house-rule", str(path))
    refused(code, out, file, *expected)


def test_a_missing_house_rule_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(monkeypatch, capsys, *DUEL, "--house-rule", str(tmp_path / "nowhere.yaml"))
    refused(code, out, "nowhere.yaml", "file not found")


#: Stat overrides the duel kernel refuses: typed and exit 2 today, but without the file or the stat.
BAD_STATS: list[tuple[str, str, str]] = [
    ("stat_as_text", "units: {Billmen: {hp: lots}}\n", "expected a number"),
    ("stat_as_bool", "units: {Billmen: {hp: true}}\n", "expected a number"),
    ("negative_stat", "units: {Billmen: {hp: -5}}\n", "greater than or equal to 0"),
    ("fraction_above_one", "units: {Billmen: {ret: 2}}\n", "fraction"),
    ("miniatures_not_whole", "units: {Billmen: {miniatures: 2.5}}\n", "whole number"),
    ("unknown_stat", "units: {Billmen: {power: 5}}\n", "'power'"),
    ("unknown_unit", "units: {Nobody: {hp: 5}}\n", "'Nobody'"),
]


@pytest.mark.parametrize(("case", "text", "problem"), BAD_STATS, ids=[c[0] for c in BAD_STATS])
def test_a_bad_stat_in_a_house_rule_is_a_typed_error(
        case: str, text: str, problem: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rule.yaml"
    path.write_text(text, encoding="utf-8")
    code, out = run(monkeypatch, capsys, *DUEL, "--house-rule", str(path))
    refused(code, out, problem)


def test_a_bad_stat_in_a_house_rule_names_the_file_and_the_stat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rule.yaml"
    path.write_text("units: {Billmen: {hp: -5}}\n", encoding="utf-8")
    code, out = run(monkeypatch, capsys, *DUEL, "--house-rule", str(path))
    refused(code, out, "rule.yaml", "units.Billmen.hp")


def test_a_house_rule_with_absurd_miniatures_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rule.yaml"
    path.write_text("units: {Billmen: {miniatures: 1000000000000000}}\n", encoding="utf-8")
    code, out = run(monkeypatch, capsys, *DUEL, "--house-rule", str(path))
    refused(code, out, "miniatures")
