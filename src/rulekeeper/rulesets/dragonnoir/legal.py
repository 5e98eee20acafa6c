"""What is legal now in a Dragon Noir battle, built in parts, each once per state.

Why parts: a search bot's simulation plays the shipped policy and applies its action thousands of times a second,
and the whole list (every character's every step, half-turn, mount, jump; every spell with its odds) was two
fifths of the policy and rebuilt for ``check`` on every state (issue 28, profiled). So the list of a sequence is
its parts in their order — the spells (:func:`spell_part`), then the offensive fire (:func:`fire_part`), or every
character's movement (:func:`mover_part`, his steps first: :func:`step_part`) then the dragon's
(:func:`dragon_part`) and clearing the dead, or the attacks (:func:`attack_part`), and the end of the sequence
(:func:`end_action`) — each kept on the state (``core.memo``); :func:`check` looks an action up in the one part
it can be in, and the bot's ``rollout_policy`` (:mod:`.rollout`) reads only the parts the policy picks from.
The whole list (:func:`legal_actions`) is the same, in the same order, as ever.
"""

from __future__ import annotations

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction
from rulekeeper.core.memo import allows, legal_list, remembered
from rulekeeper.core.wording import counted

from . import bridle, carry, corpses, crossing, dragon, jumps, saddle, sorcery, summons
from .action_types import (
    ACTIONS,
    Attack,
    ByUnit,
    Cast,
    Decide,
    DNAction,
    DragonMove,
    Lead,
    Mount,
    Shoot,
    ToHex,
    offered,
)
from .advance import advance_steps, lying, must_go_on
from .centre import BODY
from .fireodds import cover_words
from .melee import centre_combats, combats
from .placing import place_actions
from .shots import is_shooter, shots, standstill_shots
from .state import DNState, Man, Pending
from .steps import Step, half_turn_cost, steps

_la = offered
#: The kinds of a character's own movement actions (:func:`mover_part`); ``move`` only from :func:`step_part`.
MOVER_KINDS = frozenset({"move", "half_turn", "mount", "dismount", "carry", "fly", "set_down", "jump", "lead"})


def _fire_actions(state: DNState, side: str, defensive: Man | None) -> list[LegalAction]:
    out = []
    for s in state.men:
        if s.side != side or not s.alive or not is_shooter(s):
            continue
        for t, line in shots(state, s, defensive is not None, defensive):
            out.append(_la(Shoot(side, s.name, t.name),
                           f"{s.name} shoots at {t.name}", None, f"{line.band} range, {cover_words(line.cover)}",
                           f"→ {t.name}", f"{s.name}: {'defensive fire' if defensive else 'shoot'}"))
    return out


def step_moves(state: DNState, m: Man) -> tuple[Step, ...]:
    """Every step ``m`` may take now, his own then over friends (the legal list and ``do_move`` both ask)."""
    return remembered(state, (step_moves, m), lambda: (*steps(state, m), *crossing.crossing_steps(state, m)))


def step_part(state: DNState, m: Man) -> tuple[LegalAction, ...]:
    """``m``'s ``move`` actions (one hex each), in the legal list's order."""
    def build() -> tuple[LegalAction, ...]:
        s, g = m.side, f"{m.name}: move"
        return tuple(_la(ToHex("move", s, m.name, st.to), f"{m.name} moves to {st.to}", float(st.cost),
                         f"costs {st.cost} of {counted(m.mp, 'point')}" + (f" ({st.why})" if st.why else ""),
                         f"→ {st.to}", g)
                     for st in step_moves(state, m))

    return remembered(state, (step_part, m), build)


def mover_part(state: DNState, m: Man) -> tuple[LegalAction, ...]:
    """Everything ``m`` may do in his side's movement: steps, half-turn, saddle, carrying, flight, jumps, bridle."""
    return remembered(state, (mover_part, m), lambda: tuple(_move_actions(state, m)))


