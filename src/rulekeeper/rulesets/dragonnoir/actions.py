"""The actions of a Dragon Noir battle: what is legal now, what each does, and its odds beforehand.

Actions are typed (:mod:`.action_types`: :class:`~.action_types.Shoot`, :class:`~.action_types.ToHex`,
:class:`~.action_types.Attack`...), each with its ``side``, and their one JSON codec
:data:`~.action_types.ACTIONS` gives the log, the API and the web form the same JSON objects as ever:

* offensive fire: ``shoot`` (``unit``, ``target``), then ``end_phase``;
* movement: ``move`` (``unit`` one hex ``to``), ``half_turn`` (a horseman), ``mount``, ``dismount``
  (``to``: the hex the rider steps down on), ``clear`` (two characters move the dead off hex ``frm`` onto ``to``:
  :mod:`.corpses`), ``carry`` / ``set_down`` (a stunned man: :mod:`.carry`), ``jump`` (a horseman over water or a
  crevasse: :mod:`.jumps`), ``lead`` (a horse by the bridle: :mod:`.bridle`), ``fly`` (a Gargoyle's whole
  movement, ``to`` at most 5 hexes away: :mod:`.summons`), then ``end_phase``;
* defensive fire, owed by the other side when a mover enters a hex in sight of its shooters:
  ``shoot`` (``unit`` at the mover) or ``hold`` (let him go on); and when the moving side ends its movement, at the
  characters who stood still (``standstill``): ``shoot`` (``unit`` at ``target``) or ``hold`` (no more defensive
  fire: the combat begins);
* combat: ``attack`` (``units`` against ``targets``; ``via`` for the dragon's centre from a disabled limb's hex:
  :mod:`.centre`), then ``end_phase`` (stunned characters recover and
  the other side's player turn begins);
* after a combat: ``take_blow`` (the defenders' side picks who takes a blow), ``advance`` (one hex at a
  time) or ``stay``;
* ``place`` (``unit``, ``to``): where a retreating, unhorsed or pushed piece goes, its owner's choice
  (:mod:`.placing`), before anything else.

* the Black Dragon (:mod:`.dragon`): ``dragon_move`` (its centre one hex ``to``), in its side's movement;
* magic (:mod:`.sorcery`): ``cast`` (``unit``: the wizard, ``spell``, ``target``) in any sequence of his
  side's player turn, or in the magic window the other side is offered at the start of each enemy sequence
  (``cast`` or ``no_spell``); answered by the other side's ``counter``, ``let_be`` or a rival ``cast`` on the
  same character or hex (the initiative: most EP first).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rulekeeper.core.chance import Fate
from rulekeeper.core.game import OddsPreview
from rulekeeper.core.wording import counted, possessive

from . import bridle, carry, corpses, dragon, jumps, saddle, sorcery, summons
from .action_types import Attack, ByUnit, Cast, Clear, Decide, DNAction, DragonMove, Lead, Mount, Shoot, ToHex
from .advance import advance_steps, owes_roll
from .centre import fight_via, staged
from .harm import hurt, never_retreats
from .legal import check, legal_actions, step_moves
from .magic import CastOdds
from .melee import ADVANCE, fight, odds, take_blow
from .placing import place
from .report import Lines
from .shots import defensive_shooters, resolve_shot, shot_odds, standstill_shots
from .state import DNState, Man, Pending, other
from .steps import Step, infiltration_request, must_roll, turned
from .turns import end_phase

__all__ = ["check", "do_move", "end_movement", "legal_actions", "perform", "preview"]


# -- what each action does ----------------------------------------------------------------------------------


def _infiltrate(state: DNState, m: Man, fate: Fate) -> tuple[DNState, Lines, bool]:
    """The infiltration roll of leaving a crossed hex next to the enemy, if owed; True when the movement ends."""
    if not must_roll(state, m):
        return state, [], False
    die, result = fate.draw(infiltration_request(m)).outcome.split("→")
    lines: Lines = [{"text": f"{m.name} slips past the enemy from {m.hex}: die {die} rolls {result}", "kind": "roll"}]
    if result == "stopped":
        return state.with_men(replace(m, mp=0)), lines, True
    if result == "stunned":
        state, more = hurt(state, m.name, "stunned", [])
        return state.with_men(replace(state.man(m.name), mp=0)), lines + more, True
    return state, lines, False


def do_move(state: DNState, action: ToHex, fate: Fate) -> tuple[DNState, Lines]:
    """One step (``move``), one step that lifts the stunned man on the hex entered (``carry``), a jump, or a
    Gargoyle's flight (``fly``: no infiltration die, it has not stepped yet)."""
    m = state.man(action.unit)
    if action.kind == "carry":
        to, cost, _ = next(c for c in carry.carry_steps(state, m) if c[0] == action.to)
        step = Step(to, (to,), None, cost)
    elif action.kind == "move":
        step = next(st for st in step_moves(state, m) if st.to == action.to)
    state, lines, ended = _infiltrate(state, m, fate)
    if ended:
        return state, lines
    if action.kind == "jump":
        state, more = jumps.jump(state, m.name, fate)
        moved = state.man(m.name)
        lines += more
        state, more = bridle.let_go(state, m.name, "he jumps")
        lines += more
        if not moved.mounted:
            return state, lines
    elif action.kind == "fly":
        moved = summons.flown(m, action.to)
        lines.append({"text": f"{m.name} flies {m.hex} → {moved.hex} (all {counted(m.mp, 'point')})", "kind": "move"})
    elif action.kind == "carry":
        moved, who = carry.picked_up(state, m, step.to, step.cost)
        lines.append({"text": f"{m.name} moves {m.hex} → {step.to} ({counted(step.cost, 'point')}) and lifts "
                              f"{who.name} onto his back: {m.mp - step.cost} left halved = {moved.mp}", "kind": "move"})
    else:
        moved = replace(m, hexes=step.hexes, facing=step.facing, mp=m.mp - step.cost, steps=m.steps + 1, moved=True)
        lines.append({"text": f"{m.name} moves {m.hex} → {step.to} ({counted(step.cost, 'point')}, {moved.mp} left)",
                      "kind": "move"})
    state = carry.follow(state.with_men(moved), moved)
    state, more = bridle.follow(state, m)
    lines += more
    if defensive_shooters(state, moved):
        state = replace(state, pending=Pending("defensive", other(m.side), m.name))
        lines.append({"text": f"  {m.name} is in sight of {possessive(state.name(other(m.side)))} shooters (defensive fire)",
                      "kind": "note"})
    return state, lines


