"""Mounting and dismounting in a battle: "To be able to mount a horse, a character must be on one of the hexes adjacent
to the horse. Neither the horseman nor the horse may be adjacent to an enemy in a position to attack. ... Only
horsemen can mount horses belonging to other characters. When a character dismounts, the counter representing him
mounted is turned over and the counter of the horseman on foot is placed on an adjacent free hex."

The points are converted as the seed's examples (:func:`.movement.mount`, :func:`.movement.dismount`).
``mount`` (``unit``; ``horse`` when it is another character's horse), ``dismount`` (``unit``, ``to``). Decisions
(docs/rules/dragonnoir.md, "Movement in battle"): every character who can mount is a horseman (he has a mounted
counter), so any of them may mount another character's living horse alone that his side controls (its own side's,
or one nobody of its side stands next to: :func:`.bridle.controls`); he fights and moves with his own mounted
counter, and the horse he leaves later is that horse again (``Man.riding``); nobody mounts a horse standing where a
horseman may not be (a horse led into trees or water).
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.game import LegalAction
from rulekeeper.core.wording import counted

from .action_types import Mount, ToHex, offered
from .bridle import controls
from .data import shipped_sheet
from .fighters import can_enter
from .harm import movement_of
from .movement import dismount, mount
from .report import Lines
from .state import HORSE, DNState, Man, character_of, fighter_of, riderless
from .steps import free_for, threats


def _dismount_hexes(state: DNState, m: Man) -> list[str]:
    board = state.board
    out: list[str] = []
    for h in m.hexes:
        for n in board.neighbours(board.parse(h)):
            label = board.label(n)
            if label not in m.hexes and label not in out and free_for(state, label, m):
                foot = replace(fighter_of(state, m), mounted=False, terrains=(state.terrain_at(label),))
                if can_enter(shipped_sheet(), foot, state.terrain_at(label)) is None:
                    out.append(label)
    return out


def horses_for(state: DNState, m: Man) -> list[Man]:
    """The living horses alone next to ``m`` that his side controls, his own first."""
    own = f"{m.character}{HORSE}"
    board = state.board
    near = [h for h in state.men if h.horse and h.alive and controls(state, m.side, h)
            and any(board.parse(x) in board.neighbours(board.parse(m.hex)) for x in h.hexes)]
    return sorted(near, key=lambda h: h.name != own)


def can_mount(state: DNState, m: Man, h: Man) -> int | None:
    """Points left mounted after mounting ``h`` now (None: he may not): a horseman on foot, neither he nor the horse
    next to an enemy in a position to attack ('Neither the horseman nor the horse may be adjacent to an enemy')."""
    if m.mounted or not m.standing or character_of(m.character).horseman is None or m.carrying:
        return None
    if any(threats(state, m, x) for x in (m.hex, *h.hexes)):
        return None
    rider = fighter_of(state, replace(m, mounted=True))
    if any(can_enter(shipped_sheet(), rider, state.terrain_at(x)) is not None for x in h.hexes):
        return None  # a horse led into trees or water: no horseman may sit it there
    try:
        return mount(shipped_sheet(), fighter_of(state, m), movement_of(m) - m.mp).left
    except ImpossibleRequestError:  # not enough points left to mount
        return None


def saddle_actions(state: DNState, m: Man) -> list[LegalAction]:
    g = f"{m.name}: move"
    out = []
    if m.mounted and m.standing:
        try:
            conv = dismount(shipped_sheet(), fighter_of(state, m), movement_of(m) - m.mp)
        except ImpossibleRequestError:  # not enough points left to dismount
            conv = None
        for to in _dismount_hexes(state, m) if conv is not None else []:
            assert conv is not None
            out.append(offered(ToHex("dismount", m.side, m.name, to), f"{m.name} dismounts onto {to}",
                               float(conv.cost), f"{counted(conv.left, 'point')} left on foot",
                               f"dismount → {to}", g))
    for h in horses_for(state, m):
        left = can_mount(state, m, h)
        if left is None:
            continue
        own = h.name == f"{m.character}{HORSE}"
        out.append(offered(Mount(m.side, m.name, None if own else h.name),
                           f"{m.name} mounts {'his horse' if own else h.name}", None,
                           f"{counted(left, 'point')} left mounted", "mount" if own else f"mount {h.name}", g))
    return out


def do_mounting(state: DNState, action: ToHex | Mount) -> tuple[DNState, Lines]:
    m = state.man(action.unit)
    sheet = shipped_sheet()
    if isinstance(action, Mount):
        h = state.man(action.horse or f"{m.character}{HORSE}")
        conv = mount(sheet, fighter_of(state, m), movement_of(m) - m.mp)
        riding = "" if h.name == f"{m.character}{HORSE}" else h.name
        rider = replace(m, hexes=h.hexes, facing=h.facing, mounted=True, mp=conv.left, moved=True, riding=riding)
        state = replace(state, men=tuple(rider if x.name == m.name else x for x in state.men if x.name != h.name))
        what = "his horse" if not riding else h.name
        return state, [{"text": f"{m.name} mounts {what}: {conv.arithmetic}", "kind": "move"}]
    conv = dismount(sheet, fighter_of(state, m), movement_of(m) - m.mp)
    horse = riderless(m, m.hexes)
    rider = replace(m, hexes=(action.to,), facing=None, mounted=False, mp=conv.left, moved=True, riding="")
    state = state.with_men(rider)
    state = state.with_men(horse) if any(x.name == horse.name for x in state.men) else state.add(horse)
    return state, [{"text": f"{m.name} dismounts onto {action.to}: {conv.arithmetic}", "kind": "move"}]
