"""What every browser test shares: Debian's chromium through Playwright (skipped without either), a
module-wide browser, a live keeper to play on, the links of a new game made on it, and screenshots
saved in ``test-artifacts/``."""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from live_keeper import running_keeper

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


def keeper_fixture(name: str) -> Callable[..., Any]:
    """A module-wide ``server`` fixture: the URL of a web keeper served live on a fresh database (in a
    temporary folder named after ``name``). Use as ``server = keeper_fixture("bs-browser")``."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
        with running_keeper(tmp_path_factory.mktemp(name) / "web.db") as url:
            yield url

    return server


def new_game_links(ctx: object, server: str, scenario: str, seed: str = "7") -> dict[str, str]:
    """The links (role -> URL) of a fresh seeded game of ``scenario`` ("game:key"), made the way a script
    would: POST /new, through the browser context's request API."""
    r = ctx.request.post(server + "/new", form={"scenario": scenario, "seed": seed})  # type: ignore[attr-defined]
    assert r.status == 201, r.text()
    found = dict(re.findall(r'id="link-([\w-]+)"[^>]*value="([^"]+)"', r.text()))
    return {role: html.unescape(url) for role, url in found.items()}


def page_errors(*pages: object) -> list[str]:
    """The uncaught JavaScript errors ``pages`` raise from now on, collected as they happen."""
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda e: errors.append(str(e)))  # type: ignore[attr-defined]
    return errors
