"""The turn bar: Action Points gained from Initiative, who acts next, the predicted order.

Between turns every active unit gains AcP in proportion to its (fatigue-lowered)
Initiative; the first to reach 1000 acts. A hero and its retinue act together, once
both have 1000 AcP. The advance is computed exactly (the time until each group is
ready) rather than tick by tick, so nothing depends on a tick size.
"""

from __future__ import annotations

from ..fastcopy import evolve
from ..fatigue import initiative
from .state import ACT_AT, BattleState, BattleUnit

ENRAGED_INI = 1.2


def effective_ini(u: BattleUnit, state: BattleState) -> float:
    """INI lowered per Fatigue/Veil threshold; a Furious (Enraged, negative morale) unit gains 20 %."""
    ini = initiative(u.c.stat("ini"), u.c.fatigue, u.c.veil, state.options)
    if u.has_rule("Enraged") and u.c.morale < 0:
        ini *= ENRAGED_INI
    return max(ini, 1e-6)


def groups(state: BattleState) -> list[tuple[str, ...]]:
    """Acting groups on the board: a hero with its retinue, or a unit alone (deployment order)."""
    out: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for u in state.units:
        if not u.on_board or u.key in seen:
            continue
        members = [u.key]
        partner = u.hero or u.retinue
        if partner is not None:
            p = state.unit(partner)
            if p.on_board and p.zone == u.zone:
                members.append(partner)
        members.sort(key=lambda k: state.unit(k).deploy_index)
        seen.update(members)
        out.append(tuple(members))
    return out


def _time_to_ready(acp: dict[str, float], ini: dict[str, float], group: tuple[str, ...]) -> float:
    return max(max(0.0, (ACT_AT - acp[k]) / ini[k]) for k in group)


def _pick(acp: dict[str, float], ini: dict[str, float], gs: list[tuple[str, ...]], order: dict[str, int]) -> tuple[float, tuple[str, ...]]:
    best: tuple[float, float, int] | None = None
    chosen: tuple[str, ...] = ()
    for g in gs:
        t = _time_to_ready(acp, ini, g)
        key = (t, -min(acp[k] for k in g), min(order[k] for k in g))
        if best is None or key < best:
            best, chosen = key, g
    return (best[0] if best else 0.0), chosen


def advance(state: BattleState) -> BattleState:
    """Give every unit the AcP it earns until the next group is ready; that group becomes active."""
    gs = groups(state)
    if not gs:
        return evolve(state, active=())
    acp = {u.key: u.acp for u in state.units if u.on_board}
    ini = {u.key: effective_ini(u, state) for u in state.units if u.on_board}
    order = {u.key: u.deploy_index for u in state.units}
    t, group = _pick(acp, ini, gs, order)
    units = {k: evolve(state.unit(k), acp=acp[k] + t * ini[k]) for k in acp}
    return evolve(state.with_units(units), active=group, clock=state.clock + t)


def predict(state: BattleState, n: int = 8) -> list[tuple[str, ...]]:
    """The next ``n`` activations if every group spent exactly 1000 AcP per turn (the Turn Bar)."""
    gs = groups(state)
    if not gs:
        return []
    acp = {u.key: u.acp for u in state.units if u.on_board}
    ini = {u.key: effective_ini(u, state) for u in state.units if u.on_board}
    order = {u.key: u.deploy_index for u in state.units}
    out: list[tuple[str, ...]] = []
    if state.active:
        out.append(state.active)
        for k in state.active:
            acp[k] -= ACT_AT
    while len(out) < n:
        t, group = _pick(acp, ini, gs, order)
        for k in acp:
            acp[k] += t * ini[k]
        for k in group:
            acp[k] -= ACT_AT
        out.append(group)
    return out


def initial_acp(index: int, total: int) -> float:
    """Deployment order defines initial AcP: the first deployed starts at 1000, the last near 0.

    "Units deployed first have more AcP and will thus be activated first."
    """
    if total <= 1:
        return ACT_AT
    return ACT_AT * (1.0 - index / total)