def _move_actions(state: DNState, m: Man) -> list[LegalAction]:
    s, g = m.side, f"{m.name}: move"
    out = list(step_part(state, m))
    cost = half_turn_cost(state, m)
    if cost is not None:
        out.append(_la(ByUnit("half_turn", s, m.name), f"{m.name} turns his horse about",
                       float(cost), counted(cost, "point"), "half-turn", g))
    out += saddle.saddle_actions(state, m)
    for to, cost, who in carry.carry_steps(state, m):
        out.append(_la(ToHex("carry", s, m.name, to), f"{m.name} picks up {who} on {to}",
                       float(cost), f"{cost} of {counted(m.mp, 'point')}, then the rest halved",
                       f"carry {who} ({to})", g))
    out += [_la(ToHex("fly", s, m.name, to), f"{m.name} flies to {to}", float(m.mp),
                f"all {counted(m.mp, 'point')}: 'They can fly short distances (5 hexes maximum)'", f"fly → {to}", g)
            for to in summons.flights(state, m)]
    return out + carry.set_down_actions(state, m) + jumps.jump_actions(state, m) + bridle.lead_actions(state, m)


def moves_listed(state: DNState, m: Man) -> bool:
    """Whether the legal list of a movement lists ``m``'s actions (a horse alone and the dragon's parts: no)."""
    return m.side == state.side and m.alive and not m.horse and not dragon.is_part(m)


def spell_part(state: DNState) -> tuple[LegalAction, ...]:
    """The spells the side whose player turn it is may cast now (:func:`.sorcery.cast_actions`)."""
    return remembered(state, spell_part, lambda: tuple(sorcery.cast_actions(state)))


def fire_part(state: DNState) -> tuple[LegalAction, ...]:
    """The offensive fire's shots."""
    return remembered(state, fire_part, lambda: tuple(_fire_actions(state, state.side, None)))


def dragon_part(state: DNState) -> tuple[LegalAction, ...]:
    """The Black Dragon's steps in its side's movement."""
    def build() -> tuple[LegalAction, ...]:
        return tuple(_la(DragonMove(state.side, to), f"the Black Dragon moves to {to}", float(cost),
                         f"costs {cost} of {counted(dragon.body(state).mp, 'point')}", f"→ {to}",
                         "Black Dragon body: move")
                     for to, cost in dragon.steps(state))

    return remembered(state, dragon_part, build)


def attack_part(state: DNState) -> tuple[LegalAction, ...]:
    """The combat sequence's attacks (the dragon's centre from a disabled limb's hex last)."""
    return remembered(state, attack_part, lambda: tuple(_attacks(state)))


def _attacks(state: DNState) -> list[LegalAction]:
    s = state.side
    out = []
    for attackers, defenders in combats(state):
        who = " + ".join(attackers)
        out.append(_la(Attack(s, tuple(attackers), tuple(defenders)),
                       f"{who} attack {' + '.join(defenders)}", None, "", f"{who} → {' + '.join(defenders)}",
                       f"{attackers[0]}: attack {' + '.join(defenders)}"))
    for attackers, via in centre_combats(state):
        who = " + ".join(attackers)
        out.append(_la(Attack(s, tuple(attackers), (BODY,), via),
                       f"{who} attack {BODY}, {via[0]} from the disabled limb on {via[1]}", None,
                       f"{via[0]} steps onto {via[1]}, then back", f"{who} → {BODY} from {via[1]}",
                       f"{attackers[0]}: attack {BODY}"))
    return out


def end_action(state: DNState) -> LegalAction:
    """The end of the sequence, the last action of its list."""
    s = state.side
    name = {"fire": "End offensive fire", "move": "End movement", "combat": "End the player turn"}[state.phase]
    return _la(Decide("end_phase", s), f"{state.name(s)}: {name.lower()}", label=name, group="Turn")


def in_sequence(state: DNState) -> bool:
    """Whether the side whose player turn it is decides freely now (no piece to place, no decision owed, nobody
    halfway over a friend): its list is the sequence's parts."""
    return not state.over and not state.placing and state.pending is None and crossing.crosser(state) is None


