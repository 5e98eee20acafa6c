"""Circular blow/X in a fray: one ATT test that every opponent defends on his own, then each damage roll.

Seed: "The fighter sacrifices Y attack dice, where Y is the number of fighters he is fighting against -1,
then he makes a single attack. This attack affects all fighters he is fighting against and each of them can
attempt to defend it individually (if they have defence dice). Each fighter that does not successfully
defend suffers a Damage Roll with the STR altered by X. The first fighter that suffers a Damage Roll is also
affected by abilities such as Assassin or Toxic (if any)." Decisions: the opponents defend in the fray's
order, each against the same final result; a parry by the defender's Counterattack margin gains him a die
as against any attack; a natural fail misses them all. The exact branches (:func:`circular_branches`) and
the draw (:func:`draw_circular`) go through the same steps (``Fray.spend``, ``land``, ``pass_turn``).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import TYPE_CHECKING

from rulekeeper.core.chance import Fate

from .exchanges import Blow, Report, att_request, def_request, defence_outcomes, parry
from .rolls import odds_of_test

if TYPE_CHECKING:
    from .melee import Fray, Melee
    from .strikes import Strike


def _missed(fray: Fray, s: Melee, i: int, targets: list[int]) -> Melee:
    for t in targets:
        s = fray.land(s, i, t, ("fail",))
    return s


def circular_branches(fray: Fray, s: Melee, i: int, strike: Strike) -> list[tuple[Melee, Fraction]]:
    """Every state after ``i``'s circular blow with its exact probability."""
    from .fray import _hits

    targets = fray.foes(s, i)
    att = fray.side(s, i)
    spent = fray.spend(s, i, strike.dice)
    out: defaultdict[Melee, Fraction] = defaultdict(Fraction)
    for n, p in odds_of_test(att.att_shape, att.attack, None).items():
        if n <= 1:
            out[fray.pass_turn(_missed(fray, spent, i, targets), i, len(targets))] += p
            continue
        final = n + att.attack + att.att_shape.modifier
        partial: dict[Melee, Fraction] = {spent: p}
        for t in targets:
            nxt: defaultdict[Melee, Fraction] = defaultdict(Fraction)
            for st, q in partial.items():
                margin = strike.margin(fray, t)
                for blow, r in defence_outcomes(fray.side(st, t), final, st.defence[t] > 0, margin):
                    if blow[0] != "hit":
                        nxt[fray.land(st, i, t, blow)] += q * r
                        continue
                    for health, w in _hits(fray, st, i, t, strike):
                        nxt[fray.land(st, i, t, ("hit",), health)] += q * r * w
            partial = nxt
        for st, q in partial.items():
            out[fray.pass_turn(st, i, len(targets))] += q
    return list(out.items())


def draw_circular(fate: Fate, fray: Fray, s: Melee, i: int, strike: Strike, report: Report | None) -> Melee:
    """The circular blow drawn through ``fate``: one ATT test, one DEF test per defender, the damage rolls."""
    from .fray import _draw_damage

    fs = fray.fighters
    targets = fray.foes(s, i)
    att = fray.side(s, i)
    natural = int(fate.draw(att_request(f"ATT test: {fs[i].name}", att.att_shape, att.attack)).outcome.split()[1])
    final = natural + att.attack + att.att_shape.modifier
    st = fray.spend(s, i, strike.dice)
    shown = []
    if natural <= 1:
        st = _missed(fray, st, i, targets)
        shown.append("natural fail")
    for t in targets if natural > 1 else []:
        dfd = fray.side(st, t)
        blow: Blow = ("hit",)
        if st.defence[t] > 0:
            m = int(fate.draw(def_request(f"DEF test: {fs[t].name}", dfd.def_shape, dfd.defence, final))
                    .outcome.split()[1])
            blow = parry(dfd, m, final, strike.margin(fray, t))
        if blow[0] == "hit":
            line, health = _draw_damage(fate, fray, st, i, t, strike)
            st = fray.land(st, i, t, ("hit",), health)
            shown.append(f"{fs[t].name} hit {line}")
        else:
            st = fray.land(st, i, t, blow)
            shown.append(f"{fs[t].name} {' '.join(b for b in blow if b)}")
    if report is not None:
        report.blows.append(f"{fs[i].name}{strike.title()} attacks {', '.join(fs[t].name for t in targets)} "
                            f"(ATT {final}): {'; '.join(shown)}")
    return fray.pass_turn(st, i, len(targets))
