"""The whole-action odds of one legal action, or None for one without chance or not covered."""

from __future__ import annotations

from rulekeeper.core.whole import WholeOdds

from ..battle.actions import Legal
from ..battle.draws import acting_state
from ..battle.moves import group_of
from ..battle.state import BattleState
from ..battle.tables import BattleTables
from ..combatants import Combatant
from ..fastcopy import evolve
from ..melee import MeleeContext
from ..ranged import ShotSetup
from .dist import TooBig, Zones, start_work
from .melee_actions import Unsupported, charge, fight, zone_key
from .rounds import Unit, finished, spec
from .sampled_round import last_round
from .summary import whole_odds
from .volleys import last_volley, volley


def whole_action(state: BattleState, t: BattleTables, lg: Legal) -> WholeOdds | None:
    """What ``lg`` will do as a whole, computed from the rules' own functions (see the package docstring)."""
    state = acting_state(state)
    kind = lg.action.kind
    if kind not in ("fight", "charge", "shoot"):
        return None
    start_work()
    try:
        if kind == "fight":
            start, after, side = fight(state, t, lg)
            note = "a melee round of each member of the group"
        elif kind == "charge":
            start, after, side = charge(state, t, lg)
            note = "charge reactions, the chargers' rounds, the morale that follows"
        elif _long(state, t, lg):
            start, after, side = volley(aimed(state, t, lg), t, lg)
            note = AIMED
        else:
            start, after, side = volley(state, t, lg)
            note = "every projectile of the volley, then the morale check"
    except (Unsupported, TooBig):
        return None
    if not after.states:
        return None
    return whole_odds(start, after, side, note)


def _long(state: BattleState, t: BattleTables, lg: Legal) -> bool:
    return lg.action.kind == "shoot" and bool(t.rules.action(lg.action.option or "shot").long)


#: What a long action's whole odds are (Aim: "Long action +25%"): the volley it will shoot when its time comes.
AIMED = ("a long action, resolved later, when the unit's time comes again: every projectile of the volley as it "
         "will then be resolved (on the position as it stands now; a shooter that takes direct damage meanwhile "
         "is interrupted), then the morale check")


def aimed(state: BattleState, t: BattleTables, lg: Legal) -> BattleState:
    """The battle as the long action's resolution finds its shooters (``long_actions.resolve``): each member that
    prepares it shoots with its stance back to none (the ``preparing`` stance is dropped just before)."""
    shot = lg.action.option or "shot"
    members = [m for m in group_of(state, state.unit(lg.action.unit)) if m.on_board and shot in m.c.profile.shots]
    changed = [m for m in members if m.pending is not None or m.c.stance != "none"]
    return state.with_units({m.key: evolve(m, pending=None, c=evolve(m.c, stance="none")) for m in changed}) \
        if changed else state


def round_odds(zone: tuple[Combatant, ...], ctx: MeleeContext) -> WholeOdds | None:
    """One round by the first unit of ``zone`` (the calculator's ``odds exillis melee --whole``)."""
    start_work()
    att = zone[0]
    units = {c.key: Unit(c.key, c.side, True, tuple(c.alive())) for c in zone}
    try:
        s = spec(zone, att.key, ctx, None, units, last=True)
        dist = last_round(s)
    except TooBig:
        return None
    out = Zones()
    out.dropped, out.half = dist.dropped, dist.half
    for st, p in dist.states.items():
        after = finished(s, st, False)
        out.add(zone_key(after), after, p)
    return whole_odds(zone, out, att.side, f"a round by every miniature of {att.key}")


def volley_odds(setup: ShotSetup) -> WholeOdds | None:
    """One volley (the calculator's ``odds exillis shoot --whole``)."""
    start_work()
    try:
        dist, finish = last_volley(setup)
    except (TooBig, Unsupported):
        return None
    keys = [c.key for c in setup.target_zone]
    start = (*setup.target_zone, *(() if setup.shooter.key in keys else (setup.shooter,)))
    out = Zones()
    out.dropped, out.half = dist.dropped, dist.half
    for st, p in dist.states.items():
        zone, shooter = finish(st)
        after = tuple(shooter if c.key == shooter.key else c for c in zone)
        after = (*after, *(() if setup.shooter.key in keys else (shooter,)))
        out.add(zone_key(after), after, p)
    return whole_odds(start, out, setup.shooter.side, f"every projectile of {setup.shooter.key}, then the morale check")