def _pending_actions(state: DNState, p: Pending) -> list[LegalAction]:
    if p.kind == "counter":
        return sorcery.pending_actions(state, p)
    if p.kind == "magic":
        return sorcery.window_actions(state, p)
    if p.kind == "standstill":
        return [*(_la(Shoot(p.side, s.name, t.name),
                      f"{s.name} shoots at {t.name}", None, f"{line.band} range, {cover_words(line.cover)}; "
                      "he did not move",
                      f"→ {t.name}", f"{s.name}: defensive fire") for s, t, line in standstill_shots(state)),
                _la(Decide("hold", p.side), f"{state.name(p.side)}: no more defensive fire",
                    label="No more defensive fire", group="Defensive fire")]
    if p.kind == "defensive":
        mover = state.man(p.unit)
        return [*_fire_actions(state, p.side, mover),
                _la(Decide("hold", p.side), f"{state.name(p.side)} hold their fire", label="Hold fire",
                    group="Defensive fire")]
    if p.kind == "victim":
        return [_la(ByUnit("take_blow", p.side, n), f"{n} takes the blow", None, p.harm,
                    f"{n}", "Who takes the blow") for n in p.options]
    out = []
    for n in ([p.unit] if p.unit else p.options):
        m = state.man(n)
        for st in advance_steps(state, p, m):
            over = lying(state, st.to, m)
            note = f"over the stunned {over[0].name}: he must step on" if over else "advance after combat"
            out.append(_la(ToHex("advance", p.side, n, st.to),
                           f"{n} advances to {st.to}", None, note, f"→ {st.to}", f"{n}: advance"))
    if must_go_on(state, p):
        return out
    return [*out, _la(Decide("stay", p.side), f"{state.name(p.side)} do not advance", label="Stay",
                      group="Advance after combat")]


def legal_actions(state: DNState) -> list[LegalAction]:
    """Every legal action of the side to decide, built once per state (``check`` and each preview reuse it)."""
    return legal_list(state, _legal_actions)


def _legal_actions(state: DNState) -> list[LegalAction]:
    if state.over:
        return []
    if state.placing:  # a piece the rules just moved: its owner places it first (:mod:`.placing`)
        return place_actions(state)
    if state.pending is not None:
        return _pending_actions(state, state.pending)
    passing = crossing.crosser(state)
    if passing is not None:  # 'only one living character must remain per hex': he steps on before anything else
        return list(step_part(state, passing))
    out: list[LegalAction] = list(spell_part(state))
    if state.phase == "fire":
        out += fire_part(state)
    elif state.phase == "move":
        for m in state.men:
            if moves_listed(state, m):
                out += mover_part(state, m)
        out += dragon_part(state)
        out += corpses.clear_actions(state)
    else:
        out += attack_part(state)
    out.append(end_action(state))
    return out


def part_of(state: DNState, action: DNAction) -> tuple[LegalAction, ...] | None:
    """The one part of the legal list ``action`` can be in, when the side decides freely (None: look in the whole
    list). Only that part can hold an action of its kind (and character): every other part lists other kinds."""
    if not in_sequence(state):
        return None
    match action:
        case Cast():
            return spell_part(state)
        case Decide(kind="end_phase"):
            return (end_action(state),)
        case Shoot() if state.phase == "fire":
            return fire_part(state)
        case Attack() if state.phase == "combat":
            return attack_part(state)
        case DragonMove() if state.phase == "move":
            return dragon_part(state)
        case ToHex() | ByUnit() | Mount() | Lead() if state.phase == "move" and action.kind in MOVER_KINDS:
            m = next((m for m in state.men if m.name == action.unit), None)
            if m is None or not moves_listed(state, m):
                return ()
            return step_part(state, m) if action.kind == "move" else mover_part(state, m)
    return None


def check(state: DNState, action: DNAction) -> None:
    """Refuse (typed, nothing changed) an action that is not one of the legal ones now: its JSON is exactly one
    of the listed JSON objects (looked up in the one part it can be in, :func:`part_of`, or in the whole legal
    list and its index, built once per state, ``core.memo.allows``)."""
    if state.over:
        raise IllegalActionError("the battle is over")
    if action.side != state.to_act:
        raise IllegalActionError(f"it is side {state.to_act}'s decision, not side {action.side!r}'s")
    logged = ACTIONS.encode(action)
    part = part_of(state, action)
    legal = any(lg.action == logged for lg in part) if part is not None else allows(state, logged, _legal_actions)
    if not legal:
        raise IllegalActionError(f"not legal now: {logged!r} (see the legal actions)", action=logged)
