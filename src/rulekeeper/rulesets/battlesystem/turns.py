"""The turn structure the guide leaves to the table (docs/rules/battlesystem.md, "Turns").

Sides alternate turns. When a side's turn begins, its pending barrages fire ("the unit will have
to wait until their next turn to fire"), in the order of the unit list. Its fleeing units run for
their own edge and escape once over it when the side ends its turn, after their general could
rally them ("their general will be able to rally them back into the fight"); the options
``flight_timing=start-of-turn`` and ``flight_edge=nearest`` give the other readings. After every action the battle
is checked for its end: a side with no unit left on the map that can fight (every one destroyed,
fleeing or escaped; its general alone does not count) has lost; at the turn limit the side with more soldiers still able to fight
wins, equal numbers draw.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.wording import counted

from .barrage import barrage_request, resolve_barrage
from .movement import flight
from .report import Lines
from .state import SIDES, BattleState, Piece, evolved, other
from .units import NO_AMMUNITION


def can_fire(piece: Piece) -> bool:
    """A barrage fires only from a unit still on the map, not fleeing, with ammunition (or needing none)."""
    return piece.can_fight and (piece.ammunition > 0 or piece.type.has(NO_AMMUNITION))


def firing(state: BattleState, side: str) -> list[Piece]:
    """The units of ``side`` whose barrages fire when its turn begins, in order."""
    return [p for p in state.units if p.side == side and p.barrage is not None and can_fire(p)]


def barrage_draws(state: BattleState) -> tuple[ChanceRequest, ...]:
    """The rolls ending this turn draws first: the next side's barrages (none if the turn limit ends it)."""
    if state.turn >= state.turn_limit:
        return ()
    return tuple(barrage_request(p.unit()) for p in firing(state, other(state.to_act)))


def under_fire(state: BattleState, label: str) -> tuple[Piece | None, list[Piece]]:
    """Who a barrage on ``label`` hits if it lands now: the unit on the hex, then those on the hexes around it.

    One function for the barrage as it fires (:func:`fire`) and the odds shown when it is laid
    (``actions.preview``), so the preview names exactly the units the landing would hit.
    """
    board = state.board
    around = [q for h in board.neighbours(board.parse(label)) if (q := state.at(board.label(h))) is not None]
    return state.at(label), around


def fire(state: BattleState, piece: Piece, fate: Fate) -> tuple[BattleState, Lines]:
    """One barrage chosen last turn lands on whoever now stands on and around its hex."""
    label = str(piece.barrage)
    target, around = under_fire(state, label)
    result = resolve_barrage(fate, piece.unit(), None if target is None else target.unit(),
                             [q.unit() for q in around], 0, state.rules)
    lines: Lines = [{"text": f"{piece.name} fire their barrage at {label}: {result.formula} "
                                      f"rolls {result.roll}", "kind": "roll"}]
    changed = [replace(piece.took(result.artillery), barrage=None)]
    for hit in result.hits:
        q = state.piece(hit.unit.name)
        changed.append(q.took(hit.unit))
        where = "on the hex" if hit.on_target else "adjacent"
        lines.append({"text": f"  {q.name} ({where}): {hit.formula} → {counted(hit.casualties, 'soldier')} lost",
                      "kind": "casualties" if hit.casualties else "none"})
        if hit.morale is not None:
            lines.append({"text": f"  {q.name} take {hit.morale.damage} morale damage "
                                  f"(1d10+{hit.casualties} = {hit.morale.roll}, ×{hit.morale.multiplier}"
                                  f"{', halved' if hit.morale.halved else ''}): morale {hit.morale.morale_after}"
                                  f"{' — they flee!' if hit.morale.morale_after == 0 else ''}",
                          "kind": "flees" if hit.morale.morale_after == 0 else "morale"})
    if not result.hits:
        lines.append({"text": "  nobody was there", "kind": "none"})
    return state.with_pieces(*changed), lines


