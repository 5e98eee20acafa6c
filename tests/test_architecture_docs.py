"""``docs/architecture.md`` cites only what exists: every dotted ``module.name`` it names imports and has
that attribute, and every ``path/file.py`` it names is a file under ``src/rulekeeper`` (the protocol issue
found the docs citing a ``plays_battles(g)`` that did not exist)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("core", "service", "persistence", "web", "cli", "lab", "bots", "boards", "rulesets")
_ALTERNATIVES = "|".join(PACKAGES)
DOTTED = re.compile(r"`(?:rulekeeper\.)?((?:" + _ALTERNATIVES + r")(?:\.\w+)+)(?:\([^`]*\))?`")
FILE = re.compile(r"`((?:" + _ALTERNATIVES + r")/[\w/]+\.py)`")


def cited_names(text: str) -> list[str]:
    return sorted(set(DOTTED.findall(text)))


def resolves(dotted: str) -> bool:
    """Whether ``core.game.Game`` (say) is a module, or an attribute path inside one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module("rulekeeper." + ".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(target, attr):
                return False
            target = getattr(target, attr)
        return True
    return False


def test_the_pattern_reads_the_forms_the_doc_uses() -> None:
    sample = "`rulekeeper.core.ruleset.game(name)` and `core.chance.Fate`, `core/duels.py`, `web/`"
    assert cited_names(sample) == ["core.chance.Fate", "core.ruleset.game"]
    assert FILE.findall(sample) == ["core/duels.py"]
    assert not resolves("core.game.plays_battles") and resolves("core.game.Game")


def test_every_cited_name_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = cited_names(text)
    assert len(names) >= 10, names
    missing = [n for n in names if not resolves(n)]
    assert missing == [], f"docs/architecture.md cites names that do not exist: {missing}"


def test_every_cited_file_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    files = sorted(set(FILE.findall(text)))
    assert files, "the doc names no source file"
    missing = [f for f in files if not (ROOT / "src" / "rulekeeper" / f).is_file()]
    assert missing == []


def test_every_protocol_member_has_its_row() -> None:
    """The protocol table names every member :class:`~rulekeeper.core.game.Game` demands."""
    from rulekeeper.core.ruleset import protocol_members

    text = DOC.read_text(encoding="utf-8")
    table = text.split("## The game protocol", 1)[1].split("\n## ", 1)[0]
    missing = [m for m in protocol_members() if f"`{m}" not in table]
    assert missing == []
