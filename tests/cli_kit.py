"""``rulekeeper ARGS`` run in this process through ``main()``, as the installed script runs it.

One helper for the CLI tests that read what a command printed through pytest's ``capsys``: ``main()``
turns every typed error into a message and exit code 2, and ends every run with ``SystemExit`` (Click's
standalone mode), so a run that returns without one is a failure too.
"""

from __future__ import annotations

import pytest

from rulekeeper.cli.app import main


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``rulekeeper ARGS``."""
    monkeypatch.setattr("sys.argv", ["rulekeeper", *args])
    with pytest.raises(SystemExit) as done:
        main()
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def run_main(args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """(exit code, stdout and stderr together) of ``rulekeeper ARGS``: where a refusal is printed is not the point."""
    code, out, err = run(monkeypatch, capsys, *args)
    return code, out + err
