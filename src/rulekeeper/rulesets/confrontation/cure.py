"""Cure/X in the maintenance phase: the curer's player chooses whom he cures, or no one (option ``declarations``,
default ``players``).

The seed: "Cure/X (active, *): Once per round as a simple action, or during the maintenance phase, a fighter with
this ability can cure a friendly fighter in base-to-base contact with him (he can also cure himself). One d6 is
rolled. The targeted fighter is cured by one LP if the result on the die is equal to or greater than X. If this
ability is used as a simple action, then the fighter gets a +1 bonus to this roll. This ability cannot be used on a
target with SP." Fierce: "he cannot be cured by any means".

Why a choice: the ability is active ("can cure"), and whom is the player's (himself or a friend in contact); the
keeper may propose, never pick silently. So after the upkeep rolls (Regeneration, Ephemeral, Repair, Ruin, Fierce's
removal) and the Reinforcement rolls, each standing curer not in rout with someone to cure (a wounded fighter with LP,
not standing thanks to Fierce: himself, or a friend in base contact) is marked ``curing``; his player acts
(``cure CURER on TARGET``, or ``cure CURER none``), side A's curers first, each draw one d6 shown with its odds. The
keeper's proposal, listed first, is its old policy when he is wounded (he cures himself), else the friend in contact
who lost most HP. Not yet: the simple action (+1), so its "once per round" is kept by the maintenance use alone.

A battle stored before the option (``declarations=keeper``) keeps the old policy: he cures himself among his upkeep
rolls (:func:`~.maintenance.upkeep_of`).
"""

from __future__ import annotations

from rulekeeper.boards.table import CONTACT, edge_distance
from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction

from .action_types import Cure, offer
from .cards import FighterCard, canonical_ability
from .declarations import OPTION, STORED_BEFORE
from .maintenance import cure_odds, x_of
from .report_lines import ReportLine
from .state import SIDES, Fighter, SkirmishState, replace

#: Base-to-base contact, as a charge makes it (edge to edge, with the geometry's slack).
TOUCHING = CONTACT + 0.05


def by_players(state: SkirmishState) -> bool:
    return state.option(OPTION, STORED_BEFORE) == "players"


def without_cure(card: FighterCard) -> FighterCard:
    """His card for the upkeep rolls when his player chooses whom he cures (the cure is rolled apart)."""
    return card.model_copy(update={"abilities": [a for a in card.abilities if canonical_ability(a)[0] != "Cure"]})


def _curable(f: Fighter) -> bool:
    """Wounded, with LP ("cannot be used on a target with SP": a Construct), not standing thanks to Fierce."""
    return f.standing and f.hp < f.card.HP and not f.fierce and not f.card.has("Construct")


def targets(state: SkirmishState, curer: Fighter) -> list[Fighter]:
    """Whom he may cure, the keeper's proposal first: himself if wounded, then friends in base contact, the one who
    lost most HP first."""
    friends = [g for g in state.standing(curer.side) if g.key != curer.key and _curable(g)
               and edge_distance(curer.base, g.base) <= TOUCHING]
    friends.sort(key=lambda g: g.hp - g.card.HP)
    return ([curer] if _curable(curer) else []) + friends


def may_cure(state: SkirmishState, f: Fighter) -> bool:
    """A standing curer not in rout (an active ability) with someone to cure."""
    return f.standing and not f.rout and f.card.has("Cure") and bool(targets(state, f))


def mark(state: SkirmishState) -> SkirmishState:
    """The maintenance phase's curers, marked to choose (under ``declarations=players``)."""
    if not by_players(state):
        return state
    return state.with_fighters(*(replace(f, curing=True) for f in state.fighters if may_cure(state, f)))


def waiting(state: SkirmishState) -> Fighter | None:
    """The curer who chooses now (side A's first)."""
    return next((f for side in SIDES for f in state.fighters if f.side == side and f.curing), None)


def request(curer: Fighter, target: Fighter) -> ChanceRequest:
    x = x_of(curer.card, "Cure")
    return discrete(f"Cure: {curer.key} on {target.key}", [(str(n), 1 / 6) for n in range(1, 7)],
                    (f"Cure/{x}: 1d6, {x}+ heals 1 LP ({float(cure_odds(x)):.0%})",))


def offers(state: SkirmishState) -> list[LegalAction]:
    f = waiting(state)
    assert f is not None  # the maintenance phase waits for him
    x = x_of(f.card, "Cure")
    out = [offer(Cure(f.side, f.key, t.key), f"{f.key} cures {'himself' if t.key == f.key else t.key}: 1d6, {x}+ "
                 f"heals 1 LP" + (" (the keeper's proposal)" if i == 0 else ""), f.side, None, "",
                 f"cure {t.key}", f"{f.key}: Cure") for i, t in enumerate(targets(state, f))]
    return [*out, offer(Cure(f.side, f.key, None), f"{f.key} cures no one", f.side, None, "", "no cure",
                        f"{f.key}: Cure")]


def check(state: SkirmishState, action: Cure) -> None:
    f = waiting(state)
    if f is None:
        raise IllegalActionError("no curer is choosing now", kind="cure")
    if action.fighter != f.key:
        raise IllegalActionError(f"{f.key} chooses whom he cures now, not {action.fighter}", field="fighter")
    allowed = [t.key for t in targets(state, f)]
    if action.target is not None and action.target not in allowed:
        raise IllegalActionError(f"{f.key} may cure {', '.join(allowed)} (wounded, with LP, himself or a friend in "
                                 f"base-to-base contact, not standing thanks to Fierce), not {action.target}",
                                 field="target")


def do_cure(state: SkirmishState, action: Cure, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """His choice made: the d6 for his target (none: nothing drawn); the next curer, or the next round."""
    f = state.fighter(action.fighter)
    state = state.with_fighters(replace(f, curing=False))
    if action.target is None:
        return state, [{"text": f"{f.key} cures no one", "kind": "maintenance"}]
    t = state.fighter(action.target)
    n = int(fate.draw(request(f, t)).outcome)
    hp = t.hp
    if n >= x_of(f.card, "Cure"):
        state = state.with_fighters(replace(t, hp=min(t.card.HP, hp + 1)))
        return state, [{"text": f"Cure: {n} for {t.key}: {hp} → {hp + 1} HP", "kind": "maintenance"}]
    return state, [{"text": f"Cure: {n} for {t.key}: not cured", "kind": "maintenance"}]
