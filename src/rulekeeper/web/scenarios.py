"""The scenarios a web battle may start from: the ones every installed game ships."""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.game import ScenarioInfo
from rulekeeper.core.ruleset import games


@dataclass(frozen=True)
class Shipped:
    """A shipped scenario and the game it belongs to (``key`` is ``game:scenario``)."""

    key: str
    game: str
    game_title: str
    info: ScenarioInfo

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "game": self.game, "name": self.info.name, "description": self.info.description}


def shipped_scenarios() -> list[Shipped]:
    return [Shipped(f"{g.name}:{s.key}", g.name, g.title, s) for g in games() for s in g.scenarios()]


def find_scenario(key: str) -> Shipped:
    """A scenario by ``game:key``, or by its bare key when only one game ships it."""
    found = shipped_scenarios()
    exact = [s for s in found if s.key == key]
    bare = [s for s in found if s.info.key == key]
    if exact or len(bare) == 1:
        return (exact or bare)[0]
    raise UnknownNameError("scenario", key, [s.key for s in found])
