"""The command line as a player uses it: each test gets its own database and its own CLI state file."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``RULEKEEPER_DB`` and ``RULEKEEPER_STATE_DIR`` in the test's folder (never the user's own)."""
    monkeypatch.setenv("RULEKEEPER_DB", str(tmp_path / "battles.db"))
    monkeypatch.setenv("RULEKEEPER_STATE_DIR", str(tmp_path / "state"))
    return tmp_path
