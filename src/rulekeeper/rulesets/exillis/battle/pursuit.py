"""Cut down: free attacks on a unit that leaves a melee (retreating or fleeing).

"Each allied unit in the zone will prevent an enemy unit from cutting you down" — the
least aggressive pursuers are denied first ("highly aggressive units are the last ones
to be denied their cut down"). Each warrior of a pursuing unit takes a Speed test: 33 %
if the runaway is faster, 66 % at equal speed, 100 % if the pursuer is faster. The
victim cannot Block, Evade or Deflect: the attack hits, or lands a Luck. Fast Cavalry
and teleporters are never cut down.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulekeeper.core.chance import Fate
from rulekeeper.core.wrd import with_fixed

from .. import damage as dmg
from ..aftermath import Death
from ..melee import LUCK
from ..options import ExIllisOptions
from .state import BattleState, BattleUnit

SPEED_TEST = {"faster": 0.33, "equal": 0.66, "slower": 1.0}


@dataclass(frozen=True)
class CutDown:
    pursuer: str
    target: str
    outcome: str
    damage: int
    killed: bool


def immune(u: BattleUnit) -> bool:
    return u.has_rule("Fast Cavalry") or str(u.c.profile.movement) == "teleporter"


def pursuers(state: BattleState, runners: list[BattleUnit]) -> list[BattleUnit]:
    """Enemy units in the zone entitled to cut the runners down, after allies deny some."""
    z = runners[0].zone
    side = runners[0].side
    keys = {r.key for r in runners}
    enemies = [e for e in state.enemies_in(z, side) if not e.c.fleeing] if z is not None else []
    staying = [a for a in state.in_zone(z) if a.side == side and a.key not in keys and not a.c.fleeing] if z else []
    enemies.sort(key=lambda e: (e.c.stat("agg"), -e.deploy_index))
    return enemies[len(staying):]


def cut_down(
    state: BattleState, runners: list[BattleUnit], fate: Fate, options: ExIllisOptions
) -> tuple[dict[str, BattleUnit], list[CutDown], list[Death]]:
    """Resolve every cut-down attack; returns updated runners, the attacks and the deaths."""
    live = {r.key: r for r in runners if not immune(r)}
    out: list[CutDown] = []
    deaths: list[Death] = []
    if not live:
        return {r.key: r for r in runners}, out, deaths
    run_speed = min(r.movement() for r in runners)
    space = options.space_bulk_key()
    for p in pursuers(state, runners):
        speed = p.movement()
        label = "faster" if run_speed > speed else "equal" if run_speed == speed else "slower"
        chance = SPEED_TEST[label]
        for i in p.c.alive():
            who = p.c.mini(i)
            targets = [(r.c.mini(j), r.c.stat("agg")) for r in live.values() for j in r.c.alive()]
            if not targets:
                break
            if not fate.chance(f"speed test: {who} ({label})", chance, "Cuts down", "Too slow"):
                continue
            pick = fate.choose(f"cut-down target: {who}", targets, ("weights are Aggressiveness",))
            r = next(x for x in live.values() for j in x.c.alive() if x.c.mini(j) == pick)
            j = next(j for j in r.c.alive() if r.c.mini(j) == pick)
            hit = fate.choose(
                f"cut down: {who} → {pick}", with_fixed({"Luck": LUCK}, {"Attack": 1.0}),
                ("the victim cannot Block, Evade or Deflect a cut-down attack",),
            )
            calc = dmg.physical(p.c.stat("wpd"), p.c.stat("str"), r.c.stat("tgh"), p.c.stat("ap"), r.c.stat("armour"))
            mult = options.luck_multiplier if hit == "Luck" else 1.0
            amount = dmg.roll(fate, f"cut down: {who} → {pick}", calc.final, mult)
            new = r.c.with_hp(j, r.c.hp[j] - amount)
            killed = new.hp[j] <= 0
            live[r.key] = replace(r, c=new)
            if killed:
                deaths.append(Death(r.side, r.key, pick, r.c.stat(space)))
            out.append(CutDown(who, pick, hit, amount, killed))
    result = {r.key: live.get(r.key, r) for r in runners}
    return result, out, deaths
