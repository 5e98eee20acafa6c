"""The exact walk of a plain fray, fast: the same states in the same order as the engine's walk, each a tuple of
small integers instead of a :class:`~.melee.Melee` (issue 22, point 5: "the full action list with odds, p95 ≤
50 ms"; a fight's preview walked 2,500 Melee states at about 0.15 ms each).

A *plain* fray is one the numpy kernel models (:func:`~.fray_kernel.supported`: no policy's strike, no Fencer's
reserve die, no Toxic die, no Deadly blow, no Survival instinct): every state is then fixed by each fighter's
health, attack and defence dice, whose camp attacks and each camp's next fighter. A state here is
``(health index ×n, attack ×n, defence ×n, turn, next of A, next of B)``; equal tuples are equal Melee states,
since each distinct :class:`~.exchanges.Health` gets one index.

What an attack can do is not re-derived: each (attacker, target, their health, Desperate, defended) reads the
engine's :func:`~.exchanges.attack_outcomes` and :func:`~.fray._hits` once, with the very fractions
:func:`~.fray.fray_branches` multiplies, in its order. The walk applies :class:`~.melee.Fray`'s order of attacks,
target policy and dice bookkeeping (``attacker``, ``target``, ``land``, ``pass_turn``) to the tuples, visits
states in the engine walk's order and adds the same products in the same order, so its floats are bit for bit
the engine walk's (``tests/confrontation/test_confrontation_fray_walk.py``).
"""

from __future__ import annotations

from collections import defaultdict

from .exchanges import Health, attack_outcomes
from .fray import _hits, initiative_odds_of
from .melee import End, Fray, Melee, evolve
from .strikes import PLAIN

#: A plain fray's state: each fighter's health index, attack dice, defence dice; whose turn; each camp's next.
State = tuple[int, ...]
#: What one attack leads to, before the state's own bookkeeping: the outcome, the target's health index after a
#: hit (else -1), its probability (the engine's fraction in floats).
Branch = tuple[int, int, float]
#: Outcome codes: a failed attack, a parry, a parry that gains a die, a hit.
FAIL, PARRIED, GAINED, HIT = 0, 1, 2, 3


class TooManyStates(Exception):
    """The exact walk met more states than its budget."""