def end_movement(state: DNState) -> tuple[DNState, Lines]:
    """The moving side ends its movement: the carried are set down ("At the end of the movement, he sets the stunned
    character down"); then, while a shot is possible at a character who stood still, the other side owes a
    ``standstill`` decision (shoot or hold) before the combat begins; else the combat begins at once."""
    state, lines = carry.settle(state, everyone=True)
    if standstill_shots(state):
        them = other(state.side)
        return replace(state, pending=Pending("standstill", them)), lines + [
            {"text": f"{state.name(state.side)} end their movement; {state.name(them)} may fire defensively at the "
                     "characters who did not move", "kind": "note"}]
    state, more = end_phase(state)
    return state, lines + more


def do_shoot(state: DNState, action: Shoot, fate: Fate) -> tuple[DNState, Lines]:
    defensive = state.pending is not None
    state, lines = resolve_shot(state, action.unit, action.target, defensive, fate)
    if defensive and state.pending is not None and state.pending.kind == "standstill":
        if standstill_shots(state):
            return state, lines
        state, more = end_phase(replace(state, pending=None))
        return state, lines + more
    if defensive:
        mover = state.man(state.pending.unit)  # type: ignore[union-attr]
        if not mover.standing:
            state = state.with_men(replace(mover, mp=0))
        if not mover.standing or not defensive_shooters(state, mover):
            state = replace(state, pending=None)
    return state, lines


