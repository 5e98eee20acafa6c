"""The whole-action tests build their positions with the battle tests' kit."""

from __future__ import annotations

import sys
from pathlib import Path

BATTLE_KIT = str(Path(__file__).resolve().parents[1] / "battle")
if BATTLE_KIT not in sys.path:
    sys.path.insert(0, BATTLE_KIT)
