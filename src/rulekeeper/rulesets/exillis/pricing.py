"""Ex illis muster points: basic cost, Shortage penalty, Faction rules, General promotion.

The seed's order: "At first, we determine the unit's basic cost, then we add the Shortage
penalty (based on the army's shape), and finally we take into account the Faction rules
brought by Generals with their factions." (``docs/rules/exillis-musters.md`` has every
decision with its quote.)

* Basic cost: :func:`~.scenario.unit_cost`, ``Basic x 2^(Level/10) x miniatures / full``
  rounded half up (6 Billmen at level 8 = 52). A hero is priced on its own line, at its own
  level, and counts in its own categories.
* Shape: each entry's basic points are added in every category it has ("its full point value
  is added in every category"), including the categories a faction rule adds (Sp for units
  "considered special"). Thresholds are fractions of the shape's total (the sum over the
  categories; data ``shortage_base: shape``) or of the army's basic total (``army``).
* Shortage: walking the list in order (a unit, then the hero with it), each point that lies
  past a category's first threshold costs one penalty point (the cost doubles), past the
  second two (it triples). A point in several categories is charged once, at its highest
  rate. ``Common`` halves the penalty; a faction's ``shortage_factor`` multiplies it.
* Faction: ``cost_factor`` multiplies basic + penalty; the General's promotion costs a
  fraction of his or her basic points, on a line of its own.

Pricing never raises for a rule broken: unknown units cost 0, out-of-range levels are priced
as written, and :meth:`ExIllisArmyRules.problems` says what is wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rulekeeper.core.armylist import ArmyList, CostLine, Problem
from rulekeeper.core.wording import counted

from .muster_checks import LONER, army_generals, check_army
from .muster_records import GameTypeDoc, MusterReportDoc, PricedLineDoc, Role, ShapeLine, State
from .musters_data import Effect, GameType, MustersData, load_musters_data
from .profiles import CATEGORIES, Roster, UnitProfile, load_profiles
from .scenario import unit_cost

__all__ = ["COMMON", "CategoryShape", "ExIllisArmyRules", "MusterReport", "PricedLine", "State", "round_half_up"]

COMMON = "Common"
#: Pricing bounds so that any integer in a file prices exactly, without overflow (it is a problem anyway):
#: levels beyond +-100 are priced at +-100, sizes above 1000 full units at 1000 (every value stays below 2^53).
_LEVEL_BOUND = 100
_SIZE_BOUND = 1000


def round_half_up(value: float) -> int:
    """The seed's rounding ("rounded up to the closest whole number": 52.23 -> 52, 52.5 -> 53)."""
    return math.floor(value + 0.5 + 1e-9)


@dataclass(frozen=True)
class CategoryShape:
    """One category of the muster shape: its basic points, share of the army, thresholds, colour."""

    category: str
    name: str
    points: int
    share: float
    first: float
    second: float | None
    state: State

    def to_dict(self) -> ShapeLine:
        return {"category": self.category, "name": self.name, "points": self.points, "share": round(self.share, 4),
                "first": self.first, "second": self.second, "state": self.state}


@dataclass(frozen=True)
class PricedLine:
    """A :class:`CostLine` with what a printed list shows next to it."""

    line: CostLine
    role: Role
    level: int | None = None
    miniatures: int | None = None
    full: int | None = None
    categories: tuple[str, ...] = ()

    @property
    def penalised(self) -> bool:
        """"If you pay penalty points for a unit, its cost will be shown in red"."""
        return self.line.shortage > 0

    def to_dict(self) -> PricedLineDoc:
        c = self.line
        return {"entry": c.entry, "unit": c.unit, "base": c.base, "shortage": c.shortage, "faction": c.faction,
                "total": c.total, "steps": list(c.steps), "role": self.role, "level": self.level, "miniatures": self.miniatures,
                "full": self.full, "categories": list(self.categories), "penalised": self.penalised}


@dataclass(frozen=True)
class MusterReport:
    """Everything ``rulekeeper muster check`` prints: costs, shape, total, BP, problems, notes."""

    name: str
    game_type: str
    game: GameType | None
    faction: str | None
    generals: tuple[str, ...]
    lines: tuple[PricedLine, ...]
    shape: tuple[CategoryShape, ...]
    basic_total: int
    shape_total: int
    shortage_base: str
    total: int
    units_and_heroes: int
    battle_points: int
    earns_bp: bool
    problems: tuple[Problem, ...]
    notes: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_dict(self) -> MusterReportDoc:
        game: GameTypeDoc | None = None if self.game is None else {"name": self.game.name, "min_level": self.game.min_level,
                                               "max_level": self.game.max_level, "earns_bp": self.game.earns_bp}
        return {
            "name": self.name, "game_type": self.game_type, "game": game, "faction": self.faction,
            "general": self.generals[0] if len(self.generals) == 1 else (list(self.generals) or None),
            "lines": [pl.to_dict() for pl in self.lines], "shape": [s.to_dict() for s in self.shape],
            "basic_total": self.basic_total, "shape_total": self.shape_total, "shortage_base": self.shortage_base,
            "total": self.total, "units_and_heroes": self.units_and_heroes,
            "battle_points": self.battle_points, "earns_bp": self.earns_bp, "valid": self.valid,
            "problems": [p.to_dict() for p in self.problems], "notes": list(self.notes),
        }