def do_advance(state: DNState, action: ToHex, fate: Fate) -> tuple[DNState, Lines]:
    """One hex of the advance after combat; under ``advance_infiltration=on`` leaving a hex entered during the
    advance next to an enemy who is not engaged costs the infiltration roll first (:func:`.advance.owes_roll`)."""
    p = state.pending
    assert p is not None
    m = state.man(action.unit)
    step = next(st for st in advance_steps(state, p, m) if st.to == action.to)
    lines: Lines = []
    if owes_roll(state, p, m):
        die, result = fate.draw(infiltration_request(m)).outcome.split("→")
        lines.append({"text": f"{m.name} slips past the enemy from {m.hex}: die {die} rolls {result}", "kind": "roll"})
        if result != "pass":  # stopped, or stunned there: the advance ends on the hex he stands on
            if result == "stunned":
                state, more = hurt(state, m.name, "stunned", [])
                lines += more
            state = replace(state, pending=None) if state.pending == p else state
            return state, lines + [{"text": f"  {m.name}'s advance ends on {m.hex}", "kind": "note"}]
    left = (p.left if p.unit else ADVANCE[m.mounted]) - 1
    state = state.with_men(replace(m, hexes=step.hexes, facing=step.facing))
    pending = replace(p, unit=m.name, left=left) if left > 0 else None
    return replace(state, pending=pending), lines + [{"text": f"{m.name} advances {m.hex} → {step.to}",
                                                      "kind": "move"}]


def perform(state: DNState, action: DNAction, fate: Fate) -> tuple[DNState, Lines]:
    """Apply one legal action; then a carrier knocked down drops his load (:mod:`.carry`)."""
    first: Lines = []
    if isinstance(action, Attack):  # "automatically loses control of the latter if he is involved in a combat"
        for n in (*action.units, *action.targets):
            if state.man(n).mounted:
                state, more = bridle.let_go(state, n, "he is involved in a combat")
                first += more
    state, lines = _perform(state, action, fate)
    state, more = carry.settle(state)
    state, held = bridle.settle(state)
    return state, first + lines + more + held


def _perform(state: DNState, action: DNAction, fate: Fate) -> tuple[DNState, Lines]:
    match action:
        case ToHex(kind="move" | "carry" | "jump" | "fly"):
            return do_move(state, action, fate)
        case ToHex(kind="set_down"):
            return carry.set_down(state, action.unit, action.to)
        case ToHex(kind="dismount") | Mount():
            return saddle.do_mounting(state, action)
        case ToHex(kind="advance"):
            return do_advance(state, action, fate)
        case ToHex(kind="place"):
            return place(state, action.unit, action.to)
        case Lead():
            return bridle.take(state, action.unit, action.horse)
        case Shoot():
            return do_shoot(state, action, fate)
        case ByUnit(kind="half_turn"):
            m = turned(state, state.man(action.unit))
            return state.with_men(m), [{"text": f"{m.name} turns about ({'-'.join(m.hexes)})", "kind": "move"}]
        case ByUnit(kind="take_blow"):
            return take_blow(state, action.unit)
        case Attack(via=None):
            return fight(state, list(action.units), list(action.targets), fate)
        case Attack():
            return fight_via(state, action, fate)
        case Cast():
            return sorcery.cast(state, action, fate)
        case DragonMove():
            return dragon.move(state, action.to)
        case Clear():
            return corpses.clear(state, action)
        case ByUnit(kind="counter") | Decide(kind="let_be" | "no_spell"):
            return sorcery.answer(state, action, fate)
        case Decide(kind="hold"):
            return _hold(state)
        case Decide(kind="stay"):
            return replace(state, pending=None), [{"text": "no advance after combat", "kind": "note"}]
    if state.phase == "move":
        return end_movement(state)
    return end_phase(state)


