"""Spectres in a battle: called by a wizard, flying (the Gargoyles), gone when their time is up.

"The Gargoyles ... They are spectres. They appear when called by a wizard. They can fly short distances (5 hexes
maximum) and pass over level 1 obstacles ... They remain only 4 game turns before dematerialising again (*)."
"The Living Deads ... They move, however, normally. They remain 2 complete game turns before dematerialising again
(*). (*) The player turn during which they appear counts as half a turn."

Decisions (docs/rules/dragonnoir.md, "Spectres in battle"): a summoning spell (``spells.yaml``, effect ``summon``)
calls the spectre counters of its kind that are not on the map (``Gargoyle 1``, ``Gargoyle 2``; all ``count`` of
them must be free, the counter sheet has no more); they appear, on the wizard's side, on the ``count`` free hexes
nearest the wizard that a man on foot may stand on, nearest first and then in reading order (north row first, west
first) — those hexes are the area the spell affects, so the farthest sets its range. Called during the offensive fire
they move in the movement that follows (they get their points with everyone else); called during or after the
movement they do not move before their side's next player turn, but they may fight in this player turn's combat. They leave the map at the end of the player turn :func:`.special.dematerialise_after` names, and do
not count as living characters for the end of a battle (they are conjured, not the side's band).

A Gargoyle's flight (``fly``) is its whole movement: one action to a free hex at most 5 hexes away along a straight
line clear of obstacles above level 1 (:func:`.special.flight_refusal`), before it has stepped this movement; it
spends all its points, rolls no infiltration die (it passes over), and the other side may fire defensively at it
where it lands, as at the end of any step.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.boards.hexes import Hex, HexMap, hex_distance
from rulekeeper.core.memo import remembered

from .data import shipped_sheet
from .fighters import can_enter
from .magic import Spell
from .report import Lines
from .special import FLIGHT_HEXES, dematerialise_after, flight_refusal
from .state import DNState, Man, character_of, fighter_of, scene_of
from .steps import free_for

#: How far from the wizard spectres may appear (estimated: within his radius of action, 10 hexes at level 1).
SUMMON_REACH = 10


def counters_of(kind: str) -> list[str]:
    """The counters of a spectre kind ("Gargoyle" → Gargoyle 1, Gargoyle 2) in the order of the counter sheet
    (found once per sheet: every summoning spell offered asks)."""
    sheet = shipped_sheet()
    return list(remembered(sheet, (counters_of, kind), lambda: tuple(
        n for n in sheet.characters.characters if n.casefold().startswith(kind.casefold() + " "))))


def free_counters(state: DNState, spell: Spell) -> list[str]:
    """The spectres the spell would call: the first ``count`` of its kind not on the map ([] if too few are free)."""
    effect = spell.effect
    assert effect.summon is not None and effect.count is not None
    on_map = {m.name for m in state.men}
    free = [n for n in counters_of(effect.summon) if n not in on_map]
    return free[: effect.count] if len(free) >= effect.count else []


def placements(state: DNState, wizard: Man, names: list[str]) -> list[str]:
    """The hexes the spectres ``names`` appear on: the free hexes nearest the wizard they may stand on."""
    if not names:
        return []
    board = state.board
    centre = board.parse(wizard.hex)
    probe = fighter_of(state, Man(names[0], names[0], wizard.side, (wizard.hex,)))
    sheet = shipped_sheet()
    found = []
    for h, label in nearest_first(board, centre):
        if h == centre or not free_for(state, label, Man("", names[0], wizard.side, (label,))):
            continue
        if can_enter(sheet, probe, state.terrain_at(label)) is None:
            found.append(label)
            if len(found) == len(names):
                return found
    return []


def nearest_first(board: HexMap, centre: Hex) -> tuple[tuple[Hex, str], ...]:
    """The hexes within :data:`SUMMON_REACH` of ``centre``, nearest first and then in reading order, with their
    labels: remembered on the map (every spell offered asks it of the wizard's hex: sorting it anew was a tenth of
    a search bot's Dragon Noir simulation, profiled, issue 28)."""
    def build() -> tuple[tuple[Hex, str], ...]:
        area = sorted(board.within(centre, SUMMON_REACH), key=lambda h: (hex_distance(centre, h), h.r, h.q))
        return tuple((h, board.label(h)) for h in area)

    return remembered(board, (nearest_first, centre), build)


def appear(state: DNState, wizard: str, spell: Spell) -> tuple[DNState, Lines]:
    """The spectres appear on the wizard's side; each stays until the player turn it dematerialises after."""
    w = state.man(wizard)
    names = free_counters(state, spell)
    hexes = placements(state, w, names)
    game_turns = spell.effect.game_turns
    assert game_turns is not None and game_turns.value is not None
    last = dematerialise_after(state.player_turn, game_turns.value)
    lines: Lines = []
    for name, label in zip(names, hexes, strict=True):
        state = state.add(Man(name, name, w.side, (label,), fades=last))
        lines.append({"text": f"  {name} appears on {label} for {state.name(w.side)} (gone after player turn {last})",
                      "kind": "move"})
    return state, lines


def dematerialise(state: DNState) -> tuple[DNState, Lines]:
    """At the end of a player turn, the spectres whose time is up leave the map."""
    gone = [m for m in state.men if m.fades and m.fades <= state.player_turn]
    if not gone:
        return state, []
    lines: Lines = [{"text": f"  {m.name} dematerialises", "kind": "note"} for m in gone]
    return replace(state, men=tuple(m for m in state.men if m not in gone)), lines


def summoned(m: Man) -> bool:
    return m.fades > 0


# -- the Gargoyles' flight ---------------------------------------------------------------------------------------


def can_fly(m: Man) -> bool:
    """A Gargoyle on its feet that has its movement points and has not stepped yet this movement."""
    return (m.standing and m.mp > 0 and m.steps == 0 and not m.carrying and not m.leading
            and character_of(m.character).kind == "spectre" and m.character.casefold().startswith("gargoyle"))


def flights(state: DNState, m: Man) -> list[str]:
    """Every hex the Gargoyle ``m`` may fly to now."""
    if not can_fly(m):
        return []
    board = state.board
    scene = scene_of(state)
    here = board.parse(m.hex)
    sheet = shipped_sheet()
    f = fighter_of(state, m)
    out = []
    for h in board.within(here, FLIGHT_HEXES):
        label = board.label(h)
        if h == here or not free_for(state, label, m) or can_enter(sheet, f, state.terrain_at(label)) is not None:
            continue
        if flight_refusal(scene, here, h) is None:
            out.append(label)
    return out


def flown(m: Man, to: str) -> Man:
    """The Gargoyle after its flight: on ``to``, its movement spent."""
    return replace(m, hexes=(to,), mp=0, steps=m.steps + 1, moved=True)
