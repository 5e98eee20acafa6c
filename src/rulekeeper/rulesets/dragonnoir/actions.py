"""The actions of a Dragon Noir battle: what is legal now, what each does, and its odds beforehand.

Actions are plain JSON dicts, each with its ``side``:

* offensive fire: ``shoot`` (``unit``, ``target``), then ``end_phase``;
* movement: ``move`` (``unit`` one hex ``to``), ``half_turn`` (a horseman), ``mount``, ``dismount``
  (``to``: the hex the rider steps down on), ``clear`` (two characters move the dead off hex ``frm`` onto ``to``:
  :mod:`.corpses`), then ``end_phase``;
* defensive fire, owed by the other side when a mover enters a hex in sight of its shooters:
  ``shoot`` (``unit`` at the mover) or ``hold`` (let him go on);
* combat: ``attack`` (``units`` against ``targets``), then ``end_phase`` (stunned characters recover and
  the other side's player turn begins);
* after a combat: ``take_blow`` (the defenders' side picks who takes a blow), ``advance`` (one hex at a
  time) or ``stay``.

* the Black Dragon (:mod:`.dragon`): ``dragon_move`` (its centre one hex ``to``), in its side's movement;
* magic (:mod:`.sorcery`): ``cast`` (``unit``: the wizard, ``spell``, ``target``) in any sequence of his
  side's player turn, answered by the other side's ``counter`` or ``let_be`` when its wizard can counter.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError, ImpossibleRequestError
from rulekeeper.core.game import JsonDict, LegalAction, OddsPreview

from . import corpses, dragon, sorcery
from .data import shipped_sheet
from .fighters import can_enter
from .harm import hurt, movement_of
from .melee import ADVANCE, combats, fight, odds, take_blow
from .movement import dismount, mount
from .shots import defensive_shooters, is_shooter, resolve_shot, shot_odds, shots
from .state import DNState, Man, Pending, character_of, fighter_of, other
from .steps import free_for, half_turn_cost, infiltration_request, must_roll, steps, threats, turned
from .turns import end_phase

KINDS = ("shoot", "hold", "move", "half_turn", "mount", "dismount", "attack", "take_blow", "advance", "stay",
         "cast", "counter", "let_be", "dragon_move", "clear", "end_phase")
Lines = list[JsonDict]


def _la(action: JsonDict, text: str, cost: float | None = None, note: str = "", label: str = "",
        group: str = "") -> LegalAction:
    return LegalAction(action, text, str(action["side"]), cost, note, label, group)


# -- what is legal ------------------------------------------------------------------------------------------


def _fire_actions(state: DNState, side: str, defensive: Man | None) -> list[LegalAction]:
    out = []
    for s in state.men:
        if s.side != side or not s.alive or not is_shooter(s):
            continue
        for t, line in shots(state, s, defensive is not None, defensive):
            out.append(_la({"kind": "shoot", "side": side, "unit": s.name, "target": t.name},
                           f"{s.name} shoots at {t.name}", None, f"{line.band} range, {line.cover} cover",
                           f"→ {t.name}", f"{s.name}: {'defensive fire' if defensive else 'shoot'}"))
    return out


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


def horse_of(state: DNState, m: Man) -> Man | None:
    try:
        h = state.man(f"{m.character}'s horse")
    except KeyError:
        return None
    return h if h.alive and h.side == m.side else None


def can_mount(state: DNState, m: Man) -> int | None:
    """Points left mounted after mounting now (None: he may not): next to his own living horse, neither of them
    next to an enemy in a position to attack ('Neither the horseman nor the horse may be adjacent to an enemy')."""
    h = horse_of(state, m)
    if m.mounted or not m.standing or h is None or character_of(m.character).horseman is None:
        return None
    board = state.board
    if not any(board.parse(x) in board.neighbours(board.parse(m.hex)) for x in h.hexes):
        return None
    if any(threats(state, m, x) for x in (m.hex, *h.hexes)):
        return None
    try:
        return mount(shipped_sheet(), fighter_of(state, m), movement_of(m) - m.mp).left
    except ImpossibleRequestError:  # not enough points left to mount
        return None


def _move_actions(state: DNState, m: Man) -> list[LegalAction]:
    s, g = m.side, f"{m.name}: move"
    out = [_la({"kind": "move", "side": s, "unit": m.name, "to": st.to}, f"{m.name} moves to {st.to}", float(st.cost),
               f"{st.cost} of {m.mp} points" + (f" ({st.why})" if st.why else ""), f"→ {st.to}", g)
           for st in steps(state, m)]
    cost = half_turn_cost(state, m)
    if cost is not None:
        out.append(_la({"kind": "half_turn", "side": s, "unit": m.name}, f"{m.name} turns his horse about",
                       float(cost), f"{cost} points", "half-turn", g))
    if m.mounted and m.standing:
        try:
            conv = dismount(shipped_sheet(), fighter_of(state, m), movement_of(m) - m.mp)
        except ImpossibleRequestError:  # not enough points left to dismount
            conv = None
        if conv is not None:
            for h in _dismount_hexes(state, m):
                out.append(_la({"kind": "dismount", "side": s, "unit": m.name, "to": h},
                               f"{m.name} dismounts onto {h}", float(conv.cost), f"{conv.left} points left on foot",
                               f"dismount → {h}", g))
    left = can_mount(state, m)
    if left is not None:
        out.append(_la({"kind": "mount", "side": s, "unit": m.name}, f"{m.name} mounts his horse", None,
                       f"{left} points left mounted", "mount", g))
    return out


def _pending_actions(state: DNState, p: Pending) -> list[LegalAction]:
    if p.kind == "counter":
        return sorcery.pending_actions(state, p)
    if p.kind == "defensive":
        mover = state.man(p.unit)
        return [*_fire_actions(state, p.side, mover),
                _la({"kind": "hold", "side": p.side}, f"{state.name(p.side)} hold their fire", label="Hold fire",
                    group="Defensive fire")]
    if p.kind == "victim":
        return [_la({"kind": "take_blow", "side": p.side, "unit": n}, f"{n} takes the blow", None, p.harm,
                    f"{n}", "Who takes the blow") for n in p.options]
    out = []
    for n in ([p.unit] if p.unit else p.options):
        m = state.man(n)
        for st in steps(state, replace(m, mp=99)):
            if p.unit or st.to in p.hexes:
                out.append(_la({"kind": "advance", "side": p.side, "unit": n, "to": st.to},
                               f"{n} advances to {st.to}", None, "advance after combat", f"→ {st.to}",
                               f"{n}: advance"))
    return [*out, _la({"kind": "stay", "side": p.side}, f"{state.name(p.side)} do not advance", label="Stay",
                      group="Advance after combat")]


def legal_actions(state: DNState) -> list[LegalAction]:
    if state.over:
        return []
    if state.pending is not None:
        return _pending_actions(state, state.pending)
    s = state.side
    out: list[LegalAction] = sorcery.cast_actions(state)
    if state.phase == "fire":
        out += _fire_actions(state, s, None)
    elif state.phase == "move":
        for m in state.men:
            if m.side == s and m.alive and not m.horse and not dragon.is_part(m):
                out += _move_actions(state, m)
        out += [_la({"kind": "dragon_move", "side": s, "to": to}, f"the Black Dragon moves to {to}", float(cost),
                    f"{cost} of {dragon.body(state).mp} points", f"→ {to}", "Black Dragon body: move")
                for to, cost in dragon.steps(state)]
        out += corpses.clear_actions(state)
    else:
        for attackers, defenders in combats(state):
            who = " + ".join(attackers)
            out.append(_la({"kind": "attack", "side": s, "units": list(attackers), "targets": list(defenders)},
                           f"{who} attack {' + '.join(defenders)}", None, "", f"→ {' + '.join(defenders)}",
                           f"{who}: attack"))
    name = {"fire": "End offensive fire", "move": "End movement", "combat": "End the player turn"}[state.phase]
    out.append(_la({"kind": "end_phase", "side": s}, f"{state.name(s)}: {name.lower()}", label=name, group="Turn"))
    return out


def check(state: DNState, action: JsonDict) -> None:
    """Refuse (typed, nothing changed) an action that is not one of the legal ones now."""
    if state.over:
        raise IllegalActionError("the battle is over")
    if action.get("kind") not in KINDS:
        raise IllegalActionError(f"not a Dragon Noir action: {action.get('kind')!r} ({', '.join(KINDS)})")
    if action.get("side") != state.to_act:
        raise IllegalActionError(f"it is side {state.to_act}'s decision, not side {action.get('side')!r}'s")
    if action not in [lg.action for lg in legal_actions(state)]:
        raise IllegalActionError(f"not legal now: {action!r} (see the legal actions)", action=action)


# -- what each action does ----------------------------------------------------------------------------------


def do_move(state: DNState, action: JsonDict, fate: Fate) -> tuple[DNState, Lines]:
    m = state.man(str(action["unit"]))
    step = next(st for st in steps(state, m) if st.to == action["to"])
    lines: Lines = []
    if must_roll(state, m):
        outcome = fate.draw(infiltration_request(m)).outcome
        die, result = outcome.split("→")
        lines.append({"text": f"{m.name} slips past the enemy from {m.hex}: die {die} rolls {result}", "kind": "roll"})
        if result == "stopped":
            return state.with_men(replace(m, mp=0)), lines
        if result == "stunned":
            state, more = hurt(state, m.name, "stunned", [])
            return state.with_men(replace(state.man(m.name), mp=0)), lines + more
    moved = replace(m, hexes=step.hexes, facing=step.facing, mp=m.mp - step.cost, steps=m.steps + 1, moved=True)
    lines.append({"text": f"{m.name} moves {m.hex} → {step.to} ({step.cost} points, {moved.mp} left)",
                  "kind": "move"})
    state = state.with_men(moved)
    if defensive_shooters(state, moved):
        state = replace(state, pending=Pending("defensive", other(m.side), m.name))
        lines.append({"text": f"  {m.name} is in sight of {state.name(other(m.side))}'s shooters (defensive fire)",
                      "kind": "note"})
    return state, lines


def do_shoot(state: DNState, action: JsonDict, fate: Fate) -> tuple[DNState, Lines]:
    defensive = state.pending is not None
    state, lines = resolve_shot(state, str(action["unit"]), str(action["target"]), defensive, fate)
    if defensive:
        mover = state.man(state.pending.unit)  # type: ignore[union-attr]
        if not mover.standing:
            state = state.with_men(replace(mover, mp=0))
        if not mover.standing or not defensive_shooters(state, mover):
            state = replace(state, pending=None)
    return state, lines


def do_advance(state: DNState, action: JsonDict) -> tuple[DNState, Lines]:
    p = state.pending
    assert p is not None
    m = state.man(str(action["unit"]))
    step = next(st for st in steps(state, replace(m, mp=99)) if st.to == action["to"])
    left = (p.left if p.unit else ADVANCE[m.mounted]) - 1
    state = state.with_men(replace(m, hexes=step.hexes, facing=step.facing))
    pending = replace(p, unit=m.name, left=left) if left > 0 else None
    return replace(state, pending=pending), [{"text": f"{m.name} advances {m.hex} → {step.to}", "kind": "move"}]


def do_mounting(state: DNState, action: JsonDict) -> tuple[DNState, Lines]:
    m = state.man(str(action["unit"]))
    sheet = shipped_sheet()
    if action["kind"] == "mount":
        h = horse_of(state, m)
        assert h is not None
        conv = mount(sheet, fighter_of(state, m), movement_of(m) - m.mp)
        rider = replace(m, hexes=h.hexes, facing=h.facing, mounted=True, mp=conv.left, moved=True)
        state = replace(state, men=tuple(rider if x.name == m.name else x for x in state.men if x.name != h.name))
        return state, [{"text": f"{m.name} mounts his horse: {conv.arithmetic}", "kind": "move"}]
    conv = dismount(sheet, fighter_of(state, m), movement_of(m) - m.mp)
    horse = Man(f"{m.character}'s horse", m.character, m.side, m.hexes, horse=True, facing=m.facing)
    rider = replace(m, hexes=(str(action["to"]),), facing=None, mounted=False, mp=conv.left, moved=True)
    state = state.with_men(rider)
    try:
        state.man(horse.name)
        state = state.with_men(horse)
    except KeyError:
        state = state.add(horse)
    return state, [{"text": f"{m.name} dismounts onto {action['to']}: {conv.arithmetic}", "kind": "move"}]


def perform(state: DNState, action: JsonDict, fate: Fate) -> tuple[DNState, Lines]:
    kind = action["kind"]
    if kind == "move":
        return do_move(state, action, fate)
    if kind == "shoot":
        return do_shoot(state, action, fate)
    if kind == "hold":
        return replace(state, pending=None), [{"text": f"{state.name(state.to_act)} hold their fire", "kind": "note"}]
    if kind == "half_turn":
        m = turned(state, state.man(str(action["unit"])))
        return state.with_men(m), [{"text": f"{m.name} turns about ({'-'.join(m.hexes)})", "kind": "move"}]
    if kind in ("mount", "dismount"):
        return do_mounting(state, action)
    if kind == "attack":
        return fight(state, list(action["units"]), list(action["targets"]), fate)
    if kind == "take_blow":
        return take_blow(state, str(action["unit"]))
    if kind == "cast":
        return sorcery.cast(state, action, fate)
    if kind == "dragon_move":
        return dragon.move(state, str(action["to"]))
    if kind == "clear":
        return corpses.clear(state, action)
    if kind in ("counter", "let_be"):
        return sorcery.answer(state, action, fate)
    if kind == "advance":
        return do_advance(state, action)
    if kind == "stay":
        return replace(state, pending=None), [{"text": "no advance after combat", "kind": "note"}]
    return end_phase(state)


# -- odds before the roll -----------------------------------------------------------------------------------


def _p(letters: dict[str, Fraction], wanted: str) -> float:
    return float(sum((p for k, p in letters.items() if k in wanted), Fraction(0)))


def preview(state: DNState, action: JsonDict) -> OddsPreview:
    """The exact odds and the very request the resolution draws first."""
    check(state, action)
    kind = action["kind"]
    if kind == "shoot":
        o = shot_odds(state, str(action["unit"]), str(action["target"]))
        return OddsPreview((("hit", 1.0 - _p(o.letters, "A")), ("killed (F)", _p(o.letters, "F"))), (o.request,))
    if kind == "attack":
        c = odds(state, list(action["units"]), list(action["targets"]))
        hurt_letters = "DEFGH"
        return OddsPreview((("ratio", c.column_name), ("defender hurt", _p(c.letters, hurt_letters)),
                            ("attackers retreat", _p(c.letters, "B"))), (c.request,))
    if kind in ("cast", "counter", "let_be"):
        draws = sorcery.requests(state, action)
        return OddsPreview(tuple((d.label, sum(p for o, p in d.odds() if o.endswith("success"))) for d in draws),
                           draws)
    if kind == "move":
        m = state.man(str(action["unit"]))
        if must_roll(state, m):
            req = infiltration_request(m)
            passes = sum(p for o, p in req.odds() if o.endswith("→pass"))
            return OddsPreview((("slips past", passes),), (req,))
    return OddsPreview()
