"""From a :class:`DuelRequest` to the two units as the reference engine builds them, or a typed refusal.

Options are ruleset option readings (``ExIllisOptions``), overrides are house-rule stat
changes applied to the unit's card (its basic, level-1 profile) before levels scale it, and
both paths — the kernel and the reference engine — fight exactly these combatants.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from pydantic import ValidationError

from rulekeeper.core.duels import DEPLOYMENTS, DuelRequest
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError

from ..combatants import Combatant
from ..levels import at_level
from ..options import ExIllisOptions
from ..profiles import UnitProfile
from ..setup import Tables, load_tables
from ..unit_profile import STAT_KEYS

MODES = ("melee", "shoot")
FIRST, SECOND = "first", "second"


@dataclass(frozen=True)
class Fighters:
    """The request's two units, fresh and full, with the rules they fight under."""

    first: Combatant
    second: Combatant
    tables: Tables
    options: ExIllisOptions


@lru_cache(maxsize=1)
def shipped_tables() -> Tables:
    """The shipped units and rules data (read once per process: the kernel is asked many times)."""
    return load_tables()


def options_of(request: DuelRequest) -> ExIllisOptions:
    """The ruleset option readings of the request (unknown names or values refused by ``parse``)."""
    return ExIllisOptions.parse([f"{name}={value}" for name, value in request.options.items()])


def _override(profile: UnitProfile, changes: Mapping[str, object]) -> UnitProfile:
    """``profile`` with house-rule stat values, re-validated as a data file would be.

    Each refusal names its place as the house-rule file writes it (``units.Billmen.hp``), so the lab's
    CLI can point at the line to fix.
    """
    data = profile.model_dump()
    for key, value in changes.items():
        place = f"units.{profile.name}.{key}"
        if key not in STAT_KEYS:
            unknown = UnknownNameError(f"stat of {profile.name} (at {place})", str(key), STAT_KEYS)
            unknown.details["override"] = place
            raise unknown
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise InvalidStatError(f"{place}: expected a number, got {value!r}", unit=profile.name, stat=key,
                                   override=place)
        data["stats"][key]["value"] = float(value)
    try:
        return UnitProfile.model_validate(data)
    except ValidationError as exc:
        stats = [str(k) for k in changes]
        place = f"units.{profile.name}.{stats[0]}" if len(stats) == 1 else f"units.{profile.name}"
        problems = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
        raise InvalidStatError(f"{place}: {problems}", unit=profile.name, override=place) from None


def overridden(tables: Tables, request: DuelRequest) -> dict[str, UnitProfile]:
    """Every overridden unit's basic profile, by canonical name (unknown units refused)."""
    out: dict[str, UnitProfile] = {}
    for name, changes in request.overrides.items():
        try:
            base = tables.roster.get(name)
        except UnknownNameError as unknown:
            unknown.details["override"] = f"units.{name}"
            raise
        if not isinstance(changes, Mapping):
            raise InvalidStatError(f"overrides of {name}: expected stat names and values", unit=name)
        out[base.name] = _override(out.get(base.name, base), changes)
    return out


def _combatant(tables: Tables, name: str, level: int, side: str, key: str,
               patched: dict[str, UnitProfile], options: ExIllisOptions) -> Combatant:
    base = tables.roster.get(name)
    profile = at_level(patched.get(base.name, base), level, options)
    return Combatant.fresh(key, profile, side, level=level)


#: The largest unit the kernel fights (``rng.draw_below`` needs fewer than 2¹¹ targets).
MAX_MINIATURES = 2047


def check_counts(request: DuelRequest) -> None:
    """The request's own numbers and words: counts, seed, mode, deployment order, charge."""
    for what, value, low in (("count (simulations)", request.count, 1), ("start", request.start, 0),
                             ("seed", request.seed, 0), ("max_rounds", request.max_rounds, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InvalidStatError(f"{what} must be a whole number >= {low}, got {value!r}", field=what)
    if request.deployment not in DEPLOYMENTS:
        raise UnknownNameError("deployment order", str(request.deployment), DEPLOYMENTS)
    if request.mode not in MODES:
        raise UnknownNameError("duel mode", str(request.mode), MODES)
    if request.charge and request.mode != "melee":
        raise ImpossibleRequestError("a charge opens a melee: --charge cannot go with --mode shoot")


def fighters(request: DuelRequest) -> Fighters:
    """Both units of ``request`` built as the reference engine builds them (raises typed errors)."""
    check_counts(request)
    tables = shipped_tables()
    options = options_of(request)
    patched = overridden(tables, request)
    first = tables.roster.get(request.first).name
    second = tables.roster.get(request.second).name
    a = _combatant(tables, first, request.first_level, FIRST, first, patched, options)
    key = second if second != first else f"{second} (2)"
    b = _combatant(tables, second, request.second_level, SECOND, key, patched, options)
    for c in (a, b):  # rng.draw_below multiplies 53 random bits by the targets left: the product must fit 64 bits
        if len(c.hp) > MAX_MINIATURES:
            raise ImpossibleRequestError(f"{c.name} has {len(c.hp)} miniatures; the duel kernel fights units of at"
                                         f" most {MAX_MINIATURES}")
    if request.mode == "shoot" and a.stat("range") < 1 and b.stat("range") < 1:
        raise ImpossibleRequestError(f"neither {first} nor {second} has a ranged attack: they cannot duel by shooting")
    return Fighters(a, b, tables, options)
