"""Every third-party module the package imports is declared in ``pyproject.toml``.

Why: a module that arrives only as another package's dependency (``typing_extensions`` came with pydantic)
works until that package stops requiring it, and then ``pip install .`` on a fresh machine gives a keeper that
fails at import. Modules an optional extra provides (numba, dask, psycopg) count as declared by that extra.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "src" / "rulekeeper"


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_distributions() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    return {_normalised(re.split(r"[\s<>=!~\[;]", requirement, maxsplit=1)[0]) for requirement in requirements}


def imported_top_level_modules() -> dict[str, Path]:
    """Top-level module name -> one file importing it, over every module of the package."""
    found: dict[str, Path] = {}
    for path in sorted(SOURCES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], path)
    return found


def test_every_third_party_import_is_declared() -> None:
    distributions = packages_distributions()
    declared = declared_distributions()
    undeclared = []
    for module, path in imported_top_level_modules().items():
        if module in ("rulekeeper", "_typeshed") or module in sys.stdlib_module_names:  # _typeshed: stubs only
            continue
        providers = {_normalised(d) for d in distributions.get(module, [])}
        if not providers & declared:
            undeclared.append(f"{module} (imported by {path.relative_to(ROOT)}; provided by {sorted(providers)})")
    assert not undeclared, "imported but not declared in pyproject.toml: " + "; ".join(undeclared)


def test_the_check_sees_an_undeclared_module() -> None:
    """The check can fail: ``typing_extensions`` is imported and must be among the declared distributions."""
    assert "typing_extensions" in imported_top_level_modules()
    assert "typing-extensions" in declared_distributions()
