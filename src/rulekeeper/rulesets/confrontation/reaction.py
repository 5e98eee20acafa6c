"""Reaction fire (issue 24): the charged fighter's shot at his charger, before contact, his player's choice.

The seed: "Reaction fire (active): A fighter with this ability can make a reaction fire (see special firing rules,
page 27) with any weapon he has. A fighter who already has that capacity can make those shots with a difficulty of 4
instead of 7."; Impact/X: "Only miniatures in contact with the front of the machine suffer the impact, but after
eventual reaction and assault firing". Played here (docs/rules/confrontation.md, "Reaction fire"; **estimated** where
marked):

* when a charge (plain or with assault fire) is declared on a fighter with Reaction fire and a ranged weapon who
  could shoot the charger now (not engaged, not in rout, in sight and range), the charge waits for his player:
  ``react`` (the keeper's proposal: he fires) or ``withhold``;
* the shot: an AIM test against 7 (4 with Reaction fire twice), then the weapon's damage roll on a hit; one
  reaction fire a round (**estimated**), which does not spend his activation (**estimated**);
* the charger killed: the charge is over; else it goes on as declared (his COU test, his assault fire, contact).
"""

from __future__ import annotations

from rulekeeper.core.chance import Fate
from rulekeeper.core.game import LegalAction

from .action_types import ByFighter, offer
from .assault import fire, reaction_difficulty, reaction_problem
from .state import Fighter, SkirmishState, replace


def may_react(state: SkirmishState, f: Fighter, t: Fighter) -> bool:
    """``t``, charged by ``f`` (not leaping), may fire at him first."""
    return reaction_problem(state, t, f) is None


def declare(state: SkirmishState, f: Fighter, t: Fighter, assault: bool) -> tuple[SkirmishState, str]:
    """The charge waits for the charged fighter's answer (his side to act)."""
    waiting = replace(state, reacting=(f.key, t.key, "assault" if assault else ""), to_act=t.side)
    return waiting, f"{f.key} charges {t.key}" + (" with assault fire" if assault else "") + \
        f": {t.key} may fire at him first (reaction fire, AIM vs {reaction_difficulty(t)})"


def pending_charge(state: SkirmishState) -> tuple[Fighter, Fighter, bool] | None:
    """The charger, the charged fighter and whether he fires as he charges, while a reaction is awaited."""
    if not state.reacting:
        return None
    f, t, how = state.reacting
    return state.fighter(f), state.fighter(t), how == "assault"


def reaction_offers(state: SkirmishState) -> list[LegalAction]:
    found = pending_charge(state)
    assert found is not None
    f, t, _ = found
    return [offer(ByFighter("react", t.side, t.key), f"{t.key} fires at {f.key} before he "
                  f"reaches him (reaction fire, AIM vs {reaction_difficulty(t)}; the keeper's proposal)", t.side,
                  None, "", "reaction fire", f"{t.key}: reaction fire"),
            offer(ByFighter("withhold", t.side, t.key), f"{t.key} holds his fire", t.side,
                  None, "", "hold fire", f"{t.key}: reaction fire")]


def reaction_check(state: SkirmishState, t: Fighter) -> str | None:
    found = pending_charge(state)
    if found is None or found[1].key != t.key:
        return f"no charge on {t.key} waits for his reaction fire"
    return None


def resolve(state: SkirmishState, fire_first: bool, fate: Fate) -> tuple[SkirmishState, str | None, Fighter, bool]:
    """The answer: the reaction fire if chosen (the charger as it leaves him); then the state without the pending
    charge, the shot's words, the charger, and whether he fires as he charges (the caller goes on with the charge
    while he stands)."""
    found = pending_charge(state)
    assert found is not None  # checked
    f, t, assault = found
    state = replace(state, reacting=())
    if not fire_first:
        return state, None, f, assault
    hit, said = fire(state, t, f, fate, reaction=True)
    state = state.with_fighters(hit, replace(t, reacted=True))
    return state, said, hit, assault
