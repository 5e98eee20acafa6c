"""The whole result of a Battle System action before it is made (issue 27): casualties on both sides, the
morale damage and whether a unit flees, each outcome with its probability, exactly.

* an attack or a volley: :func:`~.odds.attack_odds`, icepool's exact distributions mapped through the very pure
  functions the resolution applies (:func:`~.combat.outcome_of`, :func:`~.combat.morale_damage`); the tests
  compare it with a seeded Monte Carlo of ``apply``;
* a pursuit, a rally or tending (one die each): every outcome run through :func:`play`, the function ``apply``
  resolves with (:func:`~rulekeeper.core.draws.enumerate_draws`), so the preview is the roll by construction.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from rulekeeper.core.chance import Fate
from rulekeeper.core.draws import NotEnumerable, enumerate_draws
from rulekeeper.core.whole import WholeMeasure, WholeOdds

from . import actions
from .combat import DEFAULT, Unit
from .ground import ground_bonus
from .odds import attack_odds
from .options import BattleSystemOptions
from .pursuit import do_pursue
from .rally import do_rally
from .report import Lines
from .state import BattleState, evolved
from .support import do_bridge, do_resupply, do_tend
from .turns import decided, end_turn
from .units import AttackKind

#: Actions with one die the whole preview enumerates through :func:`play`.
ONE_DIE = ("pursue", "rally", "tend")


def play(state: BattleState, act: actions.BSAction, fate: Fate) -> tuple[BattleState, Lines]:
    """One legal action resolved through ``fate`` (what ``apply`` records), the battle decided after it."""
    if isinstance(act, actions.Move):
        new, report = actions.do_move(state, act)
    elif isinstance(act, actions.Targeted) and act.kind in actions.KIND_OF:
        new, report = actions.do_attack(state, act, fate)
    elif isinstance(act, actions.Targeted) and act.kind == "pursue":
        new, report = do_pursue(state, act, fate)
    elif isinstance(act, actions.Targeted) and act.kind == "rally":
        new, report = do_rally(state, act, fate)
    elif isinstance(act, actions.Targeted) and act.kind == "tend":
        new, report = do_tend(state, act, fate)
    elif isinstance(act, actions.Targeted):
        new, report = do_resupply(state, act)
    elif isinstance(act, actions.AtHex) and act.kind == "barrage":
        new, report = actions.do_barrage(state, act)
    elif isinstance(act, actions.AtHex):
        new, report = do_bridge(state, act)
    else:
        new, report = end_turn(state, fate)
    return decided(evolved(new, rng=fate.state)), report


def moved(state: BattleState, act: actions.Move) -> tuple[BattleState, Lines]:
    """A move (what :func:`play` does with one, without its ``fate``: a move draws nothing, so ``apply`` builds no
    generator for it, a tenth of a simulated move's cost; the state's RNG state stays the one it had, as equal as
    the one a fate that drew nothing gives back)."""
    new, report = actions.do_move(state, act)
    return decided(new), report


def _measure(key: str, label: str, dist: dict[int, Fraction]) -> WholeMeasure:
    return WholeMeasure.from_weights(key, label, [(k, float(p)) for k, p in sorted(dist.items())])


def attack_whole(state: BattleState, action: actions.Targeted) -> WholeOdds:
    """An attack or a volley on the map: :func:`unit_attack_whole` with the ground's bonus."""
    a, d = state.piece(action.unit), state.piece(action.target)
    kind = actions.KIND_OF[action.kind]
    return unit_attack_whole(a.unit(), d.unit(), kind, ground_bonus(state, a, d, kind), state.rules)


def unit_attack_whole(a: Unit, d: Unit, kind: AttackKind, bonus: int = 0,
                      options: BattleSystemOptions = DEFAULT) -> WholeOdds:
    """An attack or a volley: their casualties, our losses (a failed attack), the morale damage, who flees (the
    web preview and ``odds battlesystem attack --whole`` both show this)."""
    odds = attack_odds(a, d, kind, bonus, options)
    destroyed = sum((p for k, p in odds.casualties.items() if k >= d.soldiers), Fraction(0))
    measures = [_measure("enemy_casualties", f"{d.name}: soldiers lost", odds.casualties),
                _measure("own_losses", f"{a.name}: soldiers lost", odds.attacker_losses),
                _measure("enemy_morale", f"{d.name}: morale damage", odds.morale_to_defender)]
    events = [("attack fails", float(odds.p_fail)), (f"{d.name} destroyed", float(destroyed)),
              (f"{d.name} flee", float(odds.p_breaks(d.morale))),
              (f"{a.name} flee", float(odds.p_breaks(a.morale, defender=False)))]
    return WholeOdds(tuple(measures), tuple(events), "exact", 0.0,
                     "5d10 and the morale die, every total, through the rules' own functions")


def one_die_whole(state: BattleState, action: actions.Targeted) -> WholeOdds | None:
    """A pursuit, a rally or tending: each outcome of its die run through :func:`play`."""
    side = action.side
    try:
        leaves = enumerate_draws(lambda fate: play(state, action, fate)[0])
    except NotEnumerable:
        return None
    sums: dict[str, defaultdict[int, float]] = {k: defaultdict(float) for k in ("lost", "ours", "morale")}
    fled = 0.0
    for leaf in leaves:
        after = leaf.value
        pairs = [(p, after.piece(p.name)) for p in state.units if any(q.name == p.name for q in after.units)]
        sums["lost"][sum(p.soldiers - q.soldiers for p, q in pairs if p.side != side)] += leaf.probability
        sums["ours"][sum(q.soldiers - p.soldiers for p, q in pairs if p.side == side)] += leaf.probability
        sums["morale"][sum(q.morale - p.morale for p, q in pairs if p.side == side)] += leaf.probability
        fled += leaf.probability * any(p.morale > 0 and q.morale == 0 for p, q in pairs if p.side != side)
    labels = {"lost": "enemy soldiers lost", "ours": "our soldiers back", "morale": "our morale restored"}
    measures = tuple(WholeMeasure.from_weights(k, labels[k], sorted(v.items())) for k, v in sums.items()
                     if set(v) != {0})
    if not measures:
        measures = (WholeMeasure.from_weights("lost", labels["lost"], sorted(sums["lost"].items())),)
    return WholeOdds(measures, (("an enemy unit flees", min(1.0, fled)),), "exact", 0.0,
                     f"every outcome of the die ({len(leaves)}) run through the rules")


def whole_odds(state: BattleState, action: actions.BSAction) -> WholeOdds | None:
    if isinstance(action, actions.Targeted) and action.kind in actions.KIND_OF:
        return attack_whole(state, action)
    if isinstance(action, actions.Targeted) and action.kind in ONE_DIE:
        return one_die_whole(state, action)
    return None
