"""Why an action is refused: a typed error naming what and where, for every kind of skirmish action."""

from __future__ import annotations

import math
from collections.abc import Callable

from rulekeeper.core.errors import IllegalActionError

from . import after_ini, before_ini, cure, placing, rallying_cry, steeling
from .accumulators import absorb_problem
from .action_types import (
    Absorb,
    Cast,
    Charge,
    Concentrate,
    Cure,
    Declare,
    Disengage,
    Lead,
    Place,
    Pursue,
    Shoot,
    SkirmishAction,
    Split,
    ToPoint,
)
from .assault import assault_problem
from .authority_uses import may_pass, token_chooser, token_frays
from .concentration import concentrate_problem, points_of
from .concentration import declaring as concentrating
from .cover_move import cover_problem, declaring
from .disengage import allowed_tests, out_problem
from .fear import may_steel
from .flight import flees, pursuers, pursuit_cm, pursuit_targets
from .fray import MAX_FIGHTERS
from .leap import charge_problem, leap_problem, leap_pursuit
from .magic import cast_problem, counterers, pending
from .reaction import reaction_check
from .reinforcement import proposals, spot_problem, waiting_choice
from .shooting import shot_problem
from .skirmish import can_activate, can_charge, group_of, move_problem, step_problem, too_large
from .spells import mystic_rules
from .splitting import split_problem
from .state import Fighter, SkirmishState, other
from .tactical import lead_choices

KINDS = ("move", "charge", "shoot", "hold", "fight", "tactical", "lead", "flee", "pursue", "stay", "remove", "keep",
         "return", "disengage", "split", "leap", "authority", "authority_split", "decline", "pass", "allow", "force",
         "cover", "ready", "cast", "counter", "let", "concentrate", "steady", "absorb", "react", "withhold", "place",
         "declare", "cure")
#: A kind that also belongs to a second phase: Cure as a simple action in an activation (cure.py).
ALSO_IN = {"cure": "activation"}
#: The phase each kind of action belongs to (the rest are the activation phase's).
PHASE_OF = {"fight": "combat", "place": "combat", "declare": "combat", "tactical": "tactical", "authority": "tactical", "lead": "lead", "pursue": "combat",
            "stay": "combat", "split": "combat", "authority_split": "combat", "decline": "combat",
            "cover": "tactical", "ready": "tactical", "concentrate": "combat", "steady": "combat",
            "remove": "maintenance", "keep": "maintenance", "return": "maintenance", "cure": "maintenance"}


def _fighter(state: SkirmishState, name: str, key: str = "fighter") -> Fighter:
    try:
        return state.fighter(name)
    except LookupError:
        raise IllegalActionError(f"no fighter {name!r} in this skirmish", field=key) from None


def _target(state: SkirmishState, action: SkirmishAction) -> Fighter:
    """The fighter a charge, a pursuit, a shot or a spell is aimed at."""
    if not isinstance(action, Charge | Pursue | Shoot | Cast):
        raise IllegalActionError(f"a {action.kind} has no target", field="target")
    return _fighter(state, action.target, "target")


Check = Callable[[SkirmishState, Fighter, SkirmishAction], None]


