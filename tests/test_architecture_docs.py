"""``docs/architecture.md`` cites only what exists: every dotted ``module.name`` and every entry-point
style ``module:name`` it names imports and has that attribute, and every ``path/file.py`` it names is a
file under ``src/rulekeeper`` (the protocol issue found the docs citing a ``plays_battles(g)`` that did
not exist)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("core", "service", "persistence", "web", "cli", "lab", "bots", "boards", "rulesets")
_ALTERNATIVES = "|".join(PACKAGES)
DOTTED = re.compile(r"`(?:rulekeeper\.)?((?:" + _ALTERNATIVES + r")(?:\.\w+)+)(?:\([^`]*\))?`")
COLON = re.compile(r"`(rulekeeper(?:\.\w+)+):(\w+)`")
FILE = re.compile(r"`((?:" + _ALTERNATIVES + r")/[\w/]+\.py)`")


def cited_names(text: str) -> list[str]:
    """Dotted names, but not a file's name (``cli.py``: the layout's module, a file)."""
    return sorted({n for n in DOTTED.findall(text) if not n.endswith(".py")})


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
    sample = "`rulekeeper.core.ruleset.game(name)` and `core.chance.Fate`, `core/duels.py`, `web/`, `cli.py`"
    assert cited_names(sample) == ["core.chance.Fate", "core.ruleset.game"]
    assert COLON.findall("`rulekeeper.rulesets.exillis.game:ExIllis`, `rulekeeper.rulesets.<x>.game:<Class>`") == [
        ("rulekeeper.rulesets.exillis.game", "ExIllis")]
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


def test_every_cited_entry_point_target_exists() -> None:
    """``module:name`` (the entry points' form) imports and has that attribute: the layout section cites them."""
    text = DOC.read_text(encoding="utf-8")
    targets = sorted(set(COLON.findall(text)))
    assert len(targets) >= 2, targets
    missing = [f"{m}:{n}" for m, n in targets if getattr(importlib.import_module(m), n, None) is None]
    assert missing == []


def test_the_protocol_section_names_the_required_members_and_the_capabilities() -> None:
    """At most ten required members, each with its row; every optional capability protocol cited."""
    import rulekeeper.core.capabilities as capabilities
    from rulekeeper.core.base import REQUIRED

    text = DOC.read_text(encoding="utf-8")
    table = text.split("## The game protocol", 1)[1].split("\n## ", 1)[0]
    assert len(REQUIRED) <= 10 and [m for m in REQUIRED if f"`{m}" not in table] == []
    protocols = [n for n, v in vars(capabilities).items() if isinstance(v, type) and n != "Protocol"
                 and getattr(v, "_is_protocol", False)]
    assert len(protocols) == 7 and [n for n in protocols if f"`core.capabilities.{n}`" not in table] == []
