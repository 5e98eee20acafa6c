"""Long actions: prepared now, executed when the unit's time comes again on the turn bar.

Seed (Symbols, small clepsydra): "a long action, which will only be executed after a certain
amount of Action Points have been accumulated. While preparing for the action, the unit's
Defences (Block, Evade, Deflect) are reduced to 0, and the unit will be interrupted if it
takes direct damage." Aim is one: "Long action +25%".

- Starting: the group pays the action's AcP at once (Aim 1250), exactly as for any action, so
  its next turn comes after it has accumulated them again; each member that performs the action
  keeps it as its :class:`~.state.PendingAction` and takes the ``preparing`` stance, whose
  Defences are 0 (``stances`` in ``data/actions.yaml``).
- Resolving: when that member's group is next ready, the engine resolves the pending action
  before the group chooses its new action (the group then takes its turn as usual).
- Interrupting: a member that loses Hit Points to an attack ("direct damage": a strike, a
  shot, a spell, a cut-down; not a drain such as Dark Presence) drops its pending action;
  so does a member that flees, leaves the board, or can no longer perform it when its time
  comes (engaged, out of range, no enemy left in the target zone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.errors import RulekeeperError

from ..fastcopy import evolve
from . import shooting
from .state import BattleState, BattleUnit, PendingAction

if TYPE_CHECKING:
    from .actions import Legal
    from .engine import Run

PREPARING = "preparing"


def is_long(run: Run, legal: Legal) -> bool:
    a = legal.action
    return a.kind == "shoot" and run.t.rules.action(a.option or "shot").long


def start(run: Run, legal: Legal, members: list[BattleUnit]) -> None:
    """Begin the long action: every member that can perform it prepares it."""
    a = legal.action
    units = {}
    for m in members:
        if (a.option or "shot") in m.c.profile.shots:
            units[m.key] = evolve(m, pending=PendingAction(a.kind, a.target, a.option),
                                  c=evolve(m.c, stance=PREPARING))
    run.state = run.state.with_units(units)
    run.event("long_action_start", units=list(units), action=a.to_dict(), acp=legal.acp)
    title = run.t.rules.action(a.option or "shot").title
    run.note(f"{' + '.join(units)}: {title} at {a.target} under way, executed when its time comes (Defences 0 meanwhile)")


def _drop(run: Run, u: BattleUnit, why: str) -> None:
    assert u.pending is not None
    c = evolve(u.c, stance="none") if u.c.stance == PREPARING else u.c
    run.state = run.state.with_units({u.key: evolve(u, pending=None, c=c)})
    run.event("long_action_interrupted", unit=u.key, action=u.pending.to_list(), why=why)
    run.note(f"{u.key}: its {u.pending.option or u.pending.kind} is interrupted ({why})")


def interrupt_hurt(run: Run, before: BattleState) -> None:
    """Interrupt every prepared action whose unit lost Hit Points since ``before`` or fled."""
    for u in run.state.units:
        if u.pending is None:
            continue
        old = before.unit(u.key)
        if not u.on_board:
            _drop(run, u, "left the board")
        elif u.c.fleeing:
            _drop(run, u, "flees")
        elif any(h < o for h, o in zip(u.c.hp, old.c.hp, strict=True)):
            _drop(run, u, "took direct damage")


def pending_in(state: BattleState, group: tuple[str, ...]) -> list[BattleUnit]:
    return [state.unit(k) for k in group if state.unit(k).pending is not None]


def resolve(run: Run, group: tuple[str, ...]) -> None:
    """Execute the pending actions of ``group`` whose time has come (see module docstring)."""

    for u in pending_in(run.state, group):
        cur = run.state.unit(u.key)
        p = cur.pending
        assert p is not None
        if not cur.on_board or cur.c.fleeing:
            _drop(run, cur, "cannot act")
            continue
        why = shooting.cannot_shoot(run, cur, p.target or "", p.option or "shot")
        if why:
            _drop(run, cur, why)
            continue
        run.state = run.state.with_units({cur.key: evolve(cur, pending=None, c=evolve(cur.c, stance="none"))})
        run.event("long_action_resolve", unit=cur.key, action=p.to_list())
        try:
            shooting.shoot_with(run, [run.state.unit(cur.key)], p.target or "", p.option or "shot")
        except RulekeeperError as exc:  # a position the checks above did not foresee: the shot is lost
            run.note(f"{cur.key}: its {p.option} is lost ({exc})")
