"""Small hand-made Dragon Noir battles for the battle rules tests (through the game protocol)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.game import JsonDict
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.dragonnoir.state import DNState

G: Any = game("dragonnoir")


def man(name: str, side: str, *hexes: str, mounted: bool = False, health: str = "healthy",
        horse: bool = False, facing: int | None = None) -> JsonDict:
    character = name[: -len("'s horse")] if horse else name
    if len(hexes) == 2 and facing is None:
        facing = 0
    return {"name": name, "character": character, "side": side, "hexes": list(hexes), "health": health,
            "mounted": mounted, "horse": horse, "facing": facing}


def battle(men: list[JsonDict], width: int = 8, height: int = 5, terrain: list[list[Any]] | None = None,
           edges: list[list[str]] | None = None, seed: int = 1, turn_limit: int = 10, errare: str = "off",
           window: bool = False) -> DNState:
    """A battle on a small map, side A to act (in its offensive fire, or its movement when nobody can shoot); the
    other side's opening magic window is passed unless ``window``."""
    sc = {"name": "test", "description": "test", "width": width, "height": height, "turn_limit": turn_limit,
          "sides": {"A": "Exiles", "B": "Orks"}, "terrain": terrain or [], "edges": edges or [], "men": men}
    state: DNState = G.initial_state({"ruleset": "dragonnoir", "scenario": sc, "seed": seed,
                                      "options": {"dwarves": "instead", "errare": errare}})
    return state if window else quiet(state)


def quiet(state: DNState) -> DNState:
    """Pass the other side's magic window (a wizard may cast in the enemy's turn), if it is open."""
    while state.pending is not None and state.pending.kind == "magic":
        state = G.apply(state, {"kind": "no_spell", "side": state.pending.side}).state
    return state


def set_man(state: DNState, name: str, **changes: Any) -> DNState:
    return state.with_men(replace(state.man(name), **changes))


def act(state: DNState, window: bool = False, **action: Any) -> Any:
    """Apply an action; the other side's magic window it opens is passed unless ``window``."""
    out = G.apply(state, G.parse_action(state, action))
    return out if window else replace(out, state=quiet(out.state))


def kinds(state: DNState) -> set[str]:
    return {lg.action["kind"] for lg in G.legal_actions(state)}


def legal(state: DNState, kind: str, **fields: Any) -> list[JsonDict]:
    return [lg.action for lg in G.legal_actions(state) if lg.action["kind"] == kind
            and all(lg.action.get(k) == v for k, v in fields.items())]


def labels(out: Any) -> list[str]:
    return [c.request.label for c in out.chance]
