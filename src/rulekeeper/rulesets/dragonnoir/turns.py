"""The player turn's sequences, the stunned characters' recovery, and the end of a battle.

"Player A's turn - OFFENSIVE FIRE ... - MOVEMENT AND DEFENSIVE FIRE ... - COMBAT ... - STUNNED
CHARACTERS: all the characters of side A who were stunned during the previous game turn are put back
on their feet ... N.B. It is important to respect the order of the sequences carefully. A new sequence
can begin only if the previous one is finished." ``end_phase`` closes a sequence; the offensive fire is
skipped when nobody of the side can shoot. A stunned character gets up at the end of his own side's
player turn if he was stunned before that player turn began (one stunned in it stays down until the end of
his next one). The battle ends when a side has no living character; at the turn limit the side with
more living characters wins (docs/rules/dragonnoir.md, "Battles").
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.wording import counted, possessive

from .data import shipped_sheet
from .dragon import counts_alive
from .harm import movement_of
from .report import Lines
from .shots import is_shooter, shots
from .state import PHASE_NAMES, SIDES, DNState, Man, character_of, other
from .summons import dematerialise


def living(state: DNState, side: str) -> list[Man]:
    """The living characters of ``side`` (horses alone and summoned spectres do not count; the Black Dragon counts
    once)."""
    return [m for m in state.men if m.side == side and counts_alive(m) and not m.fades]


def can_fire(state: DNState) -> bool:
    return any(shots(state, m, False) for m in state.men if m.side == state.side and m.alive and is_shooter(m))


def _start_movement(state: DNState) -> DNState:
    """Fresh movement points for the side to act; the crossbowmen who have just shot do not move; the other
    side's shooters may each shoot once in this sequence."""
    rules = shipped_sheet().fire.weapons
    men = []
    for m in state.men:
        if m.side == state.side and not m.horse:
            weapon = character_of(m.character).weapon
            still = m.shot and weapon in rules and not rules[weapon].move_after_offensive_fire.value
            m = replace(m, mp=0 if still else movement_of(m), steps=0)
        elif m.side != state.side:
            m = replace(m, fired=False)
        men.append(m)
    return replace(state, men=tuple(men), phase="move")


def _recover(state: DNState) -> tuple[DNState, Lines]:
    lines: Lines = []
    men = []
    for m in state.men:
        if m.side == state.side and m.health == "stunned" and m.stunned_at < state.player_turn:
            m = replace(m, health="healthy", stunned_at=0)
            lines.append({"text": f"  {m.name} gets back on his feet", "kind": "recover"})
        men.append(m)
    return replace(state, men=tuple(men)), lines


def _next_player_turn(state: DNState) -> tuple[DNState, Lines]:
    side = other(state.side)
    turn = state.turn + (1 if side == SIDES[0] else 0)
    if turn > state.turn_limit:
        return at_limit(state), []
    men = tuple(replace(m, moved=False, shot=False, attacked=False, steps=0, mp=0,
                        unloaded=m.unloaded and m.mounted) if m.side == side else replace(m, steps=0, mp=0)
                for m in state.men)
    state = replace(state, men=men, side=side, turn=turn, player_turn=state.player_turn + 1, phase="fire")
    lines: Lines = [{"text": f"Turn {turn}: {possessive(state.name(side))} player turn", "kind": "turn"}]
    if not can_fire(state):
        state = _start_movement(state)
        lines.append({"text": "  nobody can shoot: straight to movement", "kind": "note"})
    return state, lines


def end_phase(state: DNState) -> tuple[DNState, Lines]:
    """Close the sequence in progress and open the next one (or the other side's player turn)."""
    lines: Lines = [{"text": f"{state.name(state.side)} end their {PHASE_NAMES[state.phase]}", "kind": "note"}]
    if state.phase == "fire":
        return _start_movement(state), lines
    if state.phase == "move":
        return replace(state, phase="combat", men=tuple(replace(m, steps=0) for m in state.men)), lines
    state, more = _recover(state)
    state, gone = dematerialise(state)
    state, after = _next_player_turn(state)
    return state, lines + more + gone + after


def decided(state: DNState) -> DNState:
    """Over when a side has no living character left."""
    if state.over:
        return state
    alive = {s: bool(living(state, s)) for s in SIDES}
    if not any(alive.values()):
        return replace(state, over=True, winner=None, pending=None, reason="nobody is left alive")
    for s in SIDES:
        if not alive[s]:
            return replace(state, over=True, winner=other(s), pending=None,
                           reason=f"{state.name(s)} have nobody left alive")
    return state


def at_limit(state: DNState) -> DNState:
    a, b = len(living(state, "A")), len(living(state, "B"))
    reason = (f"turn limit ({counted(state.turn_limit, 'turn')}): {state.name('A')} {a} alive, "
              f"{state.name('B')} {b} alive")
    winner = None if a == b else ("A" if a > b else "B")
    return replace(state, over=True, winner=winner, pending=None, reason=reason)
