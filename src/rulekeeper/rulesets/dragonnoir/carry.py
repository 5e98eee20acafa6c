"""Carrying a stunned character: "A character on foot who passes through a hex where a stunned character is can
carry him on his back, but the movement points he has left are then halved (rounding down if necessary). At the
end of the movement, he sets the stunned character down on one of the hexes next to his own."

* ``carry`` (``unit``, ``to``): a standing character on foot, carrying nobody, steps onto the next hex ``to``
  where a stunned character on foot lies (and nobody else living); it is a move step (its cost, the infiltration
  roll on leaving a crossed hex, defensive fire) after which his points left are halved. Decision: friend or foe,
  the seed says "a stunned character".
* the carried character rides along: every later step of the carrier takes him too (he stands on the
  carrier's hex while carried: stacked, as the seed's "passes through" allows).
* ``set_down`` (``unit``, ``to``): the carrier puts him on a free hex next to his own that a man on foot may enter,
  no wall between; it costs nothing. Decision: at the end of the movement sequence the keeper sets down anyone still
  carried on the first such hex (the seed's "At the end of the movement"); so does a carrier stunned or killed on
  the way (he drops his load), and a carried man killed by a shot is simply no longer carried.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.game import LegalAction

from .action_types import ToHex, offered
from .data import shipped_sheet
from .fighters import can_enter
from .movement import carrying as halved
from .report import Lines
from .state import DNState, Man, feature_between, fighter_of


def carriable(m: Man) -> bool:
    """A stunned character on foot (not a horse, not part of the dragon)."""
    return m.health == "stunned" and not m.mounted and not m.horse and not m.character.startswith("Black Dragon")


def can_carry(m: Man) -> bool:
    """A carrier: standing, on foot, carrying nobody, with points left."""
    return (m.standing and not m.mounted and not m.horse and not m.carrying and m.mp > 0
            and not m.character.startswith("Black Dragon"))


def _pick_up(state: DNState, m: Man, label: str) -> Man | None:
    """The stunned character ``m`` could pick up on ``label`` (alone there among the living), else None."""
    living = state.living_on(label)
    return living[0] if len(living) == 1 and carriable(living[0]) and living[0].name != m.name else None


def carry_steps(state: DNState, m: Man) -> list[tuple[str, int, str]]:
    """(hex, cost, who) for each next hex where ``m`` may pick up a stunned character now."""
    if not can_carry(m):
        return []
    from .steps import step_cost_to  # the one-hex step rules, shared with ordinary moves

    out = []
    board = state.board
    for n in board.neighbours(board.parse(m.hex)):
        to = board.label(n)
        who = _pick_up(state, m, to)
        if who is None:
            continue
        cost = step_cost_to(state, m, to)
        if cost is not None and cost <= m.mp:
            out.append((to, cost, who.name))
    return out


def picked_up(state: DNState, m: Man, to: str, cost: int) -> tuple[Man, Man]:
    """The carrier after stepping onto ``to`` and lifting the stunned man there: points left halved."""
    who = _pick_up(state, m, to)
    assert who is not None
    carrier = replace(m, hexes=(to,), mp=halved(m.mp - cost), steps=m.steps + 1, moved=True, carrying=who.name)
    return carrier, who


def set_down_hexes(state: DNState, carrier: Man) -> list[str]:
    """Free hexes next to the carrier, no wall between, that the carried man on foot could enter."""
    if not carrier.carrying:
        return []
    from .steps import free_for

    carried = state.man(carrier.carrying)
    foot = fighter_of(state, carried)
    board = state.board
    out = []
    for n in board.neighbours(board.parse(carrier.hex)):
        to = board.label(n)
        feature = feature_between(state, carrier.hex, to)
        if feature is not None and not feature.passable:
            continue
        if free_for(state, to, carried) and can_enter(shipped_sheet(), foot, state.terrain_at(to)) is None:
            out.append(to)
    return out


def set_down_actions(state: DNState, carrier: Man) -> list[LegalAction]:
    return [offered(ToHex("set_down", carrier.side, carrier.name, h), f"{carrier.name} sets {carrier.carrying} down on {h}",
                    None, "no points", f"set down → {h}", f"{carrier.name}: move") for h in set_down_hexes(state, carrier)]


def set_down(state: DNState, name: str, to: str | None = None) -> tuple[DNState, Lines]:
    """The carrier ``name`` puts his load down on ``to`` (None: the first hex allowed; none: where he stands)."""
    carrier = state.man(name)
    if not carrier.carrying:
        return state, []
    carried = state.man(carrier.carrying)
    spots = set_down_hexes(state, carrier)
    where = to if to is not None else (spots[0] if spots else carrier.hex)
    state = state.with_men(replace(carrier, carrying=""), replace(carried, hexes=(where,)))
    return state, [{"text": f"  {carrier.name} sets {carried.name} down on {where}", "kind": "move"}]


def follow(state: DNState, carrier: Man) -> DNState:
    """The carried man goes where his carrier goes (a hex entered this movement: he no longer stands still, so no
    defensive fire at the end of the movement, :func:`.shots.standstill_shots`)."""
    if not carrier.carrying:
        return state
    carried = state.man(carrier.carrying)
    return state.with_men(replace(carried, hexes=carrier.hexes, steps=carried.steps + 1))


def settle(state: DNState, everyone: bool = False) -> tuple[DNState, Lines]:
    """Drop the load of every carrier who is no longer standing (or of all, ``everyone``: the movement is over);
    forget a load that is no longer a stunned man."""
    lines: Lines = []
    for m in state.men:
        if not m.carrying:
            continue
        if not carriable(state.man(m.carrying)):
            state = state.with_men(replace(m, carrying=""))
        elif everyone or not m.standing:
            state, more = set_down(state, m.name)
            lines += more
    return state, lines