def _hold(state: DNState) -> tuple[DNState, Lines]:
    """No more defensive fire: at a mover (he goes on), or at those who stood still (the combat begins)."""
    held: Lines = [{"text": f"{state.name(state.to_act)} hold their fire", "kind": "note"}]
    if state.pending is not None and state.pending.kind == "standstill":
        state, more = end_phase(replace(state, pending=None))
        return state, held + more
    return replace(state, pending=None), held


# -- odds before the roll -----------------------------------------------------------------------------------


def _magic_preview(rolled: CastOdds | None) -> OddsPreview:
    """A spell's odds in words: whether the counter stops it, and whether it takes effect in all (the counter
    fails, then the caster's die succeeds: ``CastOdds.p_applied``). The headline used to be each die's label with
    its chance of success, and "spell die (Shaman: Raise the Living Deads) 60.0 %" beside a counter read as if
    the counter did not matter (played as a user)."""
    if rolled is None:  # a cast that waits for the enemy's answer rolls nothing yet
        return OddsPreview()
    spell = f"{rolled.cast.wizard}'s {rolled.spell_name}"
    headline: tuple[tuple[str, float | str], ...] = ((f"{spell} takes effect", float(rolled.p_applied)),)
    if rolled.counter is not None:  # the three ways it ends, so that they add up (they read 50 % + 40 %: and?)
        fails = 1 - rolled.p_countered - rolled.p_applied
        headline = ((f"{rolled.counter.wizard}'s counter stops it", float(rolled.p_countered)),) + headline + \
            ((f"{spell} fails on its own die", float(fails)),)
    return OddsPreview(headline, rolled.requests)


def _p(letters: dict[str, Fraction], wanted: str) -> float:
    return float(sum((p for k, p in letters.items() if k in wanted), Fraction(0)))


def preview(state: DNState, action: DNAction) -> OddsPreview:
    """The exact odds and the very request the resolution draws first (of a legal action: :func:`check`)."""
    match action:
        case Shoot():
            o = shot_odds(state, action.unit, action.target)
            return OddsPreview((("hit", 1.0 - _p(o.letters, "A")), ("killed (F)", _p(o.letters, "F"))),
                               (o.request,))
        case Attack():
            c = odds(staged(state, action.via), list(action.units), list(action.targets))
            headline: tuple[tuple[str, float | str], ...] = (("ratio", c.column_name),
                                                              ("defender hurt", _p(c.letters, "DEFGH")))
            if not all(never_retreats(state.man(n)) for n in action.units):  # "the dragon never retreats"
                headline += (("attackers retreat", _p(c.letters, "B")),)
            return OddsPreview(headline, (c.request,))
        case Cast() | ByUnit(kind="counter") | Decide(kind="let_be"):
            return _magic_preview(sorcery.odds_for(state, action))
        case ToHex(kind="advance") if state.pending is not None and owes_roll(state, state.pending,
                                                                              state.man(action.unit)):
            req = infiltration_request(state.man(action.unit))
            return OddsPreview((("slips past", sum(p for o, p in req.odds() if o.endswith("→pass"))),), (req,))
        case ToHex(kind="move" | "carry" | "jump"):
            return _step_preview(state, state.man(action.unit), action.kind == "jump")
    return OddsPreview()


def _step_preview(state: DNState, m: Man, jump: bool) -> OddsPreview:
    if must_roll(state, m):  # the jump's die, if any, comes after and only if he slips past
        req = infiltration_request(m)
        passes = sum(p for o, p in req.odds() if o.endswith("→pass"))
        return OddsPreview((("slips past", passes),), (req,))
    if jump:
        req = jumps.jump_request(state, m)
        return OddsPreview((("cleared", sum(p for o, p in req.odds() if o.endswith("→cleared"))),), (req,))
    return OddsPreview()
