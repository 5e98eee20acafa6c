"""The page-level web tests' keeper: a fresh database per test (a test module may define its own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulekeeper.web.api import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "web.db")) as c:
        yield c
