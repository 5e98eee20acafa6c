"""Does a simple *plan* beat the shipped policy from the losing side, in Dragon Noir and Confrontation? (issue 28)

    python bench/bench_plans.py [--game dragonnoir] [--scenario the_gargoyles_call] [--side A] [--battles 200]
                                [--plans policy hold ...] [--seed 1000]

The same question as ``bench_exillis_plans.py`` asks of Ex illis: with sides swapped, the search bot's win rate
against the shipped policy is about half its rate from the favoured side (near 100 %) and half its rate from the
other. If a plain change of plan won far more from the losing side than the policy does, the search would be
missing a plan it cannot find one move at a time; if none does, the scenario decides.

Each plan is the shipped policy with one rule changed, played by ``--side`` only; the other side plays the shipped
policy unchanged, in the shipped policy's own baseline battles (``bench_bot.baseline``: ``battle_seed(seed, i)``),
so ``policy`` reproduces that baseline. Plans draw no chance: every difference between two rows is the plan's.

Dragon Noir (``policy.choose`` reads ``_close_in``, ``_best_attack`` and ``_spell``):

* ``hold``: fighters never step toward the enemy (shooters shoot, the engaged attack, wizards cast as shipped);
* ``late``: ``hold`` in the first three player turns;
* ``noattack``: the side never attacks in the combat sequence;
* ``nospell``: the side never casts (it still counters);
* ``summon``: the side's wizard calls his spectres in its movement whenever he can (the policy waits until no
  enemy wizard stands).

Confrontation (``policy.choose`` wrapped):

* ``hold``: a fighter about to walk or charge holds instead;
* ``nocharge``: a fighter about to charge holds instead (walks stay);
* ``pass``: when a fighter would walk or charge, the side passes instead (the other side activates first).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_bot import baseline  # noqa: E402

from rulekeeper.core.ruleset import game as game_named  # noqa: E402
from rulekeeper.lab.stats import wilson  # noqa: E402
from rulekeeper.rulesets.confrontation import policy as cf_policy  # noqa: E402
from rulekeeper.rulesets.confrontation.actions import legal_actions as cf_legal  # noqa: E402
from rulekeeper.rulesets.dragonnoir import policy as dn_policy  # noqa: E402

DN_SHIPPED = (dn_policy._close_in, dn_policy._best_attack, dn_policy._spell)
CF_SHIPPED = cf_policy.choose
SPECTRES = ("Call the Gargoyles", "Raise the Living Deads")


def dragonnoir_plan(plan: str, side: str) -> None:
    """Make ``side`` play ``plan`` in Dragon Noir (the shipped policy's three decisions, wrapped)."""
    close_in, best_attack, spell = DN_SHIPPED

    def close(state: Any, man: Any, legal: Any) -> Any:
        held = plan == "hold" or (plan == "late" and state.turn < 4)
        return None if man.side == side and held else close_in(state, man, legal)

    def attack(state: Any, legal: Any) -> Any:
        return None if plan == "noattack" and state.side == side else best_attack(state, legal)

    def cast(state: Any, legal: Any, caster_side: str) -> Any:
        if caster_side == side and plan == "nospell":
            return None
        if caster_side == side and plan == "summon" and state.phase == "move" and state.side == side:
            calls = [a for a, _ in legal if getattr(a, "spell", None) in SPECTRES and a.side == side]
            if calls:
                return calls[0]
        return spell(state, legal, caster_side)

    dn_policy._close_in, dn_policy._best_attack, dn_policy._spell = close, attack, cast  # type: ignore[assignment]


def confrontation_plan(plan: str, side: str) -> None:
    """Make ``side`` play ``plan`` in Confrontation (``policy.choose`` wrapped)."""
    def instead(state: Any, wanted: str, fighter: object) -> dict[str, Any] | None:
        found = [lg.action for lg in cf_legal(state) if lg.action["kind"] == wanted
                 and (fighter is None or lg.action.get("fighter") == fighter)]
        return found[0] if found else None

    def choose(state: Any) -> Any:
        shipped = CF_SHIPPED(state)
        if plan == "policy" or shipped is None or state.to_act != side:
            return shipped
        kind, fighter = shipped.get("kind"), shipped.get("fighter")
        if (plan == "hold" and kind in ("move", "charge")) or (plan == "nocharge" and kind == "charge"):
            return instead(state, "hold", fighter) or shipped
        if plan == "pass" and kind in ("move", "charge"):
            return instead(state, "pass", None) or shipped
        return shipped

    cf_policy.choose = choose  # type: ignore[assignment]


PLANS: dict[str, tuple[Callable[[str, str], None], tuple[str, ...]]] = {
    "dragonnoir": (dragonnoir_plan, ("policy", "hold", "late", "noattack", "nospell", "summon")),
    "confrontation": (confrontation_plan, ("policy", "hold", "nocharge", "pass")),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=list(PLANS), default="dragonnoir")
    ap.add_argument("--scenario", default="the_gargoyles_call")
    ap.add_argument("--side", default="A", help="the side that plays the plan (the other plays the shipped policy)")
    ap.add_argument("--battles", type=int, default=200)
    ap.add_argument("--plans", nargs="+", help="default: every plan of the game")
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    use, known = PLANS[args.game]
    g = game_named(args.game)
    path = next((info.path for info in g.scenarios() if info.key == args.scenario), None)
    if path is None:
        raise SystemExit(f"{args.game} ships no scenario {args.scenario!r}: "
                         + ", ".join(info.key for info in g.scenarios()))
    for plan in args.plans or known:
        if plan not in known:
            raise SystemExit(f"{args.game} has no plan {plan!r}: {', '.join(known)}")
        started = time.process_time()
        use(plan, args.side)
        print_row(args.scenario, args.side, plan, baseline(g, path, args.seed, args.battles), started)


def print_row(scenario: str, side: str, plan: str, out: dict[str, int], started: float) -> None:
    """One plan's line: the side's wins of the battles, Wilson's 95 % interval, every tally, the CPU it took
    (``started``: ``time.process_time()`` before the battles). Shared with ``bench_exillis_plans.py``."""
    battles = sum(out.values())
    won = out.get(side, 0)
    low, high = wilson(won, battles)
    print(f"{scenario:18} {side} plays {plan:8} won {won:3} of {battles} "
          f"({won / battles:4.0%} [{low:.0%}, {high:.0%}])  all: {dict(sorted(out.items()))}  "
          f"{time.process_time() - started:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main()
