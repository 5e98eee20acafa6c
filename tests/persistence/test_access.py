"""Access links: one token per role, roles chosen by the caller (a game's sides + spectator)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekeeper.persistence.access import ROLES, AccessStore
from rulekeeper.persistence.store import StoreError


@pytest.fixture
def access(tmp_path: Path) -> Any:
    store = AccessStore(tmp_path / "rk.db")
    yield store
    store.close()


def test_default_roles(access: AccessStore) -> None:
    tokens = access.issue("b-1")
    assert tuple(tokens) == ROLES == ("A", "B", "spectator")
    assert {access.role("b-1", t) for t in tokens.values()} == set(ROLES)
    assert access.role("b-2", tokens["A"]) is None and access.role("b-1", "forged") is None


def test_roles_from_the_caller(access: AccessStore) -> None:
    tokens = access.issue("b-1", ["Imperium", "Horde", "Rebels", "spectator"])
    assert {role: access.role("b-1", t) for role, t in tokens.items()} == {r: r for r in tokens}
    again = access.issue("b-1", ("Imperium", "spectator"))  # replaces every old link
    assert access.role("b-1", tokens["Horde"]) is None and access.role("b-1", again["Imperium"]) == "Imperium"


@pytest.mark.parametrize(
    ("roles", "problem"),
    [
        ([], "at least one role"),
        (["A", ""], "1 to 20 characters"),
        (["A", "   "], "1 to 20 characters"),
        (["A", "x" * 21], "1 to 20 characters"),
        (["A", 7], "1 to 20 characters"),
        (["A", "B", "A"], "distinct"),
        ("AB", "not the string"),
    ],
)
def test_bad_roles_are_refused_and_change_nothing(access: AccessStore, roles: Any, problem: str) -> None:
    tokens = access.issue("b-1")
    with pytest.raises(StoreError, match=problem) as info:
        access.issue("b-1", roles)
    assert info.value.details["field"] == "roles"
    assert access.role("b-1", tokens["B"]) == "B"


def test_longest_role_name_fits(access: AccessStore) -> None:
    name = "x" * 20
    assert access.role("b-1", access.issue("b-1", [name])[name]) == name
