"""``apply(state, action) -> outcome``: the pure transition function of an Ex illis battle.

The RNG state lives in :class:`BattleState`; every draw goes through a :class:`Fate`
built from it and is returned with the outcome, so a stored log of actions replays to
the same state bit for bit. After the action come the compulsory consequences: units
that broke and rout flee at once ("Compulsory actions, like routing, bypass the normal
turn sequence"), end-of-turn effects, melees that ended lose their fight direction, the
battle may end, and the turn bar advances to the next group (fleeing groups flee on
their own turn without asking anyone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from rulekeeper.core.chance import ChanceRecord, ChanceResult, Fate
from rulekeeper.core.events import Event, EventJson

from ..aftermath import StaticModifier
from ..fastcopy import evolve
from . import handlers, long_actions
from .actions import Action, Legal, find_legal, is_disabled
from .lifetimes import lapse
from .morale_loop import after_deaths, flee, sync_heroes
from .result import check_end
from .specials import dark_presence, end_of_turn
from .state import ACT_AT, BattleState, BattleUnit
from .tables import BattleTables
from .turnbar import advance

MAX_AUTOMATIC = 200


class EngineRecord(TypedDict):
    """The record the log keeps next to an action: its AcP, events, chance records and report, and the RNG and
    the active group after it (what a replay checks itself against)."""

    acp: float
    events: list[EventJson]  # core.events.Event.to_dict
    chance: list[ChanceRecord]  # core.chance.ChanceResult.to_dict
    report: list[dict[str, Any]]  # the lines of the Fate Screen (records.py for a melee, a volley, a cast)
    rng_after: dict[str, int]
    active_after: list[str]


@dataclass(frozen=True)
class Outcome:
    """The state after an action, with everything it caused."""

    state: BattleState
    action: Action
    legal: Legal
    events: tuple[Event, ...]
    chance: tuple[ChanceResult, ...]
    report: tuple[dict[str, Any], ...]

    def to_result(self) -> EngineRecord:
        """What the log stores next to the action (JSON-able)."""
        return {
            "acp": self.legal.acp,
            "events": [e.to_dict() for e in self.events],
            "chance": [c.to_dict() for c in self.chance],
            "report": list(self.report),
            "rng_after": self.state.rng.to_dict(),
            "active_after": list(self.state.active),
        }


class Run:
    """Mutable scratchpad of one ``apply`` call (never escapes it)."""

    def __init__(self, state: BattleState, t: BattleTables, fate: Fate) -> None:
        self.state = state
        self.t = t
        self.fate = fate
        self.events: list[Event] = []
        self.report: list[dict[str, Any]] = []

    def note(self, text: str) -> None:
        self.report.append({"kind": "note", "text": text})

    def event(self, event_kind: str, **data: object) -> None:
        """Log an event; its values are the event's JSON (``core.events.Event`` freezes them), not read here."""
        self.events.append(Event(event_kind, data))


def apply(state: BattleState, action: Action, t: BattleTables, legal: Legal | None = None) -> Outcome:
    """Perform ``action`` for the active group; refuse (typed error, nothing changed) if illegal.

    ``legal``: the entry of :func:`~.actions.legal_actions` for ``action``, when the caller
    already has it (a policy picks from that list), so the list is not built a second time:
    it was a third of the engine's time. The caller promises it came from
    ``legal_actions(state, t)``; only its action is checked against ``action``.
    """
    if legal is None:
        legal = find_legal(state, t, action)
    elif legal.action != action:
        raise ValueError(f"apply: legal entry {legal.action.text()!r} is not the action {action.text()!r}")
    action = legal.action
    fate = Fate.from_state(state.rng)
    run = Run(state, t, fate)
    fleeing_before = {u.key for u in state.units if u.c.fleeing}
    actors = state.active
    # "units which moved during their last turn": the flag lasts until the unit acts again
    # (a state that needs no change is kept, with the routes its legal actions worked out)
    stale = [run.state.unit(k) for k in actors if run.state.unit(k).c.moved is not False]
    if stale:
        run.state = _update(run.state, {u.key: evolve(u, c=evolve(u.c, moved=False)) for u in stale})
    run.event("action", action=action.to_dict(), acp=legal.acp)
    before = run.state
    handlers.dispatch(run, legal)
    long_actions.interrupt_hurt(run, before)
    _consequences(run, fleeing_before, actors)
    _next_turn(run)
    final = evolve(run.state, rng=fate.state)
    return Outcome(final, action, legal, tuple(run.events), tuple(fate.records), tuple(run.report))


def _update(state: BattleState, units: dict[str, BattleUnit]) -> BattleState:
    return evolve(state, units=tuple(units.get(u.key, u) for u in state.units))


