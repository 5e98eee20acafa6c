"""Shooting (issue 24, point 10): a marksman's activation spent on one shot, with exact odds before the roll.

Third-edition rules (docs/rules/confrontation.md, "Shooting"): "sight over the front 180°, blocked by anything
larger than both shooter and target; AIM ≥ 0 to shoot; three range bands per weapon, short range difficulty 4
(medium and long estimated); +1 to the difficulty after moving; Bull's-eye adds (final result − difficulty) to the
damage Strength". The shot is an AIM test of :mod:`.rolls` (opened, natural fail) against the band's difficulty;
a hit is a damage roll of the weapon's STR on the Wound Table (:mod:`.wounds`), the target's damage hooks
applying. The AIM test is one draw announced exactly by the preview; the damage roll's odds depend on the AIM
result only through Bull's-eye, and the preview sums over it exactly.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.chance import ChanceRequest, Fate

from .core_rules import number
from .effects import TestShape
from .exchanges import Health, apply_wound
from .fighters import Combatant
from .heights import fighter_height
from .measures import edge_distance, line_of_sight
from .report_lines import ReportLine
from .rolls import odds_of_test, request_for_test, roll_test, succeeds
from .state import Fighter, SkirmishState, replace
from .terrain import cover_difficulty, sight_scenery
from .wounds import WOUND_LEVELS, DamageHook, WoundTable, damage_odds, damage_request, load_wound_table

#: Third-edition rules: "short range difficulty 4"; medium and long **estimated** (two more a band).
DIFFICULTY = {"short": 4, "medium": 6, "long": 8}
BANDS = ("short", "medium", "long")
#: Third-edition rules: "+1 to the difficulty after moving".
MOVED = 1
SIZE_RANK = {"Small": 0, "Medium": 1, "Large": 2, "Very Large": 3}
WOUNDS = frozenset(WOUND_LEVELS) | {"Killed outright"}


@dataclass(frozen=True)
class Shot:
    """One shot as the rules read it before the dice: the band, the difficulty and both sides' numbers."""

    shooter: str
    target: str
    distance: float
    band: str
    difficulty: int
    aim: int
    shape: TestShape
    strength: int
    resilience: int
    hooks: tuple[DamageHook, ...]
    bulls_eye: bool
    cover: str | None = None  # the scenery that covers the target (terrain.py)

    @property
    def where(self) -> str:
        """The band, the distance and the cover, as the action and the log name them."""
        return f"{self.band} range, {self.distance:.1f} cm" + (f", in cover of {self.cover}" if self.cover else "")

    @property
    def label(self) -> str:
        return f"AIM test: {self.shooter}"

    def request(self) -> ChanceRequest:
        return request_for_test(self.label, self.shape, self.aim, self.difficulty)

    def strength_for(self, final: int) -> int:
        """Bull's-eye "adds (final result − difficulty) to the damage Strength"."""
        return self.strength + (final - self.difficulty if self.bulls_eye else 0)

    def damage(self, table: WoundTable, final: int) -> ChanceRequest:
        return damage_request(f"damage roll: {self.shooter} shoots {self.target}", table, self.strength_for(final),
                              self.resilience, self.hooks)

    def outcomes(self, table: WoundTable) -> dict[str, Fraction]:
        """Exact odds of ``miss`` and of every damage line (the AIM test, then the damage roll it leads to)."""
        out: defaultdict[str, Fraction] = defaultdict(Fraction)
        for natural, p in odds_of_test(self.shape, self.aim, self.difficulty).items():
            if not succeeds(natural, self.aim, self.shape, self.difficulty):
                out["miss"] += p
                continue
            final = natural + self.aim + self.shape.modifier
            for line, q in damage_odds(table, self.strength_for(final), self.resilience, self.hooks).items():
                out[line] += p * q
        return dict(out)


def _combatant(f: Fighter) -> Combatant:
    return Combatant(f.card, hp=f.hp, stunned=f.stunned, fierce=f.fierce)


def _health(f: Fighter) -> Health:
    return Health(f.hp, f.fierce, f.stunned)


def sight_blockers(state: SkirmishState, f: Fighter, t: Fighter) -> list[Fighter]:
    """Bases that block the shot: "anything larger than both shooter and target" (the scenery: terrain.py; a
    scenario's ``obstacles`` have no Size, **estimated** taller than any fighter)."""
    tallest = max(fighter_height(f.card), fighter_height(t.card))  # Tall/X: "X cm tall instead of what his size states"
    return [g for g in state.standing() if g.key not in (f.key, t.key) and fighter_height(g.card) > tallest]


def band_of(f: Fighter, distance: float) -> str | None:
    weapon = f.card.weapon
    if weapon is None:
        return None
    return next((b for b, reach in zip(BANDS, weapon.ranges, strict=True) if distance <= reach + 1e-9), None)


