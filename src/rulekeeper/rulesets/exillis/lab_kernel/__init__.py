"""Ex illis unit-against-unit fights for the balance lab (issue 16): a numba kernel and the reference engine.

:class:`ExIllisDuelKernel` is what ``ExIllis.duel_kernel()`` hands the lab. ``duel`` fights a
request's battles in the kernel (:mod:`.battle`, numba with a numpy fallback; its odds tables
come from the reference engine's own functions, :mod:`.tables`); ``reference_duel`` fights the
same battles with ``resolve_round`` / ``resolve_volley`` (:mod:`.reference`), for cross-checks
and the benchmark. Both read the request the same way (:mod:`.fighters`).
"""

from __future__ import annotations

from rulekeeper.core.duels import DuelRequest, DuelTally
from rulekeeper.core.errors import InvalidStatError
from rulekeeper.core.whole import WholeOdds

from ..scenario_terms import unit_cost
from .fighters import fighters, shipped_tables

#: The lab is no preview: it lets the exact whole-odds kernel work this many outcomes before it samples.
LAB_EXACT_WORK = 150_000


class ExIllisDuelKernel:
    """The lab's view of Ex illis duels (see :class:`rulekeeper.core.duels.DuelKernel`)."""

    def units(self) -> list[str]:
        return shipped_tables().roster.names()

    def levels(self) -> tuple[int, int]:
        return 1, max(p.max_level for p in shipped_tables().roster)

    def points(self, unit: str, level: int) -> float:
        """The full unit's muster cost at ``level``: Basic Cost × 2^(Level/10) (the muster rules' basic cost)."""
        profile = shipped_tables().roster.get(unit)
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= profile.max_level:
            raise InvalidStatError(f"{profile.name} can be fielded at levels 1 to {profile.max_level}, not {level!r}",
                                   unit=profile.name, level=level)
        full = profile.miniatures
        return float(unit_cost(profile.stat("cost"), level, full, full))

    def check(self, request: DuelRequest) -> None:
        """Refuse what cannot be fought: unknown units or stats, impossible levels, bad mode, options or counts."""
        fighters(request)

    def duel(self, request: DuelRequest) -> DuelTally:
        from .driver import run

        return run(request).tally

    def reference_duel(self, request: DuelRequest) -> DuelTally:
        from .reference import reference_tally

        return reference_tally(request)

    def whole_opening(self, request: DuelRequest) -> WholeOdds | None:
        """The whole distribution of the duel's opening action, from the keeper's own whole-odds functions
        (:mod:`..whole`): the first unit's charge (``--charge``) or fight round against the second in melee,
        its volley in shoot mode (open ground, range 1, as :mod:`.reference` shoots). None when the first
        unit cannot shoot or the computation does not fit a preview's allowance."""
        from ..melee import MeleeContext
        from ..ranged import ShotSetup
        from ..whole.compute import round_odds, volley_odds
        from ..whole.dist import more_exact

        f = fighters(request)
        with more_exact(LAB_EXACT_WORK):
            if request.mode == "shoot":
                if f.first.stat("range") < 1:
                    return None
                return volley_odds(ShotSetup(f.first, (f.second,), "fields", (), 1, "shot", f.tables.rules,
                                             f.options))
            ctx = MeleeContext(f.tables.rules, f.options, "charge" if request.charge else "fight")
            return round_odds((f.first, f.second), ctx)

    def attack_probe(self, request: DuelRequest, attacks: int) -> dict[str, int]:
        """The kernel's draws of the first unit's opening attack (outcome → count, and "Retaliates")."""
        from .driver import probe_attacks

        return probe_attacks(request, attacks)
