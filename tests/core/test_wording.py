"""Counts in words (``core.wording``): "1 action", "3 actions", never "action(s)" (the CLI, pages and logs)."""

import doctest
from pathlib import Path

from rulekeeper.core import wording
from rulekeeper.core.wording import counted


def test_docstring_examples_run() -> None:
    result = doctest.testmod(wording)
    assert result.attempted == 3 and result.failed == 0


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [counted(n, "action") for n in (0, 1, 2, 11)] == ["0 actions", "1 action", "2 actions", "11 actions"]
    assert counted(1, "match", "matches") == "1 match" and counted(5, "match", "matches") == "5 matches"


def test_no_reader_prints_action_s_any_more() -> None:
    source = Path(wording.__file__).resolve().parents[1]
    offenders = [str(p.relative_to(source)) for p in source.rglob("*") if p.suffix in {".py", ".html"}
                 and p.name != "wording.py" and "action(s)" in p.read_text(encoding="utf-8")]
    assert offenders == []