def shot_problem(state: SkirmishState, f: Fighter, t: Fighter, table: WoundTable | None = None) -> str | None:
    """Why ``f`` cannot shoot ``t`` now, or ``None``."""
    table = table or load_wound_table()
    if f.card.weapon is None or f.card.AIM is None:
        return f"{f.key} has no ranged weapon"
    if f.card.AIM - _combatant(f).penalty(table, _health(f), "AIM") < 0:
        return f"{f.key}'s AIM is below 0 (third-edition rules: AIM ≥ 0 to shoot)"
    if f.engaged:
        return f"{f.key} is engaged"
    if t.engaged:
        return f"{t.key} is engaged in a fight (shooting into a fight is not modelled)"
    others = [g.base for g in sight_blockers(state, f, t)]
    if not line_of_sight(f.base, t.base, sight_scenery(state, f, t), others):
        return f"{t.key} is not in sight (front 180°, the scenery, bases larger than both)"
    distance = edge_distance(f.base, t.base)
    if band_of(f, distance) is None:
        assert f.card.weapon is not None
        return f"{t.key} is {distance:.1f} cm away, beyond the {f.card.weapon.name}'s long range of " \
               f"{f.card.weapon.ranges[2]} cm"
    return None


def shot_of(state: SkirmishState, f: Fighter, t: Fighter, table: WoundTable | None = None) -> Shot:
    """The shot's numbers (call :func:`shot_problem` first)."""
    table = table or load_wound_table()
    weapon = f.card.weapon
    assert weapon is not None and f.card.AIM is not None
    distance = edge_distance(f.base, t.base)
    band = band_of(f, distance) or "long"
    difficulty = DIFFICULTY[band] + (MOVED if f.walked else 0)  # "+1 to the difficulty after moving"
    if band != "short" and f.card.has("Precision"):
        difficulty -= 1  # "The difficulty of shooting at medium and long ranges decrease by 1"
    covering, cover = cover_difficulty(state, f, t)
    difficulty += covering  # terrain.py: a covered target (estimated +1; Instinctive firing ignores it)
    difficulty += target_and_cover(f, t)
    shooter, victim = _combatant(f), _combatant(t)
    return Shot(f.key, t.key, distance, band, difficulty,
                f.card.AIM - shooter.penalty(table, _health(f), "AIM"), shooter.shape("AIM", False),
                weapon.STR - shooter.penalty(table, _health(f), "STR"),
                t.card.RES - victim.penalty(table, _health(t), "RES"), shooter.damage_hooks(victim),
                f.card.has("Bull's eye"), cover)


def target_and_cover(f: Fighter, t: Fighter) -> int:
    """Target/X: "difficulty of his AIM test is modified by X (according to its sign). This does not cumulate with
    moving under cover (when they're both bonuses, they of course cumulate when this is a penalty)": a target who
    moved under cover this round (cover_move.py) adds the estimated ``under_cover.shot_difficulty``, the larger of
    the two when X is a bonus too, both when X is a penalty; Instinctive firing "does not suffer the penalties due to
    … cover" (read: moving under cover too)."""
    written = (t.card.value_of("Target") or "").strip()
    x = int(written) if written.lstrip("+-").isdigit() else 0
    under = number("under_cover", "shot_difficulty") if t.covered and not f.card.has("Instinctive firing") else 0
    if under and x > 0:
        return max(under, x)
    return under + x


def do_shoot(state: SkirmishState, f: Fighter, t: Fighter, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """The shot: the AIM test, then on a hit the damage roll and its wound."""
    table = load_wound_table()
    shot = shot_of(state, f, t, table)
    test = roll_test(fate, shot.label, shot.shape, shot.aim, shot.difficulty)
    shooter = replace(f, activated=True, aiming=False, fired=f.fired + 1)
    head = f"{f.key} shoots {t.key} ({shot.where}, difficulty {shot.difficulty}): " \
           f"AIM {test.final}"
    if not test.success:
        return again(state.with_fighters(shooter), shooter), [{"text": f"{head}, missed", "kind": "shot"}]
    line = fate.draw(shot.damage(table, test.final)).outcome
    health = apply_wound(_combatant(t), table, _health(t), line)
    hit = replace(t, hp=max(health.hp, 0), stunned=health.stunned, fierce=health.fierce, killed=health.killed)
    report: list[ReportLine] = [{"text": f"{head}, hit: {line}" + (f"; {t.key} is killed" if health.killed else ""),
                               "kind": "shot"}]
    return again(state.with_fighters(shooter, hit), shooter), report


#: Master marksman: "can declare the cumulative firing action twice during their activation" (and its aliases).
MASTERS = ("Master marksman", "Master Archer", "Master Crossbowman")


def again(state: SkirmishState, f: Fighter) -> SkirmishState:
    """After a shot: a Master marksman with one shot made and a target left may shoot again (his activation goes
    on: ``aiming``)."""
    if f.fired >= 2 or not any(f.card.has(m) for m in MASTERS):
        return state
    f = state.fighter(f.key)
    if any(shot_problem(state, f, e) is None for e in state.standing("B" if f.side == "A" else "A")):
        return state.with_fighters(replace(f, aiming=True))
    return state
