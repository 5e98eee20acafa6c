"""The Ex illis campaign: Battle Points, unit levels, skill points, player level and Renown.

Pure rules, no I/O; every decision is quoted and argued in ``docs/rules/exillis-campaign.md``.

* "Number of units and Heroes in the army → BP earned" and "both players earn the total amount
  of Battle Points the game is worth" (:func:`game_battle_points`): every unit of both armies
  receives the game's total.
* "No Battle Point will be given for a Practice game, if the battlefield is less than four zones
  by four, or if a difference of 15% separates both armies", and Anything Goes games "do not
  earn the player any BP".
* "The amount of BP needed to level up is equal to the unit's current level if it is below
  level 10. After that, a unit always needs 10 BP to gain a level. A unit stops receiving BP
  when it reaches its maximum level." (:func:`bp_needed`, :func:`award`)
* "every 5 levels, a unit is granted a Skill Point" (:func:`skill_points_between`).
* "each battle played awards the player a number of Renown Points equal to his Player Level";
  "The maximum Player Level is actually set at 50". How a player gains levels is not in the
  seed: our estimate (:func:`player_award`) levels a player like a unit that fought in every
  one of his battles, from the BP those battles were worth.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rulekeeper.core.errors import InvalidStatError

from .battle.result import BP_TABLE, bp_for
from .levels import growth_exponent
from .options import ExIllisOptions
from .profiles import INTIMIDATION_GROWTH, STAT_GROWTH

__all__ = [
    "BP_TABLE", "LEVEL_STEP_CAP", "MAX_GAP", "MIN_BOARD", "PLAYER_MAX_LEVEL", "SKILL_POINT_EVERY", "Award",
    "army_size", "award", "award_detail", "bp_for", "bp_needed", "bp_to_next", "effective_level",
    "game_battle_points", "growth", "player_award", "points_gap_too_large", "renown_for", "skill_points_at",
    "skill_points_between",
]

#: "After that [level 10], a unit always needs 10 BP to gain a level."
LEVEL_STEP_CAP = 10
#: "every 5 levels, a unit is granted a Skill Point".
SKILL_POINT_EVERY = 5
#: "The maximum Player Level is actually set at 50."
PLAYER_MAX_LEVEL = 50
#: "if the battlefield is less than four zones by four" (no BP).
MIN_BOARD = 4
#: "if a difference of 15% separates both armies" (no BP), as a fraction of the larger army.
MAX_GAP = 0.15


def effective_level(personal_max: int, game_max: int) -> int:
    """A Named Character's level in a game: "always played to the maximum level allowed by the game
    (without exceeding their personal maximum level)" — Wallace (40) plays 10 in Common, 20 in Grand.
    (Which characters are named, and each game type's levels, are data: ``data/musters.yaml``.)"""
    return max(1, min(game_max, personal_max))


# -- Battle Points of a game ---------------------------------------------------------------------


class _Entry(Protocol):
    @property
    def hero(self) -> str | None: ...


def army_size(units: Iterable[_Entry]) -> int:
    """"Number of units and Heroes in the army": one per entry plus one per attached hero."""
    return sum(1 + (entry.hero is not None) for entry in units)


def points_gap_too_large(points: Sequence[int]) -> bool:
    """True when "a difference of 15% separates both armies": (larger − smaller) > 15 % of the larger.

    Integer arithmetic, so exactly 15 % (100 against 85) still earns BP.
    """
    if len(points) != 2:
        return False
    hi, lo = max(points), min(points)
    return hi > 0 and (hi - lo) * 100 > round(MAX_GAP * 100) * hi


def game_battle_points(
    sizes: Sequence[int], *, practice: bool = False, width: int = 5, height: int = 4,
    points: Sequence[int] = (), earns_bp: Sequence[bool] = (),
) -> tuple[int, str]:
    """BP every unit of both armies earns from one game, and why it is 0 when it is.

    ``sizes``: units and heroes of each army (:func:`army_size`); ``points``: each army's points
    (the 15 % rule); ``earns_bp``: whether each army's game type earns BP — one Anything Goes army
    makes an Anything Goes game.
    """
    if any(s < 0 for s in sizes):
        raise InvalidStatError(f"army sizes cannot be negative, got {list(sizes)}")
    if practice:
        return 0, "practice game"
    if not all(earns_bp):
        return 0, "Anything Goes game (its game type earns no BP)"
    if width < MIN_BOARD or height < MIN_BOARD:
        return 0, f"battlefield {width} × {height} is smaller than {MIN_BOARD} × {MIN_BOARD}"
    if points_gap_too_large(points):
        return 0, f"more than 15 % between the armies ({' vs '.join(str(p) for p in points)} points)"
    return sum(bp_for(s) for s in sizes), ""


# -- levels ----------------------------------------------------------------------------------------


def _whole(name: str, value: int, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStatError(f"{name} must be a whole number, got {value!r}", field=name)
    if value < minimum:
        raise InvalidStatError(f"{name} must be at least {minimum}, got {value}", field=name)
    return value


def bp_needed(level: int) -> int:
    """BP a unit at ``level`` needs for the next level: its level below 10, then always 10."""
    _whole("level", level, 1)
    return min(level, LEVEL_STEP_CAP)


def bp_to_next(level: int, bp: int, max_level: int) -> int | None:
    """BP still missing for the next level; None at the maximum level (no more BP)."""
    if level >= max_level:
        return None
    return max(0, bp_needed(level) - bp)


def skill_points_at(level: int) -> int:
    """Skill Points granted on the way to ``level`` (one at 5, 10, 15, ...)."""
    return _whole("level", level, 0) // SKILL_POINT_EVERY


def skill_points_between(old: int, new: int) -> int:
    """Skill Points granted by levelling from ``old`` to ``new`` (a multiple of 5 crossed or reached)."""
    return max(0, skill_points_at(new) - skill_points_at(old))


@dataclass(frozen=True)
class Award:
    """What one award did to a unit: its new level and BP, and the Skill Points it earned."""

    level: int
    bp: int
    skill_points: int
    levels_gained: int
    bp_received: int  # BP actually taken (0 at the maximum level)


def award(level: int, bp: int, gained: int, max_level: int) -> tuple[int, int, int]:
    """``(level, bp, skill_points_gained)`` after a unit at ``level`` holding ``bp`` earns ``gained``.

    Levels up as long as the BP suffice (level 1 needs 1, level 2 needs 2 ... level 10 and up 10);
    at the maximum level the unit "stops receiving BP": what is left over is dropped and the
    unit keeps 0 BP. Level 1 with 0 BP earning 5: 1 → 2 (1 spent), 2 → 3 (2 spent), 2 left.
    """
    done = award_detail(level, bp, gained, max_level)
    return done.level, done.bp, done.skill_points


def award_detail(level: int, bp: int, gained: int, max_level: int) -> Award:
    """:func:`award` with the levels gained and the BP actually received."""
    _whole("max_level", max_level, 1)
    _whole("level", level, 1)
    _whole("bp", bp, 0)
    _whole("gained", gained, 0)
    if level > max_level:
        raise InvalidStatError(f"level {level} is above the maximum level {max_level}", level=level,
                               max_level=max_level)
    if level == max_level:
        return Award(level, 0, 0, 0, 0)
    start = level
    bp += gained
    while level < max_level and bp >= bp_needed(level):
        bp -= bp_needed(level)
        level += 1
    received = gained
    if level == max_level:
        received -= bp  # the leftover is never received
        bp = 0
    return Award(level, bp, skill_points_between(start, level), level - start, received)


# -- players -----------------------------------------------------------------------------------


def renown_for(player_level: int) -> int:
    """Renown Points a battle awards: "equal to his Player Level" (the level he played it at)."""
    return _whole("player level", player_level, 1)


def player_award(level: int, bp: int, gained: int) -> tuple[int, int]:
    """``(level, bp)`` of a player after a battle worth ``gained`` BP.

    Estimate (the seed gives no rule): a player levels like one of his units would if it fought
    in every battle he plays — BP needed = his level below 10, then 10 — up to level 50.
    """
    new_level, new_bp, _ = award(level, bp, gained, PLAYER_MAX_LEVEL)
    return new_level, new_bp


# -- stat growth -------------------------------------------------------------------------------


def growth(level: int, options: ExIllisOptions | None = None) -> tuple[float, float]:
    """(most stats, level-scaled stats such as Intimidation) multipliers at ``level``.

    "Basic Stat x 1.029183^Level" and "Final Stat = Basic Stat x 1.0717735^Level"; the exponent
    follows the ``stat_levels`` option exactly as the engine does (default: tables are level 1).
    """
    exponent = growth_exponent(_whole("level", level, 1), options or ExIllisOptions())
    return STAT_GROWTH**exponent, INTIMIDATION_GROWTH**exponent
