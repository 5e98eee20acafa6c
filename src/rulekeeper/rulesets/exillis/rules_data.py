"""Schema and loader for the Ex illis action/spell/morale data (``data/actions.yaml``).

Numbers the seed does not give are marked ``estimated`` with their reasoning, so a
player can replace them (``--data``) with values from their own cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, UnknownNameError

DATA_DIR = Path(__file__).parent / "data"
Source = Literal["seed", "seed-example", "wiki", "estimated", "user"]


class Num(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    value: float
    source: Source
    why: str = ""

    @model_validator(mode="after")
    def _explained(self) -> Num:
        if self.source == "estimated" and not self.why.strip():
            raise ValueError("an estimated value needs a 'why'")
        return self


class Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str
    kind: Literal["melee", "ranged"]
    basic: bool
    acp: Num
    fatigue: Num
    accuracy: Num
    range: Num | None = None
    shots_per_miniature: int = Field(1, ge=1)
    zone_morale: Num | None = None
    spell: str | None = None
    #: How the projectiles fall: like arrows (the Range section), as lightning (drawn to Bulk,
    #: Armour and cover, then resisted) or as an artillery boulder and its blast.
    resolution: Literal["bow", "lightning", "artillery"] = "bow"
    #: A long action (seed: "only be executed after a certain amount of Action Points have been
    #: accumulated"): it starts now and resolves when the unit's time comes again.
    long: bool = False


class Spell(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str
    element: Literal["fire", "lightning", "ice", "earth", "water", "wind", "light", "dark"]
    power: Num
    veil: Num
    range: Num
    acp: Num


class ChainOrder(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    value: tuple[str, ...]
    source: Source
    why: str = ""


class MoraleStateMods(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    accuracy: float = Field(ge=0)
    luck: float = Field(ge=-1, le=1)
    source: Source
    why: str = ""


class NameList(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    value: tuple[str, ...]
    source: Source
    why: str = ""


class Stance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    accuracy: float = Field(ge=0)
    defences: float = Field(ge=0)
    retaliate: float = Field(ge=0)
    source: Source
    why: str = ""


class Terrain(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    bulk: float = Field(ge=0)
    cover: float = Field(ge=0)
    slow_enter: bool
    slow_exit: bool
    capacity: int = Field(ge=0)
    passable: bool
    source: Source
    why: str = ""


#: Singular and other names players type for the terrain features of ``terrain.yaml``.
TERRAIN_ALIASES = {"field": "fields", "fence": "fences", "forest": "forests", "wood": "forests",
                   "woods": "forests", "hill": "hills", "ruin": "ruins", "obstacle": "obstacles"}


class RulesData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    actions: dict[str, Action]
    spells: dict[str, Spell]
    chain_order: ChainOrder
    morale_states: dict[str, MoraleStateMods]
    shoot_engaged: NameList
    stances: dict[str, Stance]
    terrain: dict[str, Terrain]
    battle: dict[str, Num] = Field(default_factory=dict)
    #: Faction → cause → Motive (Leadership points); unit → cause → Affinity (a factor).
    motives: dict[str, dict[str, Num]] = Field(default_factory=dict)
    affinities: dict[str, dict[str, Num]] = Field(default_factory=dict)

    def num(self, key: str) -> float:
        """A battle constant from the ``battle`` section (estimates marked there)."""
        if key not in self.battle:
            raise UnknownNameError("battle constant", key, self.battle)
        return self.battle[key].value

    @model_validator(mode="after")
    def _spells_exist(self) -> RulesData:
        for name, a in self.actions.items():
            if a.spell is not None and a.spell not in self.spells:
                raise ValueError(f"action {name!r} refers to unknown spell {a.spell!r}")
        return self

    def action(self, name: str) -> Action:
        key = name.strip().lower().replace(" ", "_").replace("-", "_")
        if key not in self.actions:
            raise UnknownNameError("action", name, self.actions)
        return self.actions[key]

    def stance(self, name: str) -> Stance:
        key = name.strip().lower()
        if key not in self.stances:
            raise UnknownNameError("stance", name, self.stances)
        return self.stances[key]

    def terrain_feature(self, name: str) -> Terrain:
        exact = self.terrain.get(name)
        if exact is not None:  # the common case, asked for every zone of every route
            return exact
        key = name.strip().lower()
        key = TERRAIN_ALIASES.get(key, key)
        if key not in self.terrain:
            raise UnknownNameError("terrain feature", name, self.terrain)
        return self.terrain[key]

    def spell(self, name: str) -> Spell:
        key = name.strip().lower().replace(" ", "_").replace("-", "_")
        if key not in self.spells:
            raise UnknownNameError("spell", name, self.spells)
        return self.spells[key]


def _deep_merge(base: Mapping[str, object], over: Mapping[str, object]) -> dict[str, object]:
    """``over`` merged into ``base``, mapping by mapping (the leaves are the file's values, not looked into)."""
    out = dict(base)
    for k, v in over.items():
        inner = out.get(k)
        if isinstance(v, dict) and isinstance(inner, dict):
            out[k] = _deep_merge(inner, v)
        else:
            out[k] = v
    return out


def _read(path: Path) -> dict[str, object]:
    """A data file's top-level mapping, its values as parsed (the schema checks them)."""
    data = read_data_file(path)
    if not isinstance(data, dict):
        raise DataFileError(str(path), ["the top level must be a mapping"])
    return data


def _validate(path: str, raw: Mapping[str, object]) -> RulesData:
    try:
        return RulesData.model_validate(raw)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}" for err in exc.errors()
        ]
        raise DataFileError(path, problems) from None


@lru_cache(maxsize=1)
def _shipped() -> RulesData:
    path = DATA_DIR / "actions.yaml"
    return _validate(str(path), _read(path))


def load_rules_data(overrides: Path | None = None) -> RulesData:
    """The shipped action data, with a user's partial override file merged over it.

    Overridden numbers are marked ``source: user`` unless the file says otherwise.
    """
    if overrides is None:
        return _shipped()
    raw = _shipped().model_dump(mode="python")
    over = _read(overrides)
    over = {k: v for k, v in over.items() if k in ("actions", "spells", "chain_order", "morale_states", "shoot_engaged", "stances", "terrain", "battle", "motives", "affinities")}

    def mark_user(node: object) -> object:
        """Each number given as ``{value: …}`` without a source is the user's (the rest as the file has it)."""
        if isinstance(node, dict):
            if "value" in node and "source" not in node:
                node = {**node, "source": "user"}
            return {k: mark_user(v) for k, v in node.items()}
        return node

    return _validate(str(overrides), _deep_merge(raw, {k: mark_user(v) for k, v in over.items()}))