@dataclass
class _Piece:
    """One priced miniature group: a unit, its hero, or a Loner, while the report is built."""

    entry: int
    name: str
    role: Role
    profile: UnitProfile | None = None
    level: int | None = None
    miniatures: int | None = None
    full: int | None = None
    base: int = 0
    categories: tuple[str, ...] = ()
    cost_factor: float = 1.0
    shortage_factor: float = 1.0
    shortage_raw: float = 0.0
    steps: list[str] = field(default_factory=list)


def _extra(position: float, first: float, second: float) -> int:
    """Penalty points per point at ``position`` in a category: 0, 1 (doubles) or 2 (triples)."""
    return 2 if position > second else 1 if position > first else 0


def _overlap(lo: float, hi: float, a: float, b: float) -> float:
    return max(0.0, min(hi, b) - max(lo, a))


class ExIllisArmyRules:
    """Prices and checks Ex illis musters (implements :class:`~rulekeeper.core.armylist.ArmyRules`)."""

    def __init__(self, roster: Roster | None = None, data: MustersData | None = None) -> None:
        self.roster = load_profiles() if roster is None else roster
        self.data = load_musters_data() if data is None else data

    # -- the ArmyRules protocol -----------------------------------------------------------------

    def cost(self, army: ArmyList) -> list[CostLine]:
        return [pl.line for pl in self.report(army).lines]

    def problems(self, army: ArmyList) -> list[Problem]:
        return check_army(army, self.roster, self.data)

    # -- lookups ----------------------------------------------------------------------------------

    def game_type(self, name: str) -> GameType:
        """The game type ``name`` (case-insensitive); :class:`UnknownNameError` with suggestions."""
        return self.data.game_type(name)

    def effective_level(self, unit: str, level: int, game_type: str | GameType | None) -> int:
        """The level ``unit`` plays at in ``game_type``: ``level``, or for a named character the
        game's maximum within his or her own (William Wallace: 10 in Common, 20 in Grand... 40)."""
        game = self.data.find_game_type(game_type) if isinstance(game_type, str) else game_type
        profile = self.roster.find(unit)
        max_level = profile.max_level if profile is not None else level
        return self.data.effective_level(unit if profile is None else profile.name, level, game, max_level)

    def battle_points(self, army: ArmyList) -> int:
        """BP the army brings: by its number of units and Heroes (0 when the game type earns none)."""
        report = self.report(army)
        return report.battle_points if report.earns_bp else 0

    def shape(self, army: ArmyList) -> list[CategoryShape]:
        return list(self.report(army).shape)

    # -- the whole report -------------------------------------------------------------------------

    def report(self, army: ArmyList) -> MusterReport:
        notes: list[str] = []
        game = self.data.find_game_type(army.game_type) if army.game_type else None
        generals = army_generals(army)
        faction, effects = self._faction(army, generals, notes)
        pieces = self._pieces(army, game, notes)
        for piece in pieces:
            self._apply_effects(piece, effects, notes)
        basic_total = sum(p.base for p in pieces)
        shape_total = sum(p.base * len([c for c in p.categories if c in self.data.shortage]) for p in pieces)
        measure = shape_total if self.data.shortage_base.value == "shape" else basic_total
        points = self._shortage(pieces, measure)
        lines = [self._line(p) for p in pieces]
        promotion = self._promotion(pieces, faction, generals, notes)
        if promotion is not None:
            lines.append(promotion)
        shape = tuple(self._category(c, points.get(c, 0.0), measure) for c in CATEGORIES)
        count = len(army.units) + sum(1 for u in army.units if u.attached is not None)
        earns = game.earns_bp if game is not None else False
        if game is not None and not game.earns_bp:
            notes.append(f"{game.name} games do not earn the player any BP.")
        return MusterReport(
            name=army.name, game_type=army.game_type, game=game, faction=faction, generals=generals,
            lines=tuple(lines), shape=shape, basic_total=basic_total, shape_total=shape_total,
            shortage_base=self.data.shortage_base.value, total=sum(pl.line.total for pl in lines),
            units_and_heroes=count, battle_points=self.data.battle_points.bp_for(count), earns_bp=earns,
            problems=tuple(self.problems(army)), notes=tuple(notes),
        )

    def _faction(self, army: ArmyList, generals: tuple[str, ...], notes: list[str]) -> tuple[
            str | None, list[tuple[str, Effect]]]:
        """The army's faction and the cost effects of its rules ("only when the Hero becomes General")."""
        heroes = [p for p in (self.roster.find(g) for g in generals) if p is not None and p.kind == "hero"]
        if not heroes:
            if army.faction is not None:
                notes.append("No General, so no faction rules apply: 'Faction rules are applied to the whole army, "
                             "but only when the Hero becomes General'.")
            return None, []
        faction: str | None = None
        if army.faction is not None:
            faction = self.data.find_faction(army.faction)
        else:
            own = self.data.hero_factions(heroes[0].name)
            if len(own) == 1:
                faction = own[0]
                notes.append(f"Faction {faction}: {heroes[0].name}'s only faction.")
        if faction is None:
            return None, []
        effects: list[tuple[str, Effect]] = []
        for rule_name, rule in self.data.rules_of(faction):
            effects.extend((rule_name, e) for e in rule.effects)
            cost_note = "" if rule.effects else " (no cost effect)"
            notes.append(f"Faction rule {rule_name}{cost_note}: {rule.text}")
        return faction, effects

    def _pieces(self, army: ArmyList, game: GameType | None, notes: list[str]) -> list[_Piece]:
        pieces: list[_Piece] = []
        for i, u in enumerate(army.units, 1):
            profile = self.roster.find(u.unit)
            if profile is None:
                pieces.append(_Piece(i, u.unit, "unknown", steps=["unknown unit: not priced"]))
            else:
                role: Role = "unit" if profile.kind == "unit" else "loner" if LONER in profile.special_rules else "hero"
                size = profile.miniatures if u.miniatures is None else u.miniatures
                pieces.append(self._priced(i, profile, role, u.level, size, game, notes))
            if u.attached is not None:
                hero = self.roster.find(u.attached)
                if hero is None:
                    pieces.append(_Piece(i, u.attached, "unknown", steps=["unknown hero: not priced"]))
                else:
                    pieces.append(self._priced(i, hero, "hero", u.attached_level, hero.miniatures, game, notes))
        return pieces

    def _priced(self, entry: int, profile: UnitProfile, role: Role, level: int, size: int, game: GameType | None,
                notes: list[str]) -> _Piece:
        played = self.data.effective_level(profile.name, level, game, profile.max_level)
        if self.data.named(profile.name) is not None:
            where = f"the highest a {game.name} game allows" if game is not None else "his or her own level"
            changed = f"; the file's level {level} is replaced" if played != level else ""
            notes.append(f"Entry {entry}: {profile.name} is a named Character, 'always played to the maximum level "
                         f"allowed by the game': level {played} ({where}){changed}.")
        full = profile.miniatures
        lvl = max(-_LEVEL_BOUND, min(_LEVEL_BOUND, played))
        count = max(0, min(size, full * _SIZE_BOUND))
        cost = profile.stat("cost")
        base = unit_cost(cost, lvl, count, full)
        exact = cost * 2 ** (lvl / 10) * count / full
        steps = [f"basic {cost:g} x 2^({lvl}/10) x {count}/{full} = {exact:.2f} -> {base}"]
        return _Piece(entry, profile.name, role, profile, played, count, full, base, profile.categories, steps=steps)

    def _apply_effects(self, piece: _Piece, effects: list[tuple[str, Effect]], notes: list[str]) -> None:
        profile = piece.profile
        if profile is None:
            return
        origin = self.data.origin(profile.name)
        if origin is None and effects:
            notes.append(f"{profile.name} has no origin tags in the muster data: faction rules naming tags "
                         "(Angelic, Celtic, Human...) do not apply to it.")
        tags = origin.tags if origin is not None else ()
        for rule_name, effect in effects:
            if not effect.matches(profile.name, tags, profile.special_rules):
                continue
            added = tuple(c for c in effect.add_categories if c not in piece.categories)
            if added:
                piece.categories = (*piece.categories, *added)
                piece.steps.append(f"{rule_name} ({effect.target()}): considered {'/'.join(added)}")
            if effect.cost_factor is not None:
                piece.cost_factor *= effect.cost_factor
                piece.steps.append(f"{rule_name} ({effect.target()}): cost x {effect.cost_factor:g}")
            if effect.shortage_factor is not None:
                piece.shortage_factor *= effect.shortage_factor
                piece.steps.append(f"{rule_name} ({effect.target()}): Shortage penalty x {effect.shortage_factor:g}")
        if COMMON in profile.special_rules:
            piece.shortage_factor *= 0.5
            piece.steps.append("Common: '50% less penalty points' -> Shortage penalty x 0.5")

    def _shortage(self, pieces: list[_Piece], measure: int) -> dict[str, float]:
        """Charge each piece the penalty for its points past the thresholds (fractions of ``measure``,
        the shape's or the army's total); return the points of each category."""
        limits: dict[str, tuple[float, float]] = {}
        for cat, th in self.data.shortage.items():
            limits[cat] = (th.first * measure, math.inf if th.second is None else th.second * measure)
        running = dict.fromkeys(self.data.shortage, 0.0)
        for piece in pieces:
            cats = [c for c in piece.categories if c in limits]
            c = float(piece.base)
            if c > 0 and cats:
                marks = {0.0, c}
                for k in cats:
                    for t in limits[k]:
                        if 0 < t - running[k] < c:
                            marks.add(t - running[k])
                xs = sorted(marks)
                raw = 0.0
                for x0, x1 in zip(xs, xs[1:], strict=False):
                    mid = (x0 + x1) / 2
                    raw += (x1 - x0) * max(_extra(running[k] + mid, *limits[k]) for k in cats)
                piece.shortage_raw = raw
                if raw > 0:
                    piece.steps.append(self._shortage_step(piece, cats, running, limits, raw))
            for k in cats:
                running[k] += c
        return running

    def _shortage_step(self, piece: _Piece, cats: list[str], running: dict[str, float],
                       limits: dict[str, tuple[float, float]], raw: float) -> str:
        parts = []
        for k in cats:
            lo, hi = running[k], running[k] + piece.base
            a, b = limits[k]
            over1, over2 = _overlap(lo, hi, a, b), _overlap(lo, hi, b, math.inf)
            th = self.data.shortage[k]
            if over1 > 0:
                parts.append(f"{k} past {th.first:.0%}: {over1:.2f} points x2")
            if over2 > 0 and th.second is not None:
                parts.append(f"{k} past {th.second:.0%}: {over2:.2f} points x3")
        once = " (a point in several categories is charged once, at its highest rate)" if len(parts) > 1 else ""
        return f"Shortage: {'; '.join(parts)} -> {raw:.2f} penalty points{once}"

    def _line(self, piece: _Piece) -> PricedLine:
        shortage = round_half_up(piece.shortage_raw * piece.shortage_factor)
        before = piece.base + shortage
        after = round_half_up(before * piece.cost_factor)
        steps = list(piece.steps)
        if shortage or piece.shortage_raw:
            steps.append(f"Shortage penalty {piece.shortage_raw:.2f} x {piece.shortage_factor:g} -> {shortage}")
        if after != before:
            steps.append(f"faction: ({piece.base} + {shortage}) x {piece.cost_factor:g} -> {after}")
        line = CostLine(entry=piece.entry, unit=piece.name, base=float(piece.base), shortage=float(shortage),
                        faction=float(after - before), total=after, steps=tuple(steps))
        return PricedLine(line, piece.role, piece.level, piece.miniatures, piece.full, piece.categories)

    def _promotion(self, pieces: list[_Piece], faction: str | None, generals: tuple[str, ...],
                   notes: list[str]) -> PricedLine | None:
        """"A promotion cost might have to be paid": a fraction of the General's basic points."""
        if faction is None or not generals:
            return None
        hero = self.roster.find(generals[0])
        piece = next((p for p in pieces if hero is not None and p.name == hero.name and p.role != "unit"), None)
        share = self.data.factions[faction].promotion
        if piece is None:
            return None
        if share <= 0:
            notes.append(f"No General promotion cost for {faction} (estimate, see the muster data).")
            return None
        points = round_half_up(piece.base * share)
        step = (f"General promotion ({faction}): {share:.0%} of {piece.name}'s {counted(piece.base, 'basic point')} "
                f"-> {points}")
        line = CostLine(entry=piece.entry, unit=f"{piece.name} (General promotion)", base=0.0, shortage=0.0,
                        faction=float(points), total=points, steps=(step,))
        return PricedLine(line, "promotion")

    def _category(self, cat: str, points: float, measure: int) -> CategoryShape:
        th = self.data.shortage[cat]
        share = points / measure if measure > 0 else 0.0
        first, second = th.first * measure, (math.inf if th.second is None else th.second * measure)
        state: State = "red" if points > second else "yellow" if points > first else "green"
        return CategoryShape(cat, th.name, round_half_up(points), share, th.first, th.second, state)
