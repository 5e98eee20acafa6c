"""The "Guide to the Battle System" (seed 002_609b8eb77532e3f3.txt): hex battles of 5d10 attacks.

This package is the rules core as a library: unit cards (:mod:`.units`, ``data/units.yaml``),
normal, failed and missile attacks and morale damage (:mod:`.combat`), barrages (:mod:`.barrage`),
their exact odds (:mod:`.odds`) and the readings of what the guide leaves open (:mod:`.options`).
Whole battles on hex maps are the registered game :class:`.game.BattleSystem` (entry point
``battlesystem``), imported only when the keeper asks for it.
Decisions and estimates: ``docs/rules/battlesystem.md``.
"""

from __future__ import annotations

from .barrage import BarrageHit, BarrageResult, barrage_damage, barrage_request, check_barrage_target, resolve_barrage
from .combat import (
    AttackResult,
    MoraleHit,
    Reach,
    Unit,
    attack_request,
    morale_damage,
    morale_request,
    outcome_of,
    resolve_attack,
    resolve_missile,
)
from .odds import AttackOdds, BarrageOdds, attack_odds, barrage_odds, morale_odds
from .options import BattleSystemOptions, option_infos
from .units import UnitType, UnitTypes, load_unit_types

__all__ = [
    "AttackOdds", "AttackResult", "BarrageHit", "BarrageOdds", "BarrageResult", "BattleSystemOptions", "MoraleHit",
    "Reach", "Unit", "UnitType", "UnitTypes", "attack_odds", "attack_request", "barrage_damage", "barrage_odds",
    "barrage_request", "check_barrage_target", "load_unit_types", "morale_damage", "morale_odds", "morale_request",
    "option_infos", "outcome_of", "resolve_attack", "resolve_barrage", "resolve_missile",
]
