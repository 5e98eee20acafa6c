"""Build the units of one resolution from names, sizes and states (for the CLI and tests)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

from .combatants import Combatant
from .levels import at_level
from .options import ExIllisOptions
from .profiles import Roster, load_profiles
from .rules_data import RulesData, load_rules_data


@dataclass(frozen=True)
class UnitSpec:
    """``NAME[:miniatures]`` plus its state in the zone."""

    name: str
    miniatures: int | None = None
    level: int = 1
    fatigue: float = 0.0
    veil: float = 0.0
    morale: float | None = None
    stance: str = "none"
    moved: bool = False

    @classmethod
    def parse(cls, text: str, level: int = 1) -> UnitSpec:
        """Read ``"Vileins:8"`` or ``"Vileins:8:moved"`` (name, miniatures, moved last turn)."""
        parts = [p.strip() for p in text.split(":")]
        moved = False
        if len(parts) > 1 and parts[-1].lower() == "moved":
            moved = True
            parts = parts[:-1]
        count: int | None = None
        if len(parts) > 1 and parts[-1].isdigit():
            count = int(parts[-1])
            parts = parts[:-1]
        if len(parts) != 1 or not parts[0]:
            raise InvalidStatError(f"cannot read unit {text!r}: write NAME, NAME:COUNT or NAME:COUNT:moved")
        return cls(parts[0], count, level=level, moved=moved)


@dataclass(frozen=True)
class Tables:
    roster: Roster
    rules: RulesData


def load_tables(data: Path | None = None) -> Tables:
    """Shipped units and rules data, with one user override file applied to both."""
    roster = load_profiles(overrides=data) if data and _has(data, "units") else load_profiles()
    rules = load_rules_data(data) if data else load_rules_data()
    return Tables(roster, rules)


def _has(path: Path, key: str) -> bool:
    from .rules_data import _read

    return key in _read(path)


def build(
    tables: Tables, spec: UnitSpec, side: str, taken: set[str], hp_factor: float = 1.0,
    options: ExIllisOptions | None = None, general: bool = False,
) -> Combatant:
    """A fresh :class:`Combatant` for ``spec`` on ``side`` with a key unique in ``taken``.

    ``general``: the hero leads the army and gains the General's HP bonus (25 % or 50 %,
    option ``general_hp_bonus``); only a hero can be General.
    """
    opts = options or ExIllisOptions()
    profile = tables.roster.get(spec.name)
    if general:
        if profile.kind != "hero":
            raise ImpossibleRequestError(f"{profile.name} is not a hero and cannot be the General")
        hp_factor *= opts.general_hp_factor
    if spec.level < 1:
        raise InvalidStatError(f"{spec.name}: level must be >= 1, got {spec.level}")
    profile = at_level(profile, spec.level, opts)
    tables.rules.stance(spec.stance)
    key = profile.name
    n = 2
    while key in taken:
        key = f"{profile.name} ({n})"
        n += 1
    taken.add(key)
    return Combatant.fresh(
        key, profile, side, spec.miniatures, fatigue=spec.fatigue, veil=spec.veil, morale=spec.morale,
        stance=spec.stance, moved=spec.moved, level=spec.level, hp_factor=hp_factor,
    )
