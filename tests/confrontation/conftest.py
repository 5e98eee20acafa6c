"""Shared by the Confrontation tests: the registered game, found once per test module."""

from __future__ import annotations

import pytest

from rulekeeper.core.game import Game
from rulekeeper.core.ruleset import game


@pytest.fixture(scope="module")
def g() -> Game:
    """The Confrontation game as the registry gives it (the keeper's own, not a copy built here)."""
    found = game("confrontation")
    assert isinstance(found, Game)
    return found
