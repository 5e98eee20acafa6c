"""Shooting in battle: who shoots, at what, with which visibility, and what follows.

Arrows, lightning and artillery all go through :func:`..shots.resolve_shot`; this module
builds the :class:`~..ranged.ShotSetup` from the battle state (trajectory, terrain, the
artillery's same-zone bonus) and applies the report: Reload, Psychological Weapon.
Long actions (Aim) call :func:`shoot_with` again when their time comes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rulekeeper.boards.zones import Coord

from ..aftermath import StaticModifier
from ..fastcopy import evolve
from ..ranged import Crossed, ShotSetup
from ..shots import resolve_shot
from .morale_loop import morale_in_zone
from .state import BattleState, BattleUnit

if TYPE_CHECKING:
    from .engine import Run


def crossed(state: BattleState, frm: Coord, to: Coord) -> tuple[Crossed, ...]:
    """The zones a trajectory crosses, with the miniatures' Bulk (range table) and the terrain."""
    out = []
    for z, frac in state.crossed(frm, to):
        bulk = sum(u.c.count * u.c.stat("bulk_range") for u in state.in_zone(z))
        out.append(Crossed(frac, bulk, state.terrain_at(z), state.board.name(z)))
    return tuple(out)


def streak_bonus(run: Run, m: BattleUnit, target_name: str) -> float:
    """Artillery: "Each consecutive shot in the same zone scatters less" (+25 % per shot, estimate)."""
    if m.has_rule("Artillery") and m.last_target == target_name:
        return 1.0 + min(1.0, run.t.rules.num("artillery_streak") * m.streak)
    return 1.0


def cannot_shoot(run: Run, u: BattleUnit, target: str, shot: str) -> str:
    """Why ``u`` cannot shoot ``shot`` at zone ``target`` now ("" if it can): a long action
    checks this again when its time comes."""
    z = run.state.board.parse(target)
    if u.zone is None:
        return "not on the board"
    if run.state.engaged(u) and u.name not in run.t.rules.shoot_engaged.value:
        return "engaged in a melee"
    if not any(e.c.count for e in run.state.enemies_in(z, u.side)):
        return "no enemy left in the target zone"
    return ""


def shoot_with(run: Run, members: list[BattleUnit], target_name: str, shot: str) -> None:
    """Every member that has ``shot`` shoots at zone ``target_name``."""
    target = run.state.board.parse(target_name)
    for m in members:
        m = run.state.unit(m.key)
        if shot not in m.c.profile.shots or not m.on_board or m.zone is None:
            continue
        zone = tuple(u.c for u in run.state.in_zone(target))
        setup = ShotSetup(
            m.c, zone, run.state.terrain_at(target), crossed(run.state, m.zone, target),
            run.state.board.distance(m.zone, target), shot, run.t.rules, run.state.options,
            streak_bonus(run, m, target_name),
        )
        report = resolve_shot(setup, run.fate)
        after = list(report.zone)
        if m.key not in {c.key for c in report.zone}:
            after.append(report.shooter_after)
        run.state = run.state.with_units({c.key: evolve(run.state.unit(c.key), c=c) for c in after})
        run.events.extend(report.events)
        run.report.append({"kind": "shoot", "zone": target_name, **report.to_dict(events=False, units=False)})
        cur = run.state.unit(m.key)
        streak = cur.streak + 1 if cur.last_target == target_name else 1
        reloaded = not m.has_rule("Reload") and not m.has_rule("Artillery")  # "Must reload between each shot"
        run.state = run.state.with_units({m.key: replace(cur, reloaded=reloaded, last_target=target_name, streak=streak)})
        if m.has_rule("Psychological Weapon"):
            _psychological(run, m, target)


def _psychological(run: Run, m: BattleUnit, target: Coord) -> None:
    """Psychological Weapon: "Inflicts a morale penalty (-10) to every unit in the target zone"."""
    statics = [StaticModifier(u.key, run.t.rules.num("psychological_weapon"), f"Psychological Weapon of {m.key}")
               for u in run.state.in_zone(target) if u.side != m.side]
    run.state, changes = morale_in_zone(run.state, target, [], statics)
    for ch in changes:
        if ch.reasons:
            run.report.append({"kind": "morale", **ch.to_dict()})
