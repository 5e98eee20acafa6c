"""A skirmish past its first Tactical roll without rolling it: side ``first`` won it and acts first.

The tests written before the Tactical roll existed start from the activation phase with side A first and the RNG
as the seed left it; this keeps their states (and their seeded dice) as they were. The roll itself is tested in
test_confrontation_tactical.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any


def past_tactical(state: Any, first: str = "A") -> Any:
    return replace(state, phase="activation", first=first, to_act=first, leader=first)
