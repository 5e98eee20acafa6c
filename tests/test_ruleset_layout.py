"""One ruleset layout (issue 22, scope 7): every ``rulesets/<x>/`` has the same top-level modules.

A reader who knows one rule system finds everything in another at the same place:
``game.py`` (the registered class, the entry point's target), ``state.py``, ``actions.py``,
``policy.py``, ``scenario.py``, ``cli.py`` (or a ``cli/`` package), ``web/`` and ``data/scenarios/``.
The rules themselves are modules named after the rulebook's sections, or subpackages for a part
that is a whole of its own; a system whose engine is such a subpackage (Ex illis's ``battle/``) still
has the layout's modules, naming what the engine holds. ``docs/architecture.md`` ("One ruleset
layout") says the same, and this test checks that it names every one of them.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "src" / "rulekeeper" / "rulesets"
DOC = ROOT / "docs" / "architecture.md"
MODULES = ("__init__.py", "game.py", "state.py", "actions.py", "policy.py", "scenario.py")
SYSTEMS = ("battlesystem", "confrontation", "dragonnoir", "exillis", "wartable")


def systems() -> list[Path]:
    return sorted(p for p in RULESETS.iterdir() if (p / "__init__.py").is_file())


def test_the_shipped_systems_are_the_five() -> None:
    assert tuple(p.name for p in systems()) == SYSTEMS


def test_every_system_has_the_layouts_modules() -> None:
    missing = [f"{p.name}/{m}" for p in systems() for m in MODULES if not (p / m).is_file()]
    missing += [f"{p.name}/cli" for p in systems() if not ((p / "cli.py").is_file() or (p / "cli" / "__init__.py").is_file())]
    missing += [f"{p.name}/web/" for p in systems() if not (p / "web" / "__init__.py").is_file()]
    missing += [f"{p.name}/data/scenarios/" for p in systems() if not any((p / "data" / "scenarios").glob("*.yaml"))]
    assert missing == []


def test_the_architecture_doc_names_the_layout() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## One ruleset layout", 1)[1].split("\n## ", 1)[0]
    named = [m for m in (*MODULES[1:], "cli.py", "web/", "data/scenarios/") if f"`{m}" not in section]
    assert named == []