def _consequences(run: Run, fleeing_before: set[str], actors: tuple[str, ...]) -> None:
    run.state = sync_heroes(run.state)
    handlers.bury(run)
    run.state, notes = after_deaths(run.state, run.t)
    for n in notes:
        run.note(n)
    handlers.exasperation(run)
    _drain(run, actors)
    for _ in range(MAX_AUTOMATIC):
        new = [u for u in run.state.units if u.on_board and u.c.fleeing and u.key not in fleeing_before]
        if not new:
            break
        u = new[0]
        fleeing_before.add(u.key)
        _flee(run, u.key, "routs at once")
    run.state, statics, notes = end_of_turn(run.state, tuple(k for k in actors if run.state.unit(k).on_board), run.t)
    for n in notes:
        run.note(n)
    _statics(run, statics)
    handlers.bury(run)
    handlers.end_melees(run)
    run.state, lapsed = lapse(run.state)
    run.report.extend({"kind": "morale", **m.to_dict()} for m in lapsed)
    run.state = sync_heroes(run.state)
    long_actions.interrupt_hurt(run, run.state)  # a unit that fled or left the board drops its long action
    run.state = check_end(run.state)


def _drain(run: Run, actors: tuple[str, ...]) -> None:
    """Dark Presence at the end of the turn: its HP changes are events, its kills casualties."""
    before = run.state
    drain = dark_presence(run.state, tuple(k for k in actors if run.state.unit(k).on_board), run.t)
    run.state = drain.state
    run.events.extend(drain.events)
    for n in drain.notes:
        run.note(n)
    for z, deaths in drain.deaths:
        handlers.casualty_morale(run, z, list(deaths), before)
    if drain.deaths:
        handlers.bury(run)
        run.state, notes = after_deaths(run.state, run.t)
        for n in notes:
            run.note(n)


def _statics(run: Run, statics: list[StaticModifier]) -> None:
    from .morale_loop import morale_in_zone

    by_zone: dict[Any, list[StaticModifier]] = {}
    for s in statics:
        u = run.state.unit(s.unit)
        if u.zone is not None:
            by_zone.setdefault(u.zone, []).append(s)
    for z, ss in by_zone.items():
        run.state, changes = morale_in_zone(run.state, z, [], ss)
        for m in changes:
            if m.reasons:
                run.report.append({"kind": "morale", **m.to_dict()})


def _flee(run: Run, key: str, why: str) -> None:
    before = run.state
    run.state, notes, cuts, deaths = flee(run.state, key, run.fate, run.t)
    run.event("flee", unit=key, why=why, to=_zone_name(run.state, key))
    for c in cuts:
        run.report.append({"kind": "cut_down", **c.__dict__})
    for n in notes:
        run.note(n)
    if deaths:
        z = before.unit(key).zone
        handlers.casualty_morale(run, z, deaths, before)
    handlers.bury(run)
    run.state, notes2 = after_deaths(run.state, run.t)
    for n in notes2:
        run.note(n)


def _resolve_pending(run: Run, group: tuple[str, ...]) -> None:
    """A long action's time has come: it is executed (or found interrupted) before the group's
    turn, with everything it causes; the group then takes its turn as usual."""
    fleeing_before = {u.key for u in run.state.units if u.c.fleeing}
    before = run.state
    long_actions.resolve(run, group)
    long_actions.interrupt_hurt(run, before)
    _consequences(run, fleeing_before, ())


def _zone_name(state: BattleState, key: str) -> str | None:
    z = state.unit(key).zone
    return None if z is None else state.board.name(z)


def _next_turn(run: Run) -> None:
    state = evolve(run.state, activations=run.state.activations + 1)
    run.state = state
    for _ in range(MAX_AUTOMATIC):
        if run.state.over:
            run.state = evolve(run.state, active=())
            return
        run.state = advance(run.state)
        group = run.state.active
        if not group:
            run.state = check_end(evolve(run.state, over=True, end_reason=run.state.end_reason or "no unit left"))
            return
        run.state = check_end(run.state)  # the turn limit: a turn due when time is up is not taken
        if run.state.over:
            return
        units = [run.state.unit(k) for k in group]
        if long_actions.pending_in(run.state, group) and not any(u.c.fleeing for u in units):
            _resolve_pending(run, group)
            continue
        if any(u.c.fleeing for u in units):
            fleeing_before = {u.key for u in run.state.units if u.c.fleeing}
            _flee(run, units[0].key, "flees on its turn")
            _consequences(run, fleeing_before, ())
            run.state = evolve(run.state, activations=run.state.activations + 1)
            continue
        if all(is_disabled(u) for u in units):
            run.state = _update(run.state, {u.key: evolve(u, acp=u.acp - ACT_AT) for u in units})
            run.note(f"{', '.join(group)} is disabled and cannot act")
            run.state = evolve(run.state, activations=run.state.activations + 1)
            continue
        return

