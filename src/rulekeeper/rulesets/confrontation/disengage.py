"""Disengaging (issue 24, point 10): an engaged fighter who tries to walk out of his fight.

The seed names the test without printing it: Disengagement/X "If a disengagement test has a difficulty higher than X,
then this test is made with a difficulty of X. This ability only applies to all disengagements. In case of
disengagements in STR, the fighter does not need to be of larger size than his opponent, but at least of equal
size"; Ethereal "automatically succeed all their disengagement rolls (provided that they could disengage)"; Harassment
"walk twice per activation (if he did not disengage)". **Estimated** (``data/core_rules.yaml``): an engaged fighter
may spend his activation on a disengagement test, an INI test (or, larger than every opponent in contact, or of equal
size with Disengagement, a STR test: his player's choice) against the opponents' best INI (or STR) + 3; passed, he
walks up to MOV out of contact (where: his choice; the keeper proposes straight away from them), a walk like any
other, so in whole 2.5 cm steps under option ``move_steps`` (third-edition rules: "movement in cm in 2.5 cm steps");
failed, he stays engaged. Either way his activation ends. Rules: docs/rules/confrontation.md, "Disengaging".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulekeeper.core.chance import ChanceRequest, Fate

from .core_rules import number
from .exchanges import entry_health
from .fighters import Combatant
from .report_lines import ReportLine
from .rolls import p_success, request_for_test, roll_test
from .shooting import SIZE_RANK
from .skirmish import STEP_CM, move_problem, step_problem, stepped
from .state import Fighter, SkirmishState, replace
from .wounds import load_wound_table

#: The run out of contact is searched back from MOV in steps of this many cm (a battle walking to the millimetre;
#: in 2.5 cm steps, ``STEP_CM``).
STEP = 0.5


@dataclass(frozen=True)
class Disengagement:
    """One disengagement test: by whom, with which characteristic, its value and difficulty (None: automatic)."""

    fighter: str
    test: str
    value: int
    difficulty: int | None
    combatant: Combatant

    @property
    def label(self) -> str:
        return f"disengagement test: {self.fighter}"

    def request(self) -> ChanceRequest:
        assert self.difficulty is not None
        return request_for_test(self.label, self.combatant.shape(self.test, False), self.value, self.difficulty)

    def chance(self) -> float:
        if self.difficulty is None:
            return 1.0
        return float(p_success(self.combatant.shape(self.test, False), self.value, self.difficulty))


def opponents(state: SkirmishState, f: Fighter) -> list[Fighter]:
    return [state.fighter(k) for k in f.engaged if state.fighter(k).standing]


def allowed_tests(state: SkirmishState, f: Fighter) -> list[str]:
    """INI always; STR when he is larger than every opponent in contact (with Disengagement: at least as large)."""
    mine = SIZE_RANK[f.card.size]
    sizes = [SIZE_RANK[o.card.size] for o in opponents(state, f)]
    larger = all(mine >= s for s in sizes) if f.card.has("Disengagement") else all(mine > s for s in sizes)
    return ["INI", "STR"] if larger and sizes else ["INI"]


def disengagement(state: SkirmishState, f: Fighter, test: str) -> Disengagement:
    table = load_wound_table()
    c = Combatant(f.card, hp=f.hp, stunned=f.stunned, fierce=f.fierce)
    value = getattr(f.card, test) - c.penalty(table, entry_health(c), test)
    best = max(getattr(o.card, test) for o in opponents(state, f))
    difficulty: int | None = best + number("disengage", "margin")
    x = (f.card.value_of("Disengagement") or "").strip()
    if x.isdigit() and difficulty is not None:
        difficulty = min(difficulty, int(x))  # "made with a difficulty of X"
    if f.card.has("Ethereal"):
        difficulty = None  # "automatically succeed all their disengagement rolls"
    return Disengagement(f.key, test, value, difficulty, c)


def way_out(state: SkirmishState, f: Fighter) -> list[float] | None:
    """The keeper's proposal: as far as MOV goes straight away from his opponents' centre, clear of everyone (a whole
    number of 2.5 cm steps when the option asks for them)."""
    foes = opponents(state, f)
    cx, cy = sum(o.x for o in foes) / len(foes), sum(o.y for o in foes) / len(foes)
    dx, dy = f.x - cx, f.y - cy
    norm = math.hypot(dx, dy) or 1.0
    step = STEP_CM if stepped(state) else STEP
    run = math.floor(f.card.MOV / step + 1e-9) * step if stepped(state) else float(f.card.MOV)
    while run > 0:
        x, y = round(f.x + dx / norm * run, 1), round(f.y + dy / norm * run, 1)
        if out_problem(state, f, x, y) is None:
            return [x, y]
        run -= step
    return None


def out_problem(state: SkirmishState, f: Fighter, x: float, y: float) -> str | None:
    """Why he cannot walk out to (x, y): a walk's rules (its 2.5 cm steps included), his opponents' bases not in the
    way (he leaves them)."""
    free = replace(f, engaged=())
    others = state.with_fighters(*[replace(o, engaged=tuple(e for e in o.engaged if e != f.key))
                                   for o in opponents(state, f)])
    return move_problem(others.with_fighters(free), free, x, y) or step_problem(state, math.hypot(x - f.x, y - f.y))


def do_disengage(state: SkirmishState, f: Fighter, test: str, to: list[float], fate: Fate) -> tuple[
        SkirmishState, list[ReportLine]]:
    d = disengagement(state, f, test)
    if d.difficulty is not None:
        result = roll_test(fate, d.label, d.combatant.shape(test, False), d.value, d.difficulty)
        if not result.success:
            text = f"{f.key} fails his disengagement test ({test} {result.final} vs {d.difficulty}): he stays engaged"
            return state.with_fighters(replace(f, activated=True)), [{"text": text, "kind": "morale"}]
    foes = opponents(state, f)
    x, y = to
    facing = round(math.degrees(math.atan2(y - f.y, x - f.x)), 1)
    out = replace(f, x=x, y=y, facing=facing, engaged=(), activated=True)
    left = [replace(o, engaged=tuple(e for e in o.engaged if e != f.key)) for o in foes]
    text = f"{f.key} disengages ({test} test) and walks to ({x:g}, {y:g})"
    return state.with_fighters(out, *left), [{"text": text, "kind": "move"}]