def run(state: BattleState, piece: Piece) -> tuple[BattleState, Lines]:
    """A fleeing unit runs for the nearest edge (movement.flight)."""
    stop, escaped, route = flight(state, piece)
    moved = replace(piece, hex=stop, escaped=escaped)
    if escaped:
        text = f"{piece.name} flee{' through ' + ', '.join(route) if route else ''} and escape over the edge"
    elif route:
        text = f"{piece.name} flee to {stop} (through {', '.join(route)})"
    else:
        text = f"{piece.name} are fleeing but cannot get away from {piece.hex}"
    return state.with_pieces(moved), [{"text": text, "kind": "escapes" if escaped else "flees"}]


def begin_turn(state: BattleState, fate: Fate) -> tuple[BattleState, Lines]:
    """The next side's turn: fresh movement and attacks, its barrages fire, its fleeing units run."""
    side = other(state.to_act)
    # fresh movement and attack for the side to act; a pursuit not taken lapses with the turn it was won in
    fresh = [evolved(p, spent=0, attacked=False, broke=None) if p.side == side else evolved(p, broke=None)
             for p in state.units]
    state = evolved(state, to_act=side, turn=state.turn + 1).with_pieces(*fresh)
    lines: Lines = [{"text": f"Turn {state.turn}: {state.name(side)}", "kind": "turn"}]
    for piece in firing(state, side):
        state, more = fire(state, state.piece(piece.name), fate)
        lines += more
    cancelled = [replace(p, barrage=None) for p in state.units if p.side == side and p.barrage is not None]
    for p in cancelled:
        lines.append({"text": f"{p.name} cannot fire their barrage (fleeing, destroyed or out of ammunition)",
                      "kind": "note"})
    state = state.with_pieces(*cancelled)
    if state.rules.flight_timing == "start-of-turn":
        state, more = flee(state, side)
        lines += more
    return state, lines


def flee(state: BattleState, side: str) -> tuple[BattleState, Lines]:
    """Every fleeing unit of ``side`` runs (in the order of the unit list): at the end of its side's turn, once
    its general has had the turn to rally it (``flight_timing=end-of-turn``), or when the turn begins."""
    lines: Lines = []
    for piece in [p for p in state.units if p.side == side and p.fleeing]:
        state, more = run(state, state.piece(piece.name))
        lines += more
    return state, lines


def strength(state: BattleState, side: str) -> int:
    """Soldiers still able to fight, the general's guard not counted: what decides a battle at the turn limit."""
    return sum(p.soldiers for p in state.units if p.side == side and p.holds_field)


def decided(state: BattleState) -> BattleState:
    """The battle as it stands after an action: over when a side has nobody left who can fight."""
    if state.over:
        return state
    able = {s: any(p.side == s and p.holds_field for p in state.units) for s in SIDES}
    if not any(able.values()):
        return replace(state, over=True, winner=None, reason="neither side has a unit left that can fight")
    for s in SIDES:
        if not able[s]:
            return replace(state, over=True, winner=other(s),
                           reason=f"{state.name(s)} have no unit left that can fight (destroyed, fleeing or escaped"
                                  f"{'; a general alone holds no field' if any(p.side == s and p.can_fight for p in state.units) else ''})")
    return state


def at_limit(state: BattleState) -> BattleState:
    """The turn limit reached: the side with more soldiers still able to fight wins; equal numbers draw."""
    a, b = strength(state, "A"), strength(state, "B")
    reason = (f"turn limit ({counted(state.turn_limit, 'turn')}): {state.name('A')} {counted(a, 'soldier')}, "
              f"{state.name('B')} {b}")
    winner = None if a == b else ("A" if a > b else "B")
    return replace(state, over=True, winner=winner, reason=reason)


def end_turn(state: BattleState, fate: Fate) -> tuple[BattleState, Lines]:
    lines: Lines = [{"text": f"{state.name(state.to_act)} end their turn", "kind": "note"}]
    if state.rules.flight_timing == "end-of-turn":  # the general had the whole turn to rally them
        state, more = flee(state, state.to_act)
        lines += more
    if state.turn >= state.turn_limit:
        return at_limit(state), lines
    state, more = begin_turn(state, fate)
    return state, lines + more
