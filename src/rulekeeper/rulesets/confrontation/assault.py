"""Assault fire (issue 24): a charging marksman's shot at the fighter he charges, before contact.

The seed's "special firing rules, page 27" are not in it; what it does give: "Assault fire (active): A fighter with
this ability can make an assault fire with any weapon he has (see special firing rules, page 27). A fighter who
already has that capacity can make those shots with a difficulty of 4 instead of 7."; Impact/X: "Only miniatures in
contact with the front of the machine suffer the impact, but after eventual reaction and assault firing" and "If the
War Machine eliminates the target with assault fire". So an assault fire is made by a charger at the fighter he
charges, during the charge, before contact, at difficulty 7 (4 for a fighter who already had the capacity). Played
here (docs/rules/confrontation.md, "Assault fire"; **estimated** where marked):

* ``assault CHARGER TARGET`` (API: a ``charge`` with ``"assault": true``), offered beside the plain charge to a
  charger with Assault fire and a ranged weapon who could shoot the target now (in sight, in his weapon's range,
  the target not in a fight): the keeper proposes the plain charge;
* after the charger's own COU test (he must dare the charge), an AIM test against 7 (4 with Assault fire listed
  twice: "already has that capacity"), the whole difficulty (**estimated**: no range band, no moving, cover or
  Target/X modifier: the seed gives the number), then on a hit the weapon's damage roll, as a shot's;
* the target killed: the charger stays where he stood, his activation spent (**estimated**: "eliminates the target
  with assault fire" lets a War Machine redirect; a fighter's redirection is not in the seed); else the charge goes
  on: contact, the charged fighter's COU test.
"""

from __future__ import annotations

from rulekeeper.core.chance import Fate

from .exchanges import apply_wound
from .rolls import roll_test
from .shooting import Shot, _combatant, _health, shot_of, shot_problem
from .state import Fighter, SkirmishState, replace
from .wounds import load_wound_table

#: The seed: "can make those shots with a difficulty of 4 instead of 7".
DIFFICULTY, SKILLED = 7, 4


def assault_difficulty(f: Fighter) -> int:
    """7; 4 for "A fighter who already has that capacity" (Assault fire twice on his card)."""
    return SKILLED if f.card.ability_names.count("Assault fire") >= 2 else DIFFICULTY


def assault_problem(state: SkirmishState, f: Fighter, t: Fighter) -> str | None:
    if not f.card.has("Assault fire"):
        return f"{f.key} has no Assault fire"
    return shot_problem(state, f, t)


def assault_shot(state: SkirmishState, f: Fighter, t: Fighter) -> Shot:
    """The shot's numbers: a shot's, at the assault fire's difficulty (call :func:`assault_problem` first)."""
    return replace(shot_of(state, f, t), difficulty=assault_difficulty(f), band="assault", cover=None)


def reaction_difficulty(f: Fighter) -> int:
    """Reaction fire: 7; 4 for "A fighter who already has that capacity" (Reaction fire twice on his card)."""
    return SKILLED if f.card.ability_names.count("Reaction fire") >= 2 else DIFFICULTY


def reaction_problem(state: SkirmishState, t: Fighter, f: Fighter) -> str | None:
    """Why ``t``, charged by ``f``, cannot fire at him first: Reaction fire, one a round (**estimated**), not in rout
    (an active ability), not engaged, and a shot he could take now."""
    if not t.card.has("Reaction fire"):
        return f"{t.key} has no Reaction fire"
    if t.reacted or t.rout or t.engaged:
        return f"{t.key} {'made his reaction fire this round' if t.reacted else 'is in rout' if t.rout else 'is engaged'}"
    return shot_problem(state, t, f)


def reaction_shot(state: SkirmishState, t: Fighter, f: Fighter) -> Shot:
    return replace(shot_of(state, t, f), difficulty=reaction_difficulty(t), band="reaction", cover=None)


def fire(state: SkirmishState, f: Fighter, t: Fighter, fate: Fate, reaction: bool = False) -> tuple[Fighter, str]:
    """The AIM test, then on a hit the damage roll: the target as the shot left him, and the log's words (``f``
    shoots ``t``: the charger's assault fire, or the charged fighter's reaction fire)."""
    table = load_wound_table()
    shot = reaction_shot(state, f, t) if reaction else assault_shot(state, f, t)
    test = roll_test(fate, shot.label, shot.shape, shot.aim, shot.difficulty)
    what = f"fires at {t.key}, who charges him (reaction fire" if reaction else f"fires as he charges {t.key} (assault fire"
    head = f"{f.key} {what}, difficulty {shot.difficulty}): AIM {test.final}"
    if not test.success:
        return t, f"{head}, missed"
    line = fate.draw(shot.damage(table, test.final)).outcome
    health = apply_wound(_combatant(t), table, _health(t), line)
    hit = replace(t, hp=max(health.hp, 0), stunned=health.stunned, fierce=health.fierce, killed=health.killed)
    return hit, f"{head}, hit: {line}" + (f"; {t.key} is killed" if health.killed else "")
