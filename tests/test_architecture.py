"""Who may import whom (see docs/architecture.md): the layers above the core reach rule systems
only through the game protocol, and the core knows no layer above it.

Every ``import`` and ``from ... import`` is read with :mod:`ast` (relative ones resolved, those
inside functions and ``TYPE_CHECKING`` blocks included, ``importlib.import_module("...")`` with
a literal name too). The same rules are an import-linter contract in ``pyproject.toml``
(``lint-imports``); this test is the one CI relies on.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "rulekeeper"

#: The layers that talk to rule systems only through ``rulekeeper.core.game`` (and ``core.duels``).
ABOVE = ("service", "persistence", "web", "cli", "lab", "bots")
#: What each layer must never import (a module or anything under it).
FORBIDDEN = {
    **{layer: ("rulekeeper.rulesets",) for layer in ABOVE},
    "core": tuple(f"rulekeeper.{m}" for m in (*ABOVE, "rulesets", "boards")),
    "boards": tuple(f"rulekeeper.{m}" for m in (*ABOVE, "rulesets")),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(source: str, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, the module named ``module``.

    ``from X import y`` yields ``X`` and ``X.y`` (``y`` may be a submodule).
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                if node.level - 1 > len(package):
                    raise AssertionError(f"{module}:{node.lineno}: relative import beyond the top package")
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            yield node.lineno, target
            for alias in node.names:
                if alias.name != "*":
                    yield node.lineno, f"{target}.{alias.name}"
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                yield node.lineno, node.args[0].value


def files_of(layer: str) -> list[Path]:
    return sorted((PKG / layer).rglob("*.py"))


def violations(layer: str) -> list[str]:
    out = []
    for path in files_of(layer):
        mod = module_name(path)
        for line, target in imported(path.read_text(encoding="utf-8"), mod, path.name == "__init__.py"):
            for bad in FORBIDDEN[layer]:
                if target == bad or target.startswith(bad + "."):
                    out.append(f"{path.relative_to(SRC)}:{line} imports {target}")
    return sorted(set(out))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_what_it_may(layer: str) -> None:
    assert (PKG / layer).is_dir(), f"src/rulekeeper/{layer} is missing"
    assert files_of(layer)
    assert violations(layer) == []


def test_the_layers_exist() -> None:
    for layer in ("core", "boards", "service", "persistence", "web", "cli", "lab", "bots", "rulesets"):
        assert (PKG / layer / "__init__.py").is_file(), layer


def test_the_import_reader_resolves_relative_and_hidden_imports() -> None:
    src = (
        "import rulekeeper.rulesets.exillis as ex\n"
        "from ..rulesets import exillis\n"
        "from .. import rulesets\n"
        "from . import battles\n"
        "from .diff import json_diff\n"
        "def later():\n"
        "    from rulekeeper.rulesets.wartable.game import WarTable\n"
        "    import importlib\n"
        "    importlib.import_module('rulekeeper.rulesets.toy')\n"
        "if TYPE_CHECKING:\n"
        "    from rulekeeper import rulesets as rs\n"
    )
    found = {t for _, t in imported(src, "rulekeeper.service.battles", False)}
    assert {"rulekeeper.rulesets.exillis", "rulekeeper.rulesets", "rulekeeper.service.battles",
            "rulekeeper.service.diff.json_diff", "rulekeeper.rulesets.wartable.game", "rulekeeper.rulesets.toy"} <= found
    assert "rulekeeper.rulesets" in {t for _, t in imported("from ... import rulesets\n", "rulekeeper.web.a.b", False)}
    assert {t for _, t in imported("from . import x\n", "rulekeeper.cli", True)} == {"rulekeeper.cli", "rulekeeper.cli.x"}


def test_the_check_sees_a_violation() -> None:
    """The walker is not vacuous: the real service imports are read, and a bad one would show."""
    svc = PKG / "service" / "battles.py"
    targets = {t for _, t in imported(svc.read_text(encoding="utf-8"), module_name(svc), False)}
    assert "rulekeeper.core.game" in targets and "rulekeeper.service.diff" in targets
    bad = "def f():\n    from ..rulesets.exillis import game\n"
    assert any(t.startswith("rulekeeper.rulesets") for _, t in imported(bad, "rulekeeper.web.api", False))
