"""Moving under cover (issue 24): a careful move declared before the Tactical roll that makes shots at him harder.

The seed names it without its numbers: Dodge "moving under cover is a cumulative action. This means that if he moves
under cover before the Tactical Roll, then he can make cumulative actions during his activation"; Target/X "This
does not cumulate with moving under cover (when they're both bonuses, they of course cumulate when this is a
penalty)"; Leap "Leap cannot be used when moving under cover". Played here (docs/rules/confrontation.md, "Moving
under cover"; numbers in ``data/core_rules.yaml``, **estimated**):

* before each round's Tactical roll, while a side has a free fighter not in rout and the other side a standing
  marksman (the move only changes shots), the sides declare in turn, the side that rolls first: ``cover FIGHTER X,Y``
  (a straight walk of up to MOV / 2, in whole 2.5 cm steps under ``move_steps``, no leap) or ``ready`` (done: the
  keeper's proposal);
* this round every shot at him is +1 difficulty (:func:`~.shooting.target_and_cover`);
* it is an exclusive action: his activation is spent; with Dodge it is cumulative, so he keeps his activation for
  cumulative actions: a shot (the seed's "cumulative firing action"), or holding.
"""

from __future__ import annotations

import math

from rulekeeper.core.game import LegalAction

from .action_types import ByFighter, ToPoint, at, offer
from .core_rules import number
from .report_lines import ReportLine
from .skirmish import STEP_CM, move_problem, step_problem, stepped
from .state import Fighter, SkirmishState, bearing, other, replace

#: A keeper's offer stops this far (cm) short of the nearest enemy's base.
SHORT = 1.0


def cover_cm(f: Fighter) -> float:
    return f.card.MOV / number("under_cover", "divisor")


def may_take_cover(state: SkirmishState, f: Fighter) -> bool:
    """Standing, free, not in rout, not yet moved under cover this round."""
    return f.standing and not f.engaged and not f.rout and not f.covered and not f.activated


def can_declare(state: SkirmishState, side: str) -> bool:
    """A fighter of his may move under cover, and an enemy marksman stands (else the move changes nothing)."""
    return any(g.card.weapon is not None for g in state.standing(other(side))) and any(
        may_take_cover(state, f) for f in state.standing(side))


def declaring(state: SkirmishState) -> str | None:
    """The side declaring moves under cover now: before the round's first Tactical roll, the side that rolls first
    (the last roll's winner), then the other, each until it is ``ready``."""
    if state.phase != "tactical" or state.drawn:
        return None
    return next((s for s in (state.leader, other(state.leader)) if s not in state.declared and can_declare(state, s)),
                None)


def cover_problem(state: SkirmishState, f: Fighter, x: float, y: float) -> str | None:
    if declaring(state) != f.side:
        return f"side {f.side} is not declaring moves under cover now (before the Tactical roll)"
    if not may_take_cover(state, f):
        return f"{f.key} may not move under cover (engaged, in rout, or he already did this round)"
    return move_problem(state, f, x, y, cover_cm(f)) or step_problem(state, math.hypot(x - f.x, y - f.y))


def cover_offers(state: SkirmishState, side: str) -> list[LegalAction]:
    """``ready`` (the keeper's proposal), then for each fighter who may: a careful move toward the nearest enemy,
    as far as it goes (any legal point may be named)."""
    out = [offer(ByFighter("ready", side, _first(state, side)), "Ready: no more moves under "
                 "cover (the keeper's proposal)", side, None, "", "ready", "moving under cover")]
    for f in state.standing(side):
        to = _offer(state, f) if may_take_cover(state, f) else None
        if to is not None:
            dist = math.hypot(to[0] - f.x, to[1] - f.y)
            out.append(offer(ToPoint("cover", side, f.key, at(to)), f"{f.key} moves "
                             f"under cover {dist:.1f} cm (shots at him +{number('under_cover', 'shot_difficulty')}"
                             " this round)", side, round(dist, 1), "", f"under cover {dist:.0f} cm",
                             f"{f.key}: under cover"))
    return out


def _first(state: SkirmishState, side: str) -> str:
    return state.standing(side)[0].key


def _offer(state: SkirmishState, f: Fighter) -> list[float] | None:
    near = state.nearest_enemy(f)
    if near is None:
        return None
    room = min(cover_cm(f), math.hypot(near.x - f.x, near.y - f.y) - f.radius - near.radius - SHORT)
    heading = math.atan2(near.y - f.y, near.x - f.x)
    unit = STEP_CM if stepped(state) else 0.5
    for k in range(math.floor(room / unit + 1e-9), 0, -1):
        to = [round(f.x + k * unit * math.cos(heading), 1), round(f.y + k * unit * math.sin(heading), 1)]
        if cover_problem(state, f, to[0], to[1]) is None:
            return to
    return None


def do_cover(state: SkirmishState, f: Fighter, x: float, y: float) -> tuple[SkirmishState, list[ReportLine]]:
    """The careful walk; his activation is spent, unless Dodge makes it cumulative."""
    dodge = f.card.has("Dodge")
    facing = bearing(f.x, f.y, x, y) if (x, y) != (f.x, f.y) else f.facing
    moved = replace(f, x=x, y=y, facing=facing, covered=True, activated=not dodge, walked=dodge)
    rest = "Dodge: he keeps his activation for a shot" if dodge else "his activation is spent"
    text = f"{f.key} moves under cover {math.hypot(x - f.x, y - f.y):.1f} cm to ({x:g}, {y:g}) ({rest})"
    return state.with_fighters(moved), [{"text": text, "kind": "move"}]


def do_ready(state: SkirmishState, side: str) -> tuple[SkirmishState, list[ReportLine]]:
    state = replace(state, declared=state.declared + side)
    return replace(state, to_act=declaring(state) or state.leader), \
        [{"text": f"{state.name(side)} are ready: no more moves under cover", "kind": "phase"}]


def after_cover(state: SkirmishState) -> SkirmishState:
    """Who acts after a move under cover: the same side while it may declare, else the next declaring side or the
    Tactical roll's roller."""
    return replace(state, to_act=declaring(state) or state.leader)


def settle_turn(state: SkirmishState) -> SkirmishState:
    """Before a round's Tactical roll: the declaring side acts (else the roller)."""
    if state.phase != "tactical" or state.drawn or state.over or state.steeling or state.crying:  # a question of the
        # strategic phase waits (steeling.py, rallying_cry.py)
        return state
    return replace(state, to_act=declaring(state) or state.leader)