class PlainFray:
    """A plain fray's fixed facts as flat tuples, its health states by index, and each attack's branches."""

    def __init__(self, fray: Fray) -> None:
        n = self.n = len(fray.fighters)
        self.fray = fray
        self.camp_of = fray.camp_of
        self.opponents = fray.opponents
        self.counter = tuple(f.counter_margin is not None for f in fray.fighters)
        self.desperation = fray.desperation
        self.desperate_any = any(d is not None for d in fray.desperation)
        #: each camp's fighters in turn from each ``next`` (:meth:`Fray.attacker`'s order)
        self.orders = tuple(tuple(tuple(j for j in ((start + k) % n for k in range(n)) if fray.camp_of[j] == camp)
                                  for start in range(n)) for camp in (0, 1))
        self.healths: list[Health] = []
        self._index: dict[Health, int] = {}
        self.killed: list[bool] = []
        self.hp: list[int] = []
        self.fierce: list[bool] = []
        self._statuses: list[str] = []
        self._ends: dict[State, End] = {}
        self._branches: dict[tuple[int, int, int, int, bool, bool, bool], list[Branch]] = {}

    def index(self, h: Health) -> int:
        """The health state's index (a new one numbered as met)."""
        found = self._index.get(h)
        if found is None:
            found = self._index[h] = len(self.healths)
            self.healths.append(h)
            self.killed.append(h.killed)
            self.hp.append(h.hp)
            self.fierce.append(h.fierce)
            self._statuses.append(h.status())
        return found

    def state(self, s: Melee) -> State:
        return (*(self.index(h) for h in s.health), *s.attack, *s.defence, s.turn, *s.next)

    def end(self, s: State) -> End:
        """Each fighter's status (:meth:`Melee.end`)."""
        healths = s[:self.n]
        found = self._ends.get(healths)
        if found is None:
            found = self._ends[healths] = tuple(self._statuses[h] for h in healths)
        return found

    def attacker(self, s: State) -> int:
        """:meth:`Fray.attacker`: the turn's camp, its fighters in turn from its ``next``, else the other; -1: over."""
        n, killed, opponents = self.n, self.killed, self.opponents
        turn = s[3 * n]
        for camp in (turn, 1 - turn):
            for i in self.orders[camp][s[3 * n + 1 + camp]]:
                if s[n + i] > 0 and not killed[s[i]] and any(not killed[s[o]] for o in opponents[i]):
                    return i
        return -1

    def target(self, s: State, i: int) -> int:
        """:meth:`Fray.target`: the opponent with no defence die left, then the fewest HP, then the first."""
        n, killed, hp = self.n, self.killed, self.hp
        return min((o for o in self.opponents[i] if not killed[s[o]]), key=lambda o: (s[2 * n + o] > 0, hp[s[o]], o))

    def desperate(self, s: State, i: int) -> bool:
        """:meth:`Fray.desperate`: a costlier opponent, Fierce used, or fewer living fighters in his camp."""
        always = self.desperation[i]
        if always is None:
            return False
        if always or self.fierce[s[i]]:
            return True
        mine, killed = self.camp_of[i], self.killed
        living = [0, 0]
        for k, c in enumerate(self.camp_of):
            living[c] += not killed[s[k]]
        return living[mine] < living[1 - mine]

    def attack(self, s: State, i: int, t: int) -> list[Branch]:
        """The outcomes of ``i``'s attack on ``t`` in ``s``, in :func:`~.fray.fray_branches`' order (once per key)."""
        n = self.n
        if self.desperate_any:
            key = (i, t, s[i], s[t], self.desperate(s, i), self.desperate(s, t), s[2 * n + t] > 0)
        else:
            key = (i, t, s[i], s[t], False, False, s[2 * n + t] > 0)
        found = self._branches.get(key)
        if found is None:
            found = self._branches[key] = self._attack(*key)
        return found

    def _attack(self, i: int, t: int, hi: int, ht: int, di: bool, dt: bool, defends: bool) -> list[Branch]:
        fray = self.fray
        health = list(fray.opening(0).health)
        health[i], health[t] = self.healths[hi], self.healths[ht]
        s = evolve(fray.opening(0), health=tuple(health))
        out: list[Branch] = []
        for blow, p in attack_outcomes(fray.side_at(i, self.healths[hi], di), fray.side_at(t, self.healths[ht], dt),
                                       defends, PLAIN.margin(fray, t)):
            if blow[0] == "fail":
                out.append((FAIL, -1, float(p)))
            elif blow[0] == "parried":
                out.append((GAINED if blow[1] == "gain" else PARRIED, -1, float(p)))
            else:
                out += [(HIT, self.index(h), float(p * q)) for h, q in _hits(fray, s, i, t, PLAIN)]
        return out

    def branches(self, s: State, left: int) -> list[tuple[State, float, int]] | None:
        """The states one attack leads to from ``s`` (``left`` dice in it), with their probabilities and dice
        left; ``None`` when the fray is over (:func:`~.fray.fray_branches` with :meth:`Fray.after_blow`)."""
        i = self.attacker(s)
        if i < 0:
            return None
        t = self.target(s, i)
        n = self.n
        base = list(s)
        base[n + i] -= 1  # spend: one die for one attack
        camp = self.camp_of[i]
        base[3 * n] = 1 - camp  # pass_turn: the other camp, the next of his camp in turn
        base[3 * n + 1 + camp] = (i + 1) % n
        spent, left = tuple(base), left - 1
        at, dt = n + t, 2 * n + t
        out: list[tuple[State, float, int]] = []
        for code, h, q in self.attack(s, i, t):
            x = base.copy()
            if code == FAIL:
                if not (self.counter[t] and x[dt] > 0 and x[dt] > self._coming(x, t)):
                    out.append((spent, q, left))
                    continue
                x[dt], x[at] = x[dt] - 1, x[at] + 1  # the spare defence die becomes an attack die
                out.append((tuple(x), q, left))
            elif code == PARRIED:
                x[dt] -= 1
                out.append((tuple(x), q, left - 1))
            elif code == GAINED:
                x[dt], x[at] = x[dt] - 1, x[at] + 1
                out.append((tuple(x), q, left))
            else:
                x[t] = h
                lost = 0
                if self.killed[h]:
                    lost, x[at], x[dt] = x[at] + x[dt], 0, 0
                out.append((tuple(x), q, left - lost))
        return out

    def _coming(self, x: list[int], t: int) -> int:
        """The attack dice of ``t``'s living opponents (:meth:`Fray.land`'s test for Counterattack's die)."""
        n, killed = self.n, self.killed
        return sum(x[n + o] for o in self.opponents[t] if not killed[x[o]])

    def dice_left(self, s: State) -> int:
        n = self.n
        return sum(s[n:3 * n])


def plain_fray_floats(fray: Fray, budget: int) -> dict[End, float]:
    """Every end of a plain fray with its probability: the engine walk's states in its order (most dice left
    first, each layer in the order met), the same products added in the same order. Raises
    :class:`TooManyStates` past ``budget`` states, where the engine walk does."""
    w = PlainFray(fray)
    p_a = float(initiative_odds_of(fray))
    mass: dict[State, float] = {}
    layers: defaultdict[int, list[State]] = defaultdict(list)
    for winner, p in ((0, p_a), (1, 1.0 - p_a)):
        s = w.state(fray.opening(winner))
        if s not in mass:
            layers[w.dice_left(s)].append(s)
        mass[s] = mass.get(s, 0.0) + p
    ends: defaultdict[End, float] = defaultdict(float)
    seen = 0
    while layers:
        left = max(layers)
        for s in layers.pop(left):
            m = mass.pop(s)
            seen += 1
            if seen > budget:
                raise TooManyStates(seen)
            branches = w.branches(s, left)
            if branches is None:
                ends[w.end(s)] += m
                continue
            for nxt, q, after in branches:
                old = mass.get(nxt)
                if old is None:
                    layers[after].append(nxt)
                    mass[nxt] = 0.0 + m * q
                else:
                    mass[nxt] = old + m * q
    return dict(sorted(ends.items(), key=lambda kv: -kv[1]))
