"""A combat of several fighters in two camps (a fray) — a duel is its smallest case — as exact odds, a
resolution through :class:`~rulekeeper.core.chance.Fate`, or Monte Carlo. The state and the rules of one
attack are :mod:`.melee`'s (the fray's rules, estimated where the published core is silent, are listed there
and in docs/rules/confrontation.md, "Frays").

Exact odds enumerate every branch with fractions (:func:`exact_fray_odds`, memoised on the state); a
resolution (:func:`resolve_fray`) draws every die through :class:`~rulekeeper.core.chance.Fate` with the
same distributions; :func:`fray_monte_carlo` repeats it when the state space is too large.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from functools import cache

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.errors import ImpossibleRequestError

from .circular import circular_branches, draw_circular
from .exchanges import (
    EXACT_DICE,
    Blow,
    Health,
    MonteCarlo,
    Report,
    att_request,
    attack_outcomes,
    cached_damage_request,
    def_request,
    ini_key,
    parry,
)
from .melee import MAX_FIGHTERS, End, Fray, IniTest, Melee
from .strikes import Strike, toxic_follows
from .wounds import DamageHook, WoundTable, damage_odds

#: An initiative result as compared (:func:`.exchanges.ini_key`): not a natural fail, then the final score.
IniKey = tuple[bool, int]

#: Fighters in all above which ``auto`` gives way to Monte Carlo (a 2-against-2 fray of 13 dice: about 1 s exact).
EXACT_FIGHTERS = 4

__all__ = ["MAX_FIGHTERS", "End", "Fray", "IniTest", "Melee", "exact_fray_odds", "fight_out", "fray_branches",
           "fray_method",
           "fray_monte_carlo", "initiative_odds_of", "initiative_requests", "resolve_fray", "roll_fray_initiative"]


# -- exact odds ------------------------------------------------------------------------------------------------


@cache
def _damage(table: WoundTable, strength: int, resilience: int,
            hooks: tuple[DamageHook, ...]) -> tuple[tuple[str, Fraction], ...]:
    return tuple(damage_odds(table, strength, resilience, hooks).items())


def _hits(fray: Fray, s: Melee, i: int, t: int, strike: Strike) -> list[tuple[Health, Fraction]]:
    """The target's health after a hit not parried, with its odds (damage roll, then Toxic's follow-up);
    memoised on what it reads of the state (both healths, the attacker's Deadly blow and Toxic die)."""
    key = (i, t, s.health[i], s.health[t], s.deadly[i], s.toxic[i], strike)
    found = fray._hit_odds.get(key)
    if found is None:
        found = fray._hit_odds[key] = _hits_of(fray, s, i, t, strike)
    return found


def _hits_of(fray: Fray, s: Melee, i: int, t: int, strike: Strike) -> list[tuple[Health, Fraction]]:
    out: defaultdict[Health, Fraction] = defaultdict(Fraction)
    for line, p in _damage(fray.table, *fray.damage_params(s, i, t, strike)):
        health = fray.wound(t, s.health[t], line)
        follow = toxic_follows(fray, s, i, t, line, health)
        if follow is None:
            out[health] += p
            continue
        for line2, q in _damage(fray.table, *follow):
            out[fray.wound(t, health, line2)] += p * q
    return list(out.items())


def _by_key(pairs: Iterable[tuple[IniKey, Fraction]]) -> list[tuple[IniKey, Fraction]]:
    """The results' probabilities summed per initiative key, in key order."""
    out: defaultdict[IniKey, Fraction] = defaultdict(Fraction)
    for key, p in pairs:
        out[key] += p
    return sorted(out.items())


def _cumulative(pairs: list[tuple[IniKey, Fraction]]) -> tuple[list[IniKey], list[Fraction]]:
    """The keys in order and, at each index ``i``, the chance of a key below ``keys[i]`` (the total last)."""
    below = [Fraction(0)]
    for _, p in pairs:
        below.append(below[-1] + p)
    return [k for k, _ in pairs], below


def initiative_odds_of(fray: Fray) -> Fraction:
    """Exact chance that camp A wins initiative (ties rolled again, or won by the only leader with Reflexes)."""
    (_, add_a, odds_a), (_, add_b, odds_b) = fray.ini_test(0), fray.ini_test(1)
    a = _by_key((ini_key(n, n + add_a), p) for n, p in odds_a)
    keys_b, below_b = _cumulative(_by_key((ini_key(n, n + add_b), p) for n, p in odds_b))
    win = lose = Fraction(0)
    for ka, pa in a:  # each of A's results against B's below and above it: exact, as every pair would be
        win += pa * below_b[bisect_left(keys_b, ka)]
        lose += pa * (below_b[-1] - below_b[bisect_right(keys_b, ka)])
    tie = 1 - win - lose
    reflexes = fray.reflexes()
    if reflexes == (True, False):
        win += tie
    elif reflexes == (False, True):
        lose += tie
    return win / (win + lose)


def fray_branches(fray: Fray, s: Melee) -> list[tuple[Melee, Fraction]] | None:
    """The states one attack leads to from ``s``, each with its exact probability; ``None`` when the fray is
    over. The one step every exact computation walks (:func:`exact_fray_odds`, :mod:`.fray_whole`)."""
    i = fray.attacker(s)
    if i is None:
        return None
    t = fray.target(s, i)
    s, fencer = fray.ready(s, i, t)
    strike = fray.strike(s, i, t, fencer)
    if strike.circular is not None:
        return list(circular_branches(fray, s, i, strike))
    out: list[tuple[Melee, Fraction]] = []
    for blow, p in attack_outcomes(fray.side(s, i), fray.side(s, t), s.defence[t] > 0, strike.margin(fray, t)):
        if blow[0] != "hit":
            out.append((fray.after_blow(s, i, t, blow, strike=strike), p))
        elif strike.feint:
            out.append((fray.after_blow(s, i, t, ("feint",), strike=strike), p))
        else:
            out += [(fray.after_blow(s, i, t, ("hit",), h, strike), p * q) for h, q in _hits(fray, s, i, t, strike)]
    return out


def exact_fray_odds(fray: Fray) -> dict[End, Fraction]:
    """Every end of the fray (each fighter's status, in ``fighters`` order) with its exact probability."""

    @cache
    def walk(s: Melee) -> tuple[tuple[End, Fraction], ...]:
        branches = fray_branches(fray, s)
        if branches is None:
            return ((s.end(), Fraction(1)),)
        out: defaultdict[End, Fraction] = defaultdict(Fraction)
        for nxt, p in branches:
            for end, r in walk(nxt):
                out[end] += p * r
        return tuple(out.items())

    p_a = initiative_odds_of(fray)
    total: defaultdict[End, Fraction] = defaultdict(Fraction)
    for winner, pw in ((0, p_a), (1, 1 - p_a)):
        for end, q in walk(fray.opening(winner)):
            total[end] += pw * q
    return dict(sorted(total.items(), key=lambda kv: -kv[1]))


# -- one resolution through fate -------------------------------------------------------------------------------


def initiative_requests(fray: Fray) -> tuple[ChanceRequest, ChanceRequest]:
    """The first draws of a fray: one INI test per camp (its leader's, labelled ``INI test: <name>``), wound
    penalties and Desperate included; a tie draws both again."""
    return fray.ini_test(0)[0], fray.ini_test(1)[0]


def roll_fray_initiative(fate: Fate, fray: Fray) -> int:
    """The camp that wins initiative, each camp's INI test drawn through ``fate`` (rolled again on a tie)."""
    tests = (fray.ini_test(0), fray.ini_test(1))
    while True:
        keys = []
        for request, add, _ in tests:
            natural = int(fate.draw(request).outcome.split()[1])
            keys.append(ini_key(natural, natural + add))
        if keys[0] != keys[1]:
            return 0 if keys[0] > keys[1] else 1
        reflexes = fray.reflexes()
        if reflexes[0] != reflexes[1]:
            return 0 if reflexes[0] else 1


def _draw_damage(fate: Fate, fray: Fray, s: Melee, i: int, t: int, strike: Strike) -> tuple[str, Health]:
    fs = fray.fighters
    label = f"damage roll: {fs[i].name} on {fs[t].name}"
    line = fate.draw(cached_damage_request(label, fray.table, *fray.damage_params(s, i, t, strike))).outcome
    health = fray.wound(t, s.health[t], line)
    follow = toxic_follows(fray, s, i, t, line, health)
    if follow is None:
        return line, health
    line2 = fate.draw(cached_damage_request(f"Toxic damage roll: {fs[i].name} on {fs[t].name}", fray.table,
                                            *follow)).outcome
    return f"{line}, Toxic {line2}", fray.wound(t, health, line2)


def _attack(fate: Fate, fray: Fray, s: Melee, i: int, t: int, report: Report | None) -> Melee:
    fs = fray.fighters
    s, fencer = fray.ready(s, i, t)
    strike = fray.strike(s, i, t, fencer)
    if strike.circular is not None:
        return draw_circular(fate, fray, s, i, strike, report)
    att, dfd = fray.side(s, i), fray.side(s, t)
    natural = int(fate.draw(att_request(f"ATT test: {fs[i].name}", att.att_shape, att.attack)).outcome.split()[1])
    final = natural + att.attack + att.att_shape.modifier
    blow: Blow = ("fail",) if natural <= 1 else ("hit",)
    if natural > 1 and s.defence[t] > 0:
        m = int(fate.draw(def_request(f"DEF test: {fs[t].name}", dfd.def_shape, dfd.defence, final)).outcome.split()[1])
        blow = parry(dfd, m, final, strike.margin(fray, t))
    health, shown = None, blow
    if blow[0] == "hit" and strike.feint:
        blow = shown = ("feint",)
    elif blow[0] == "hit":
        line, health = _draw_damage(fate, fray, s, i, t, strike)
        shown = ("hit", line)
    if report is not None:
        report.blows.append(f"{fs[i].name}{strike.title()} attacks {fs[t].name} (ATT {final}"
                            f"{', natural fail' if natural <= 1 else ''}): {' '.join(b for b in shown if b)}")
    return fray.after_blow(s, i, t, blow, health, strike)


def resolve_fray(fate: Fate, fray: Fray, report: Report | None = None) -> tuple[Health, ...]:
    """One fray, every die drawn through ``fate`` with the exact odds :func:`exact_fray_odds` reads; each
    fighter's health at the end (``fighters`` order), what the next combat or the maintenance phase takes."""
    return fight_out(fate, fray, roll_fray_initiative(fate, fray), report)


def fight_out(fate: Fate, fray: Fray, winner: int, report: Report | None = None) -> tuple[Health, ...]:
    """The fray after its INI tests, camp ``winner`` first: the placements (``fray.placement``, else the policy)
    and the exchanges, every die through ``fate`` (a battle's fight whose players placed their dice, and
    :func:`resolve_fray` after its own INI tests: the same draws in the same order)."""
    fs = fray.fighters
    s = fray.opening(winner)
    if report is not None:
        names = " and ".join(f.name for f in fray.camps[winner])
        report.initiative = f"{names} win{'s' if len(fray.camps[winner]) == 1 else ''} initiative and attack" + (
            "s" if len(fray.camps[winner]) == 1 else "") + " first"
        report.placement = [f"{f.name}: {s.attack[i]} in attack, {s.defence[i]} in defence" for i, f in enumerate(fs)]
    while (i := fray.attacker(s)) is not None:
        s = _attack(fate, fray, s, i, fray.target(s, i), report)
    if report is not None:
        report.end = s.end()
    return tuple(replace(h, instinct=False) for h in s.health)


def fray_monte_carlo(fray: Fray, runs: int, seed: int, winner: int | None = None) -> MonteCarlo[End]:
    """``runs`` seeded resolutions (one :class:`Fate` from ``seed``, records cleared between runs); from camp
    ``winner``'s opening when the INI tests are already rolled."""
    fate = Fate.from_seed(seed)
    counts: Counter[End] = Counter()
    for _ in range(runs):
        ends = resolve_fray(fate, fray) if winner is None else fight_out(fate, fray, winner)
        counts[tuple(h.status() for h in ends)] += 1
        fate.records.clear()
    return MonteCarlo(runs, seed, {k: v / runs for k, v in counts.most_common()})


def fray_method(fray: Fray, wanted: str) -> str:
    """``exact`` or ``monte-carlo``: ``auto`` is exact up to :data:`EXACT_DICE` combat dice in all and at most
    :data:`EXACT_FIGHTERS` fighters (docs/rules/confrontation.md, "Exact odds and Monte Carlo")."""
    if wanted not in ("auto", "exact", "monte-carlo"):
        raise ImpossibleRequestError(f"--method must be auto, exact or monte-carlo, got {wanted!r}", field="method")
    if wanted != "auto":
        return wanted
    dice = sum(fray.dice(i) + f.attack_only_dice() for i, f in enumerate(fray.fighters))
    return "exact" if dice <= EXACT_DICE and len(fray.fighters) <= EXACT_FIGHTERS else "monte-carlo"
