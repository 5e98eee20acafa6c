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
who lost most HP. As a simple action (the same ``cure``, in the activation phase): a free curer activated may cure
instead of moving, charging or shooting ("the fighter gets a +1 bonus to this roll"); that is his activation, and
"once per round": the maintenance phase does not ask him again that round (``cure_used``).

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
    """A standing curer not in rout (an active ability), who did not cure this round, with someone to cure."""
    return f.standing and not f.rout and not f.cure_used and f.card.has("Cure") and bool(targets(state, f))


def mark(state: SkirmishState) -> SkirmishState:
    """The maintenance phase's curers, marked to choose (under ``declarations=players``)."""
    if not by_players(state):
        return state
    return state.with_fighters(*(replace(f, curing=True) for f in state.fighters if may_cure(state, f)))


def waiting(state: SkirmishState) -> Fighter | None:
    """The curer who chooses now (side A's first)."""
    return next((f for side in SIDES for f in state.fighters if f.side == side and f.curing), None)


def needs(curer: Fighter, simple: bool) -> int:
    """The face that cures: X, one less as a simple action ("a +1 bonus to this roll")."""
    return x_of(curer.card, "Cure") - simple


def request(curer: Fighter, target: Fighter, simple: bool = False) -> ChanceRequest:
    x, how = x_of(curer.card, "Cure"), " (simple action, +1)" if simple else ""
    return discrete(f"Cure{how}: {curer.key} on {target.key}", [(str(n), 1 / 6) for n in range(1, 7)],
                    (f"Cure/{x}: 1d6{' + 1' if simple else ''}, {x}+ heals 1 LP ({float(cure_odds(x, simple)):.0%})",))


def simple_offers(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """A free curer's activation: cure as a simple action (+1), one offer a target."""
    if not may_cure(state, f):
        return []
    need = needs(f, True)
    return [offer(Cure(f.side, f.key, t.key), f"{f.key} cures {'himself' if t.key == f.key else t.key} (simple "
                  f"action, his activation): 1d6, {need}+ heals 1 LP", f.side, None, "", f"cure {t.key}",
                  f"{f.key}: Cure") for t in targets(state, f)]


def check_simple(state: SkirmishState, f: Fighter, action: Cure) -> None:
    """A cure as an activation: a curer who may cure, a target he may cure."""
    if not f.card.has("Cure"):
        raise IllegalActionError(f"{f.key} has no Cure", field="fighter")
    if f.cure_used:
        raise IllegalActionError(f"{f.key} used Cure this round (once per round)", field="fighter")
    allowed = [t.key for t in targets(state, f)]
    if action.target is None or action.target not in allowed:
        raise IllegalActionError(f"{f.key} may cure {', '.join(allowed) or 'no one (no one wounded in reach)'} "
                                 f"(wounded, with LP, himself or a friend in base-to-base contact), not "
                                 f"{action.target or 'no one'}", field="target")


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
    """His choice made: the d6 for his target (none: nothing drawn); in the activation phase, his activation (+1 to
    the roll, used for the round)."""
    f = state.fighter(action.fighter)
    simple = state.phase == "activation"
    used = replace(f, curing=False, activated=f.activated or simple, cure_used=f.cure_used or simple)
    state = state.with_fighters(used)
    kind = "cure" if simple else "maintenance"
    if action.target is None:
        return state, [{"text": f"{f.key} cures no one", "kind": kind}]
    t = state.fighter(action.target)
    n = int(fate.draw(request(f, t, simple)).outcome)
    hp = t.hp
    if n >= needs(f, simple):
        state = state.with_fighters(replace(t, hp=min(t.card.HP, hp + 1)))
        return state, [{"text": f"Cure: {n} for {t.key}: {hp} → {hp + 1} HP", "kind": kind}]
    return state, [{"text": f"Cure: {n} for {t.key}: not cured", "kind": kind}]
