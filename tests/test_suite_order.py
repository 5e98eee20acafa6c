"""The costliest test files named in ``tests/suite_order.py`` exist: a renamed one would quietly go back to
being handed out last, and keep one xdist worker busy after the others finish."""

import tomllib
from pathlib import Path

from suite_order import COSTLIEST_FIRST

ROOT = Path(__file__).resolve().parents[1]


def test_every_costliest_file_exists_once() -> None:
    assert [name for name in COSTLIEST_FIRST if not (ROOT / name).is_file()] == []
    assert len(set(COSTLIEST_FIRST)) == len(COSTLIEST_FIRST)


def test_xdist_hands_the_files_out_in_that_order() -> None:
    """xdist (3.5 on) sorts ``--dist loadfile``'s files by their number of tests unless told not to: the
    costliest-first order would be ignored, and the one-test files (mypy, the browser tests) handed out last."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        addopts = tomllib.load(f)["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert "--no-loadscope-reorder" in addopts and "loadfile" in addopts
