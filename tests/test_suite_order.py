"""The costliest test files named in ``tests/suite_order.py`` exist: a renamed one would quietly go back to
being handed out last, and keep one xdist worker busy after the others finish."""

from pathlib import Path

from suite_order import COSTLIEST_FIRST

ROOT = Path(__file__).resolve().parents[1]


def test_every_costliest_file_exists_once() -> None:
    assert [name for name in COSTLIEST_FIRST if not (ROOT / name).is_file()] == []
    assert len(set(COSTLIEST_FIRST)) == len(COSTLIEST_FIRST)
