"""``rulekeeper --help`` without the Typer tree (``cli/fast_help.py``) prints Typer's own help, byte for byte.

Issue 22, point 6: ``--help`` at 2.6 times a numpy import (goal 2 times), most of it Typer and its Rich
help renderer. The fast path draws the same panels from a small table; these tests compare both ways at
several widths, with and without colour, and the table with the Typer tree, so that neither can drift.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_kit import run
from rulekeeper.cli import fast, fast_help, manifest


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder whose manifest lists the games' commands, written once by a ``--help`` through Typer."""
    from typer.testing import CliRunner

    from rulekeeper.cli.root import app

    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as m:
        m.setenv(manifest.CACHE_ENV, str(folder))
        assert CliRunner().invoke(app, ["--help"]).exit_code == 0
        assert manifest.read() is not None
    return folder


@pytest.fixture
def remembered(cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The manifest above in use, and none of the variables that change Typer's console."""
    monkeypatch.setenv(manifest.CACHE_ENV, str(cache))
    for name in ("TERMINAL_WIDTH", "FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "NO_COLOR", "TYPER_USE_RICH"):
        monkeypatch.delenv(name, raising=False)
    return cache


def test_the_table_is_the_typer_trees_own() -> None:
    """Every neutral command, in Typer's order, with the line Typer shows for it."""
    from typer.main import get_group

    from rulekeeper.cli.root import app

    group = get_group(app)
    listed = [(name, fast_help.first_paragraph(cmd.short_help or cmd.help or "")) for name, cmd in group.commands.items()]
    assert listed[:len(fast_help.NEUTRAL)] == list(fast_help.NEUTRAL)
    assert group.help == fast_help.ROOT_HELP


@pytest.mark.parametrize(("columns", "colour"), [("80", False), ("52", True)])
def test_fast_and_typer_print_the_same_help(remembered: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], columns: str, colour: bool) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    if colour:  # Typer reads FORCE_COLOR once, at import: its module flag is set as the variable would set it
        monkeypatch.setenv("FORCE_COLOR", "1")
        monkeypatch.setattr("typer.rich_utils.FORCE_TERMINAL", True)
    fast_way = run(monkeypatch, capsys, "--help")
    with monkeypatch.context() as m:
        m.setattr(fast, "run", lambda args: False)
        typer_way = run(monkeypatch, capsys, "--help")
    assert fast_way == typer_way
    code, out, _ = fast_way
    assert code == 0 and "muster" in out and "odds" in out
    assert ("\x1b[" in out) is colour


def test_without_a_current_manifest_typer_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(manifest.CACHE_ENV, str(tmp_path))
    assert fast_help.commands() is None and fast_help.run() is False
    (tmp_path / "cli-commands.json").write_text('{"fingerprint": "another install", "commands": []}')
    assert fast_help.run() is False


def test_when_rich_may_be_off_typer_answers(remembered: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYPER_USE_RICH", "0")
    assert fast_help.run() is False


@pytest.mark.parametrize("args", [["--help", "x"], ["-h"], ["battle", "--help"], ["--install-completion"]])
def test_only_the_roots_own_help_is_drawn_here(args: list[str]) -> None:
    assert fast.run(args) is False