def check(state: SkirmishState, action: SkirmishAction) -> None:
    """Refuse (typed error naming what and why) an action that is not legal now (its shape is the codec's:
    :mod:`.action_types`)."""
    kind = action.kind
    if state.over:
        raise IllegalActionError("the skirmish is over")
    if action.side != state.to_act:
        raise IllegalActionError(f"it is side {state.to_act}'s turn to act, not {action.side!r}", side=action.side)
    if state.crying:  # Rallying cry, announced or not at the start of a round (rallying_cry.py)
        rallying_cry.check(state, action)
        return
    if state.steeling:  # Resolute on a COU test inside another's action or the rally (steeling.py)
        steeling.check(state, action)
        return
    if state.rapid_flight:  # a fleeing fighter's Rapidity: his opponent's choice (flight.py)
        _check_rapid_flight(state, action)
        return
    f = _fighter(state, action.fighter)
    if f.side != state.to_act:
        raise IllegalActionError(f"{f.key} is not side {state.to_act}'s", field="fighter")
    if state.phase not in (PHASE_OF.get(kind, "activation"), ALSO_IN.get(kind)):
        raise IllegalActionError(f"round {state.round} is in its {state.phase} phase: no {kind} now", kind=kind)
    if before_ini.declaring(state) and kind != "declare":
        now = before_ini.pending(state)
        what = "its declarations" if now is None else f"{now.fighter.key}'s {now.ability}"
        raise IllegalActionError(f"the fight of {state.before_ini[1]} waits for {what} to be declared before its INI "
                                 "test (declare FIGHTER N)", kind=kind)
    after = after_ini.pending(state)  # an announcement after the INI test (after_ini.py)
    if kind == "declare" and not before_ini.declaring(state) and after is None:
        raise IllegalActionError("no fight is waiting for a declaration now", kind=kind)
    if after is not None and kind != "declare":
        raise IllegalActionError(f"the fight of {state.placing[1]} waits for {after.fighter.key}'s {after.ability} to be "
                                 "announced (declare FIGHTER yes|no)", kind=kind)
    if state.placing and kind not in ("place", "declare"):
        raise IllegalActionError(f"the fight of {state.placing[1]} waits for its combat dice to be placed (place "
                                 "FIGHTER N)", kind=kind)
    if kind == "place" and not state.placing:
        raise IllegalActionError("no fight is waiting for its combat dice now", kind=kind)
    if state.reacting and kind not in ("react", "withhold"):
        raise IllegalActionError(f"{state.reacting[0]}'s charge waits for {state.reacting[1]}'s reaction fire (react, "
                                 "or withhold)", kind=kind)
    if kind in ("fight", "split") and concentrating(state) is not None:
        raise IllegalActionError(f"side {concentrating(state)} declares Concentration before the next fight "
                                 "(concentrate FIGHTER ATT N …, or steady)", kind=kind)
    CHECKS.get(kind, _check_activation)(state, f, action)


