"""Small hand-made Battle System battles for the rules tests (through the game protocol)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.battlesystem.state import BattleState

G: Any = game("battlesystem")


def battle(units: list[tuple[str, str, str, str]], width: int = 8, height: int = 1,
           terrain: list[list[Any]] | None = None, seed: int = 1, turn_limit: int = 40,
           options: dict[str, str] | None = None) -> BattleState:
    """A battle from (side, type, name, hex) and [hex, terrain, elevation] rows, side A to act."""
    sc = {"name": "test", "description": "test", "width": width, "height": height, "turn_limit": turn_limit,
          "sides": {"A": "Reds", "B": "Blues"}, "terrain": terrain or [],
          "units": [{"side": s, "type": t, "name": n, "hex": h} for s, t, n, h in units]}
    doc = {"ruleset": "battlesystem", "scenario": sc, "seed": seed,
           "options": dict(options or {})}  # the ruleset's defaults unless a test gives a reading
    state: BattleState = G.initial_state(doc)
    return state


def set_unit(state: BattleState, name: str, **changes: Any) -> BattleState:
    return state.with_pieces(replace(state.piece(name), **changes))


def act(state: BattleState, **action: Any) -> Any:
    return G.apply(state, G.parse_action(state, action))


def labels(out: Any) -> list[str]:
    return [c.request.label for c in out.chance]
