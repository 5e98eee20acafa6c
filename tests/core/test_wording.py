"""Counts in words (``core.wording``): "1 action", "3 actions", never "action(s)" (the CLI, pages and logs)."""

import doctest
import io
import re
import tokenize
from fractions import Fraction
from pathlib import Path

from rulekeeper.core import wording
from rulekeeper.core.wording import counted, noun_for


def test_docstring_examples_run() -> None:
    result = doctest.testmod(wording)
    assert result.attempted == 4 and result.failed == 0


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [counted(n, "action") for n in (0, 1, 2, 11)] == ["0 actions", "1 action", "2 actions", "11 actions"]
    assert counted(1, "match", "matches") == "1 match" and counted(5, "match", "matches") == "5 matches"
    assert [noun_for(n, "hit") for n in (Fraction(1), 1.0, Fraction(1, 2), 1.5, 0)] == ["hit", "hit", "hits", "hits",
                                                                                          "hits"]


#: A number, or the end of a formatted count ("{n}", "{{ n }}"), then one to three words ending in "(s)" or "(es)":
#: "3 zone(s)", "{n} line(s)", "{more} more problem(s)", "{d} hex(es)". Help texts such as "Side(s) the policy
#: plays" have no count.
COUNT_WITH_S = re.compile(r"(\d|\})(\s+[A-Za-z-]+){1,3}\(e?s\)")


def printed(text: str, suffix: str) -> list[str]:
    """What a file can print: a template whole, the string literals (f-strings too) of a module, not its code."""
    if suffix != ".py":
        return [text]
    return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.STRING]


def test_the_pattern_finds_counts_and_spares_the_help_texts() -> None:
    for found in ("{n} line(s)", "{len(report.problems)} problem(s):", "{more} more problem(s)", "3 zone(s)",
                  "{reach:g} zone(s)", "{len(cuts)} cut-down attack(s)", "{{ n }} word(s)", "({sung} Verse(s))",
                  "{distance} hex(es) away"):
        assert COUNT_WITH_S.search(found), found
    for spared in ('help="Side(s) the policy plays (e.g. A or B)"', "Legal actions of the side(s) to act", "http(s)://",
                   'help="Defender(s), same form."', "f\"side(s) {', '.join(missing)}\"", "_Round(s).run(start)"):
        assert not COUNT_WITH_S.search(spared), spared
    code = "if m0 * m1 <= 0 and abs(s) > 1:\n    say(f'{n} line(s)')\n"
    assert [m.group(0) for s in printed(code, ".py") for m in COUNT_WITH_S.finditer(s)] == ["} line(s)"]


def test_no_reader_prints_a_count_with_s_in_brackets() -> None:
    source = Path(wording.__file__).resolve().parents[1]
    offenders = []
    for p in sorted(source.rglob("*")):
        if p.suffix not in {".py", ".html"} or p.name == "wording.py":
            continue
        text = p.read_text(encoding="utf-8")
        offenders += [f"{p.relative_to(source)}: {m.group(0)!r}"
                      for s in printed(text, p.suffix) for m in COUNT_WITH_S.finditer(s)]
        if "action(s)" in text:
            offenders.append(f"{p.relative_to(source)}: 'action(s)'")
    assert offenders == []

