"""What every browser test shares: Debian's chromium through Playwright (skipped without either), a
module-wide browser, and screenshots saved in ``test-artifacts/``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

CHROMIUM = next((p for p in ("/usr/lib/chromium/chromium", "/usr/bin/chromium") if os.path.exists(p)), None)
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@contextmanager
def launched_browser() -> Iterator[object]:
    """A headless chromium (the ``browser`` fixture of ``tests/conftest.py``)."""
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, animations="disabled")  # type: ignore[attr-defined]
