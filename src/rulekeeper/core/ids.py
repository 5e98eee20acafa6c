"""Identifiers: small typed strings, unique within their scope.

``new_id`` gives random, URL-safe ids (for battles and players); the fate of a battle
never depends on them, so they may come from the OS's entropy rather than the
battle's seeded RNG.
"""

from __future__ import annotations

import secrets
from typing import NewType

BattleId = NewType("BattleId", str)
UnitKey = NewType("UnitKey", str)
SideId = NewType("SideId", str)


def new_id(prefix: str = "", nbytes: int = 8) -> str:
    """A random id such as ``b-3f9c2a1d0e7b6a55`` (``nbytes`` of entropy, hex encoded)."""
    token = secrets.token_hex(nbytes)
    return f"{prefix}-{token}" if prefix else token