def _check_nothing(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    """Nothing more to check (holding, fleeing)."""


def _check_tactical(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    """The Tactical roll waits for the moves under cover declared before it."""
    side = declaring(state)
    if side is not None:
        raise IllegalActionError(f"side {side} declares its moves under cover before the Tactical roll (cover "
                                 "FIGHTER X,Y, or ready)", kind="tactical")


def _check_cover(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if action.kind == "ready":
        if declaring(state) != f.side:
            raise IllegalActionError(f"side {f.side} is not declaring moves under cover now", kind="ready")
        return
    x, y = _to(action, "a move under cover goes")
    problem = cover_problem(state, f, x, y)
    if problem is not None:
        raise IllegalActionError(f"{f.key} cannot move under cover to ({x:g}, {y:g}): {problem}", field="to")


def _check_authority(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if not state.drawn:
        raise IllegalActionError("an Authority token wins a Tactical roll that was a draw: no draw to break now",
                                 kind="authority")


def _check_rapid_flight(state: SkirmishState, action: SkirmishAction) -> None:
    """Rapidity "can be used by a fighter when routing, but its usage is subject to the opponent's choice"."""
    key = state.rapid_flight
    if not isinstance(action, Declare) or action.fighter != key or action.ability != "Rapidity":
        raise IllegalActionError(f"{key}'s flight waits for side {state.to_act}'s choice on his Rapidity (declare "
                                 f"{key} yes|no)", kind=action.kind)
    if action.value not in (0, 1):
        raise IllegalActionError(f"{key}'s Rapidity: 1 (he runs with it) or 0, not {action.value}", field="value")


def _check_cure(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    """Whom a curer cures (cure.py): as his activation (a simple action), or in the maintenance phase once every
    Reinforcement choice is made."""
    if state.phase == "activation":
        _check_activation(state, f, action)
        if isinstance(action, Cure):
            cure.check_simple(state, f, action)
        return
    chooser = waiting_choice(state)
    if chooser is not None:
        raise IllegalActionError(f"{chooser.key}'s Reinforcement choice comes first", kind="cure")
    if isinstance(action, Cure):
        cure.check(state, action)


def _check_reinforcement(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    kind = action.kind
    chooser = waiting_choice(state)
    if chooser is None or chooser.key != f.key:
        raise IllegalActionError(f"{f.key} has no Reinforcement choice to make", field="fighter")
    if (kind == "return" and f.returning != "place") or (kind == "remove" and f.returning != "remove?") or \
            (kind == "keep" and f.returning == "place" and proposals(state, f)):
        raise IllegalActionError(f"{f.key}'s Reinforcement roll does not allow a {kind}", kind=kind)
    if kind == "return":
        x, y = _to(action, "a return goes")
        problem = spot_problem(state, f, x, y)
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot come back there: {problem}", field="to")


def _check_lead(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    first = action.first if isinstance(action, Lead) else None
    if first not in lead_choices(state):
        raise IllegalActionError(f"the side that acts first is A or B, got {first!r}", field="first")


def _check_pursuit(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if not f.pursuing:
        raise IllegalActionError(f"{f.key} has no pursuit movement to make now", field="fighter")
    if isinstance(action, Pursue) and action.leap:
        t = _target(state, action)
        problem = None if t.side != f.side and t.standing and not t.engaged else f"{t.key} is not a free enemy"
        problem = problem or leap_pursuit(state, f, t)[2]
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot pursue {t.key} leaping: {problem}", field="target")
    elif isinstance(action, Pursue):
        t = _target(state, action)
        if t.key not in {e.key for e, _ in pursuit_targets(state, f)}:
            raise IllegalActionError(f"{f.key} cannot pursue {t.key}: a pursuit movement of {pursuit_cm(f):g} cm "
                                     "goes into contact with a free enemy in sight", field="target")


def _check_fight(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if pursuers(state):
        raise IllegalActionError(f"{pursuers(state)[0].key} makes his pursuit movement first", field="fighter")
    group = group_of(state, f)
    if group is None:
        raise IllegalActionError(f"{f.key} has no fight left this round", field="fighter")
    if too_large(group):
        raise IllegalActionError(f"{f.key}'s fray holds {len(group[0]) + len(group[1])} fighters, more than "
                                 f"{MAX_FIGHTERS}: split it first", field="fighter")


def _to(action: SkirmishAction, what: str) -> tuple[float, float]:
    """The action's ``to``: two finite numbers of cm (the codec checked them: :mod:`.action_types`)."""
    if not isinstance(action, ToPoint | Disengage):
        raise IllegalActionError(f"{what} to [x, y] in cm, got none", field="to")
    return action.to


def _check_activation(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    """An activation's action: his turn, then the rules of its kind."""
    kind = action.kind
    aiming = [g for g in state.fighters if g.aiming and g.standing]
    if aiming and (aiming[0].key != f.key or kind not in ("shoot", "hold")):
        raise IllegalActionError(f"{aiming[0].key} walked and may still shoot: his activation is not over",
                                 field="fighter")
    if not aiming and not can_activate(state, f):
        why = "is engaged (he fights in the combat phase)" if f.engaged else "has already acted this round"
        raise IllegalActionError(f"{f.key} {why}" if f.standing else f"{f.key} is dead", field="fighter")
    if f.covered and not f.activated and kind not in ("shoot", "hold"):
        raise IllegalActionError(f"{f.key} moved under cover with Dodge: his activation allows only cumulative actions "
                                 "(a shot) or holding", kind=kind)
    if f.engaged and kind not in ("disengage", "hold"):

        raise IllegalActionError(f"{f.key} is engaged: he may try to disengage or stay in his fight", field="fighter")
    if kind == "disengage":
        _check_disengage(state, f, action)
        return
    if flees(f) != (kind == "flee"):
        why = "is in rout: his activation is his flight" if flees(f) else "is not in rout: he does not flee"
        raise IllegalActionError(f"{f.key} {why}", field="fighter")
    ACTIVATION_CHECKS.get(kind, _check_nothing)(state, f, action)


def _check_disengage(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if not f.engaged:
        raise IllegalActionError(f"{f.key} is not engaged: he has nothing to disengage from", field="fighter")
    test = action.test if isinstance(action, Disengage) else None
    if test not in allowed_tests(state, f):
        raise IllegalActionError(f"{f.key} disengages with {' or '.join(allowed_tests(state, f))}, not "
                                 f"{test!r}", field="test")
    x, y = _to(action, "a disengagement walks")
    problem = out_problem(state, f, x, y)
    if problem is not None:
        raise IllegalActionError(f"{f.key} cannot walk out to ({x:g}, {y:g}): {problem}", field="to")


def _enemy(state: SkirmishState, f: Fighter, action: SkirmishAction) -> Fighter:
    t = _target(state, action)
    if t.side == f.side or not t.standing:
        raise IllegalActionError(f"{t.key} is not a standing enemy of {f.key}", field="target")
    return t


def _check_charge(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    t = _enemy(state, f, action)
    if not can_charge(f):
        raise IllegalActionError(f"{f.key} is in rout: he does not charge", field="fighter")
    leap = isinstance(action, Charge) and bool(action.leap)
    if isinstance(action, Charge) and action.resolute is not None and not (action.resolute is True
                                                                            and may_steel(state, f, t)):
        raise IllegalActionError(f"{f.key} cannot spend Resolute on this charge's COU test (he needs Resolute unspent "
                                 f"this round and a COU test against {t.key}'s FEAR; resolute is true or absent)",
                                 field="resolute")
    problem = charge_problem(state, f, t, leap)
    if problem is not None:
        raise IllegalActionError(f"{f.key} cannot charge {t.key}{' leaping' * leap}: {problem}", field="target")
    assault = action.assault if isinstance(action, Charge) else None
    if assault is not None:
        problem = "an assault fire is made on a charge that does not leap" if leap else \
            "assault is true or absent" if assault is not True else assault_problem(state, f, t)
        if problem is not None:
            raise IllegalActionError(f"{f.key} cannot fire as he charges {t.key}: {problem}", field="assault")


def _check_shoot(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    t = _enemy(state, f, action)
    problem = shot_problem(state, f, t)
    if problem is not None:
        raise IllegalActionError(f"{f.key} cannot shoot {t.key}: {problem}", field="target")


def _check_token_split(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    """A token spent on a fray of his: at the beginning of the combat phase, a split the keeper could offer."""
    if token_chooser(state) != f.side:
        raise IllegalActionError(f"side {f.side} has no Authority token to spend on a fray now", kind="authority_split")
    group = next((g for g in token_frays(state, f.side) if f.key in {h.key for h in (*g[0], *g[1])}), None)
    if group is None:
        raise IllegalActionError(f"{f.key} is in no fray of three or more left to split", field="fighter")
    apart = list(action.apart) if isinstance(action, Split) else []
    keys = {h.key for h in (*group[0], *group[1])}
    problem = split_problem(state, keys, set(apart)) if apart else \
        f"{len(keys)} fighters are too many for one fray" if too_large(group) else None
    if problem is not None:
        raise IllegalActionError(f"cannot split {' and '.join(apart) or 'nothing'} off {f.key}'s fray: {problem}",
                                 field="apart")


def _check_decline(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if token_chooser(state) != f.side:
        raise IllegalActionError(f"side {f.side} has no Authority token to decline now", kind="decline")


def _check_pass(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if state.phase != "activation" or not may_pass(state, f.side):
        raise IllegalActionError(f"side {f.side} cannot pass now (the other side has no fighter waiting, or it just "
                                 "passed, or it was forced to play)", kind="pass")


def _check_answer(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    if state.asking != other(f.side):
        raise IllegalActionError(f"no pass of side {other(f.side)} waits for an answer", kind=action.kind)


def _check_cast(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    spell = action.spell if isinstance(action, Cast) else ""
    card = mystic_rules().card(spell)
    if card is None:
        names = ", ".join(c.name for c in mystic_rules().cards)
        raise IllegalActionError(f"no spell or miracle {spell!r} (known: {names})", field="spell")
    t = _target(state, action)
    problem = cast_problem(state, f, card, t)
    if problem is not None:
        raise IllegalActionError(f"{f.key} cannot {card.verb[:-1]} {card.name} on {t.key}: {problem}", field="target")


def _check_counter(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    found = pending(state)
    if found is None or found[0].side == f.side:
        raise IllegalActionError(f"no spell or miracle of side {other(f.side)} waits for a counter", field="fighter")
    if action.kind == "counter" and f.key not in {e.key for e in counterers(state, found[0], found[1])}:
        raise IllegalActionError(f"{f.key} cannot counter {found[1].name} (a Mystic of its kind within "
                                 f"{mystic_rules().counter_range:g} cm of the caster, with {found[1].cost} "
                                 f"{found[1].reserve})", field="fighter")


def _check_walk(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    leap = action.kind == "leap"
    x, y = _to(action, "a move goes")
    problem = leap_problem(state, f, x, y) if leap else \
        move_problem(state, f, x, y) or step_problem(state, math.hypot(x - f.x, y - f.y))
    if problem is not None:
        raise IllegalActionError(f"{f.key} cannot {'leap' if leap else 'walk'} to ({x:g}, {y:g}): {problem}",
                                 field="to")


def _check_split(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    group = group_of(state, f)
    if group is None:
        raise IllegalActionError(f"{f.key} has no fight left this round", field="fighter")
    apart = list(action.apart) if isinstance(action, Split) else []
    if not apart:
        raise IllegalActionError(f"a split names the fighters it splits off, got {apart!r}", field="apart")
    for k in apart:
        _fighter(state, k)
    if any(g.key in state.settled for g in (*group[0], *group[1])):
        raise IllegalActionError(f"an Authority token chose how {f.key}'s fray is split", field="fighter")
    problem = split_problem(state, {g.key for g in (*group[0], *group[1])}, set(apart))
    if problem is not None:
        raise IllegalActionError(f"cannot split {' and '.join(apart)} off {f.key}'s fray: {problem}", field="apart")


def _check_declare(state: SkirmishState, f: Fighter, action: SkirmishAction) -> None:
    """A declaration before the INI test (before_ini.py) or an announcement after it (after_ini.py)."""
    if isinstance(action, Declare):
        (after_ini.check if after_ini.pending(state) is not None else before_ini.check)(state, action)


#: The checks of the phases' kinds (the rest are activations: :func:`_check_activation`).
CHECKS: dict[str, Check] = {"place": lambda s, f, a: placing.check(s, a) if isinstance(a, Place) else None,
                            "declare": _check_declare,
                            "tactical": _check_tactical, "cover": _check_cover, "ready": _check_cover, "authority": _check_authority, "lead": _check_lead,
                            "remove": _check_reinforcement, "keep": _check_reinforcement, "cure": _check_cure,
                            "return": _check_reinforcement, "pursue": _check_pursuit, "stay": _check_pursuit,
                            "fight": _check_fight, "split": _check_split, "authority_split": _check_token_split,
                            "decline": _check_decline, "pass": _check_pass, "allow": _check_answer,
                            "force": _check_answer, "counter": _check_counter, "let": _check_counter,
                            "react": lambda s, f, a: _refuse(reaction_check(s, f), "no reaction fire", "fighter"),
                            "withhold": lambda s, f, a: _refuse(reaction_check(s, f), "no reaction fire", "fighter"),
                            "concentrate": lambda s, f, a: _refuse(concentrate_problem(s, f, _points(a)),
                                                                   f"{f.key} cannot concentrate", "points"),
                            "steady": lambda s, f, a: _refuse(None if concentrating(s) == f.side else
                                                              f"side {f.side} is not declaring Concentration now",
                                                              "no steady", "kind")}


def _points(action: SkirmishAction) -> dict[str, int]:
    """Concentration's points, checked (at least one, each on a characteristic a fight reads)."""
    return points_of(action.points.given() if isinstance(action, Concentrate) else None)


def _donors(action: SkirmishAction) -> list[str]:
    """The friends an absorb names."""
    return list(action.from_) if isinstance(action, Absorb) else []


def _refuse(problem: str | None, what: str, field: str) -> None:
    if problem is not None:
        raise IllegalActionError(f"{what}: {problem}", field=field)
#: The checks of an activation's kinds, once it is his turn (hold and flee need nothing more).
ACTIVATION_CHECKS: dict[str, Check] = {"absorb": lambda s, f, a: _refuse(absorb_problem(s, f, _donors(a)),
                                                                  f"{f.key} cannot absorb", "from"),
                                       "cast": _check_cast, "charge": _check_charge, "shoot": _check_shoot, "move": _check_walk,
                                       "leap": _check_walk}
