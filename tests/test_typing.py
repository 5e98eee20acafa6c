"""The package is mypy --strict clean (configuration in pyproject.toml)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_clean() -> None:
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "src" / "rulekeeper")])
    assert status == 0, out + err
