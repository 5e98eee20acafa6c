"""The lab's tests fight the toy game's duel kernel (tests/toygame/duel.py), registered for them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from toygame import ToyGame


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests(ToyGame.name)
