"""The rules of a skirmish round: moves, charges into engagement, fights, the maintenance phase.

A round (docs/rules/confrontation.md, "Skirmishes"): the sides activate their free fighters one at a
time, alternately, the round's first side first (the sides take turns being first); an activated
fighter walks up to MOV cm, charges an enemy within 2 × MOV cm into base contact, or holds. Once
every free fighter has acted, each group of engaged fighters is fought as one fray of :mod:`.fray` (a
duel when it is two fighters; the HP, Stunned and Fierce a fighter has carry over from round to round). Then the maintenance phase of
:mod:`.maintenance` rolls Regeneration, Ephemeral, Repair and Ruin and removes a fighter standing
only thanks to Fierce. Every die is drawn through the state's :class:`~rulekeeper.core.chance.Fate`.
"""

from __future__ import annotations

import math
from typing import Any

from rulekeeper.boards.table import CONTACT, QUAD_SEGS, ChargeReach, contact_position, edge_distance
from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.wording import counted

from . import rallying_cry, steeling
from .assault import fire
from .charge_path import charge_route
from .cure import by_players as cure_by_players
from .cure import mark as mark_curers
from .cure import waiting as waiting_curer
from .cure import without_cure
from .declarations import as_declared
from .ending import by_points, decided
from .exchanges import Health, Report
from .fear import FearTest, awaits_resolute, braved, charge_tests, crossing_tests, face, face_all
from .fighters import Combatant
from .fray import MAX_FIGHTERS, Fray, resolve_fray
from .maintenance import roll_maintenance, upkeep_of
from .measures import charge_reach, way_problem
from .morale import without_active
from .report_lines import ReportLine
from .shooting import shot_problem
from .splitting import component, fights, fought_block
from .state import Fighter, SkirmishState, bearing, other, replace
from .terrain import barriers, sight_scenery, way_cost
from .wounds import load_wound_table

#: A charge is a run: up to twice MOV in cm. **Estimated**, read from Rapidity's "a movement potential of MOV x 3
#: when he charges, runs or flees" (the seed gives no other charge distance).
CHARGE_FACTOR = 2
RAPIDITY_FACTOR = 3
#: A move may not end nearer than this to another base: contact is made by a charge only.
KEEP_APART = CONTACT
#: What keeping a destination to the millimetre may add to a walk's length (cm): a walk of MOV on a slant stays legal.
ROUNDING = 0.075
#: Third-edition rules: "movement in cm in 2.5 cm steps" (option ``move_steps``).
STEP_CM = 2.5
#: How far a walk's length may be from a whole number of steps: its destination is kept to the millimetre.
STEP_SLACK = 0.1


def stepped(state: SkirmishState) -> bool:
    """Whether walks go in 2.5 cm steps: the option's default; a battle stored before the option walks freely."""
    return state.option("move_steps", "free") == "2.5"


def step_problem(state: SkirmishState, length: float) -> str | None:
    """Why a walk of ``length`` cm is not a whole number of 2.5 cm steps (when the option asks for them)."""
    if not stepped(state):
        return None
    steps = round(length / STEP_CM)
    if abs(length - steps * STEP_CM) <= STEP_SLACK:
        return None
    lower = math.floor(length / STEP_CM) * STEP_CM
    return f"{length:.1f} cm is not a whole number of 2.5 cm steps (third-edition rules: \"movement in cm in 2.5 cm " \
           f"steps\"): walk {lower:g} or {lower + STEP_CM:g} cm"


# -- geometry of moves and charges ---------------------------------------------------------------------


def inside(state: SkirmishState, x: float, y: float, radius: float) -> bool:
    return radius <= x <= state.width - radius and radius <= y <= state.height - radius


def move_problem(state: SkirmishState, f: Fighter, x: float, y: float, limit: float | None = None) -> str | None:
    """Why ``f`` cannot walk straight to (x, y), or None: within MOV cm, on the table, its base swept along
    the way entering no obstacle and no other base, ending out of contact with every other fighter."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return "the destination must be two finite numbers of cm"
    length = math.hypot(x - f.x, y - f.y)
    cost = way_cost(state, f, [(f.x, f.y), (x, y)])
    slow = f" ({cost:.1f} cm of movement: encumbered ground costs double)" if cost > length + 1e-9 else ""
    if cost > (f.card.MOV if limit is None else limit) + ROUNDING:
        return f"{length:.1f} cm{slow} is beyond his MOV of {f.card.MOV} cm" if limit is None else \
            f"{length:.1f} cm{slow} is beyond his {limit:g} cm"
    if not inside(state, x, y, f.radius):
        return f"({x:g}, {y:g}) puts his base off the {state.width:g} × {state.height:g} cm table"
    return way_problem(f.base, x, y, passes_through(f), barriers(state, f.card), state.others(f.key))


def sweep(f: Fighter, x: float, y: float) -> Any:
    """The area his base sweeps going straight to (x, y) (a shapely polygon)."""
    from shapely.geometry import LineString, Point  # type: ignore[import-untyped]

    line = LineString([(f.x, f.y), (x, y)]) if (x, y) != (f.x, f.y) else Point(f.x, f.y)
    return line.buffer(f.radius, quad_segs=QUAD_SEGS)


def passes_through(f: Fighter) -> bool:
    """Ethereal: "They can pass through all obstacles, be they an element of the scenery or a miniature. Yet they
    cannot stop 'in' an obstacle"."""
    return f.card.has("Ethereal")


def crossed(state: SkirmishState, f: Fighter, x: float, y: float, *spare: str) -> list[Fighter]:
    """The enemies whose bases his way to (x, y) enters (an Ethereal fighter's), nearest first."""
    path = sweep(f, x, y)
    hit = [e for e in state.standing(other(f.side)) if e.key not in spare
           and path.intersection(e.base.shape()).area > 1e-6]
    return sorted(hit, key=lambda e: (math.hypot(e.x - f.x, e.y - f.y), e.key))


def charge_cm(f: Fighter) -> int:
    """How far he may charge: 2 × MOV cm, 3 × MOV with Rapidity ("a movement potential of MOV x 3 when he
    charges"; active: the policy always uses it)."""
    return f.card.MOV * (RAPIDITY_FACTOR if f.card.has("Rapidity") else CHARGE_FACTOR)


def charge_of(state: SkirmishState, f: Fighter, target: Fighter, movement: float | None = None) -> ChargeReach:
    """The charge of ``f`` at ``target`` (:func:`~rulekeeper.boards.table.charge_reach`) within :func:`charge_cm`
    (or ``movement`` cm: a pursuit movement)."""
    others = state.others(f.key, target.key)
    movement = float(charge_cm(f)) if movement is None else movement
    walls = barriers(state, f.card)
    reach = charge_reach(f.base, target.base, movement, walls, others, sight_scenery(state, f, target))
    if not reach.possible and reach.reason == "the path is blocked" and passes_through(f):
        end = reach.end.shape()
        shapes = [o.shape() for o in walls] + [b.shape() for b in others]
        if not any(end.intersection(shape).area > 1e-6 for shape in shapes):
            reach = replace(reach, possible=True, reason="in reach, passing through (Ethereal)")
    if reach.possible and not inside(state, reach.end.x, reach.end.y, f.radius):
        reach = replace(reach, possible=False, reason="contact would put his base off the table")
    if not reach.possible and reach.reason in ("the path is blocked", "contact would put his base off the table"):
        return _around(state, f, target, reach, movement)
    return _slowed(state, f, reach, [(f.x, f.y), (reach.end.x, reach.end.y)], movement)


def out_of_reach(f: Fighter, target: Fighter, movement: float) -> bool:
    """Whether straight base contact with ``target`` is farther than ``movement`` cm: then :func:`charge_of` (and a
    leap's straight way, leap.py) is out of reach whatever the sight and the way (a way around is longer), so a
    list of the charges that *can* be made skips him without measuring his line of sight and his path with
    shapely (most of a search bot's simulation, profiled: issue 28)."""
    return straight_cm(f, target) > movement + 1e-9


def straight_cm(f: Fighter, target: Fighter) -> float:
    """How far straight base contact with ``target`` is (cm): ``charge_reach``'s distance, the same arithmetic, and
    never more than any charge's at him (around, or leaping: the same straight way). 0 for bases sharing a centre
    (``charge_reach`` refuses them: left to it)."""
    if (f.x, f.y) == (target.x, target.y):
        return 0.0
    end = contact_position(f.base, target.base)
    return math.hypot(end.x - f.x, end.y - f.y)


def _slowed(state: SkirmishState, f: Fighter, reach: ChargeReach, points: list[tuple[float, float]],
            movement: float) -> ChargeReach:
    """A charge that reaches contact but crosses encumbered ground: out of reach when the ground's cost takes it
    beyond his movement (terrain.py)."""
    if not reach.possible:
        return reach
    cost = way_cost(state, f, points)
    if cost <= movement + 1e-9:
        return reach
    return replace(reach, possible=False, reason=f"contact is {reach.distance:.1f} cm away, {cost:.1f} cm of movement "
                                                 f"with the encumbered ground, beyond {movement:g} cm")


def _around(state: SkirmishState, f: Fighter, target: Fighter, straight: ChargeReach, movement: float) -> ChargeReach:
    """A charge goes around bases and scenery (issue 24, point 9): the shortest way into contact
    (:func:`~.charge_path.charge_route`) within his charge distance, or the straight charge's reason."""
    circles = tuple((g.x, g.y, g.radius) for g in state.fighters if g.standing and g.key not in (f.key, target.key))
    route = charge_route((f.x, f.y), f.radius, (target.x, target.y, target.radius), movement, circles,
                         barriers(state, f.card), (state.width, state.height))
    if route is None:
        return straight
    x, y = route.end
    end = f.base.moved_to(x, y, bearing(x, y, target.x, target.y))
    reach = ChargeReach(route.length, end, True, f"in reach, going around ({counted(len(route.points) - 2, 'turn')})")
    return _slowed(state, f, reach, list(route.points), movement)


def can_charge(f: Fighter) -> bool:
    """A fighter in rout does not charge (**estimated**: he does not flee either, see "Morale")."""
    return not f.rout


def can_activate(state: SkirmishState, f: Fighter) -> bool:
    """Standing and not activated yet: a free fighter walks, charges, shoots or holds; an engaged one may try to
    disengage (disengage.py) or hold (he stays in his fight)."""
    return f.standing and not f.activated


def waiting(state: SkirmishState, side: str) -> list[Fighter]:
    return [f for f in state.fighters if f.side == side and can_activate(state, f)]


# -- activations -------------------------------------------------------------------------------------------


def walk_tests(state: SkirmishState, f: Fighter, x: float, y: float) -> list[FearTest]:
    """The COU tests a walk draws: those of the enemies a fear-inducing Ethereal fighter passes through."""
    return crossing_tests(state, f, crossed(state, f, x, y), False) if passes_through(f) else []


def charge_draws(state: SkirmishState, f: Fighter, t: Fighter) -> tuple[FearTest | None, list[FearTest],
                                                                         FearTest | None]:
    """The COU tests a charge draws, in order: the charger's, those of the enemies an Ethereal charger passes
    through, the charged fighter's (the preview announces exactly these; ``None`` when it waits for his player's
    Resolute: :mod:`.steeling`)."""
    mine, theirs = charge_tests(state, f, t)
    theirs = None if awaits_resolute(state, f, t) else theirs
    passing: list[FearTest] = []
    if passes_through(f):
        end = charge_of(state, f, t).end
        passing = crossing_tests(state, f, crossed(state, f, end.x, end.y, t.key), True)
    return mine, passing, theirs


def do_move(state: SkirmishState, f: Fighter, x: float, y: float, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    tests = walk_tests(state, f, x, y)
    facing = bearing(f.x, f.y, x, y) if (x, y) != (f.x, f.y) else f.facing
    moved = replace(f, x=x, y=y, facing=facing, activated=True, walked=True)
    text = f"{f.key} walks {math.hypot(x - f.x, y - f.y):.1f} cm to ({x:g}, {y:g}), facing {facing:g}°"
    report: list[ReportLine] = [{"text": text, "kind": "move"}]
    state = face_all(state.with_fighters(moved), tests, fate, report)
    walked = state.fighter(f.key)
    if walked.card.weapon is not None and any(shot_problem(state, walked, e) is None
                                              for e in state.standing(other(f.side))):
        state = state.with_fighters(replace(walked, aiming=True))  # third-edition rules: "+1 … after moving"
    return state, report


def do_charge(state: SkirmishState, f: Fighter, t: Fighter, fate: Fate,
              reach: ChargeReach | None = None, assault: bool = False) -> tuple[SkirmishState, list[ReportLine]]:
    """The charge: the charger's COU test first if ``t`` frightens him (failed: he does not charge, stays where he
    is and his activation ends), then his assault fire if he makes one (assault.py: the target killed, he stays
    where he is), then base contact, then the charged fighter's COU test if the charger frightens him (failed: he
    is in rout). Both through :mod:`.fear`."""
    report: list[ReportLine] = []
    asked = awaits_resolute(state, f, t)  # his COU test waits for his player's Resolute (steeling.py)
    mine, passing, theirs = charge_draws(state, f, t)
    steeled = " (Resolute)" if f.steeled and mine is not None else ""
    f = replace(f, steeled=False)  # Resolute: "For that test": his COU test, drawn now
    if mine is not None:
        if not mine.roll(fate):
            text = f"{f.key} fails his COU test{steeled} against {t.key}'s FEAR {mine.fear}: he does not charge"
            return state.with_fighters(replace(f, activated=True)), [{"text": text, "kind": "morale"}]
        report.append({"text": f"{f.key} passes his COU test{steeled} against {t.key}'s FEAR {mine.fear}",
                       "kind": "morale"})
        f = braved(f, mine)
    if assault:
        t, said = fire(state, f, t, fate)
        report.append({"text": said, "kind": "shot"})
        state = state.with_fighters(t)
        if t.killed:
            return state.with_fighters(replace(f, activated=True)), report
    reach = reach or charge_of(state, f, t)  # a leaping charge brings its own straight way (leap.py)
    end = reach.end
    charger = replace(f, x=end.x, y=end.y, facing=round(end.facing, 1), activated=True, charged=True,
                      engaged=(*f.engaged, t.key))
    target = replace(t, engaged=(*t.engaged, f.key))
    report.append({"text": f"{f.key} charges {t.key}: {reach.distance:.1f} cm into base contact", "kind": "charge"})
    state = face_all(state.with_fighters(charger, target), passing, fate, report)
    if asked:
        state, line = steeling.charged(state, state.fighter(f.key), state.fighter(t.key))
        return state, [*report, line]
    return state.with_fighters(face(state.fighter(t.key), theirs, fate, report)), report


def do_hold(state: SkirmishState, f: Fighter) -> tuple[SkirmishState, list[ReportLine]]:
    text = f"{f.key} does not shoot" if f.aiming else f"{f.key} stays in his fight" if f.engaged else \
        f"{f.key} holds his ground"
    return state.with_fighters(replace(f, activated=True, aiming=False)), [{"text": text, "kind": "hold"}]


# -- fights ---------------------------------------------------------------------------------------------------


def wild(state: SkirmishState, f: Fighter) -> bool:
    """Wild/X: "+1 bonus to INI, ATT and DEF as long as he is further than X cm from a friendly fighter" (measured
    edge to edge when the fight begins, from every standing friend)."""
    x = f.card.value_of("Wild")
    if x is None or not x.strip().isdigit():
        return False
    return all(edge_distance(f.base, g.base) > int(x) for g in state.standing(f.side) if g.key != f.key)


def combatant(f: Fighter, state: SkirmishState | None = None) -> Combatant:
    """The fighter as :mod:`.fray` sees him: his card named by his key (chance labels stay unique), entering
    the combat with the HP, Stunned and Fierce he has (his wound penalties are read from them); in rout, without
    his active abilities ("they cannot be used by a fighter in rout")."""
    card = without_active(f.card) if f.rout else f.card
    if state is not None:  # War fury, Sequence, Resolute as his player declared them (before_ini.py)
        card = as_declared(card, f, state.before_ini[2:])
    if f.boosts:  # Concentration's bonuses, as written on his card until the end of the round (concentration.py)
        card = card.model_copy(update={c: getattr(card, c) + n for c, n in f.boosts})
    return Combatant(card.model_copy(update={"name": f.key}), f.charged, hp=f.hp, stunned=f.stunned,
                     fierce=f.fierce, wild=state is not None and wild(state, f))


def pending(f: Fighter) -> bool:
    return f.standing and any(e not in f.fought for e in f.engaged)


def groups(state: SkirmishState) -> list[tuple[tuple[Fighter, ...], tuple[Fighter, ...]]]:
    """Each fray still to fight this round: a connected group of engagements still to fight (split frays apart:
    splitting.py), as (the Tactical roll winner's fighters, the other side's: he orders the fights), in the order
    the fighters stand in the state. A group larger than a fray can hold (``MAX_FIGHTERS``) is listed whole: it
    must be split before it is fought."""
    out: list[tuple[tuple[Fighter, ...], tuple[Fighter, ...]]] = []
    seen: set[str] = set()
    for f in state.fighters:
        if f.side != state.leader or f.key in seen or not pending(f):
            continue
        members = component(state, f.key)
        seen |= members
        group = [g for g in state.fighters if g.key in members]
        out.append((tuple(g for g in group if g.side == state.leader),
                    tuple(g for g in group if g.side != state.leader)))
    return out


def group_of(state: SkirmishState, lead: Fighter) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]] | None:
    return next((g for g in groups(state) if lead.key in {f.key for f in g[0]}), None)


def too_large(group: tuple[tuple[Fighter, ...], tuple[Fighter, ...]]) -> bool:
    """More fighters than a fray holds: the group must be split before it is fought."""
    return len(group[0]) + len(group[1]) > MAX_FIGHTERS


def fray_of(group: tuple[tuple[Fighter, ...], tuple[Fighter, ...]], state: SkirmishState) -> Fray:
    """The fray of a group: who fights whom is who is engaged with whom."""
    flat = [*group[0], *group[1]]
    index = {f.key: i for i, f in enumerate(flat)}
    pairs = frozenset((index[f.key], index[e]) for f in group[0] for e in f.engaged if e in index
                      and fights(state, f, e))
    return Fray((tuple(combatant(f, state) for f in group[0]), tuple(combatant(f, state) for f in group[1])),
                load_wound_table(),
                pairs)


def initiative_requests(fray: Fray) -> tuple[ChanceRequest, ChanceRequest]:
    """The two INI tests a fight draws first (one a camp: :meth:`~.fray.Fray.ini_test`)."""
    return fray.ini_test(0)[0], fray.ini_test(1)[0]


def after_fight(f: Fighter, health: Health) -> Fighter:
    """The fighter once the fray is over: his health as it left him, every engagement of this round fought."""
    if health.killed:
        return replace(f, hp=0, killed=True, engaged=(), fought=f.engaged, charged=False, fierce=False, stunned=False)
    return replace(f, hp=health.hp, fierce=health.fierce, stunned=health.stunned, fought=f.engaged, charged=False)


def names(fighters: tuple[Fighter, ...]) -> str:
    return " and ".join(f.key for f in fighters)


def do_fight(state: SkirmishState, lead: Fighter, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    group = group_of(state, lead)
    assert group is not None  # checked by actions.check
    report = Report()
    healths = resolve_fray(fate, fray_of(group, state), report)
    return fought(state, group, healths, report)


def fought(state: SkirmishState, group: tuple[tuple[Fighter, ...], tuple[Fighter, ...]], healths: tuple[Health, ...],
           report: Report) -> tuple[SkirmishState, list[ReportLine]]:
    """The skirmish once a group's fray is over (each fighter's health as it left him) and the fight's card."""
    flat = [*group[0], *group[1]]
    after = [after_fight(f, h) for f, h in zip(flat, healths, strict=True)]
    state = fought_block(state.with_fighters(*after), {f.key for f in flat})
    for dead in after:
        if dead.killed:
            state = _forget(state, dead.key)
    ends = "; ".join(f"{f.key}: {h.status()}" for f, h in zip(flat, healths, strict=True))
    lines = [report.initiative, *report.placement, *report.blows, ends]
    card: ReportLine = {"text": f"{names(group[0])} fight{'s' if len(group[0]) == 1 else ''} {names(group[1])}: {ends}",
                      "kind": "fight", "lines": lines}
    return state, [card]


def _forget(state: SkirmishState, key: str) -> SkirmishState:
    """A killed fighter leaves every engagement."""
    return replace(state, fighters=tuple(replace(f, engaged=tuple(e for e in f.engaged if e != key))
                                          for f in state.fighters))


# -- the flow of a round ---------------------------------------------------------------------------------------


def advance(state: SkirmishState, fate: Fate, report: list[ReportLine]) -> SkirmishState:
    """Who acts next after an action of ``state.to_act``: the other side while it has fighters waiting,
    then the combat phase, then the maintenance phase and the next round."""
    state = decided(state)
    if state.over or state.phase in ("tactical", "lead"):
        return state
    if state.phase == "maintenance":  # a Reinforcement choice was made
        return after_maintenance(state, fate, report)
    aiming = [f for f in state.fighters if f.aiming and f.standing]
    if state.phase == "activation" and aiming:  # his activation goes on: he may still shoot
        return replace(state, to_act=aiming[0].side)
    if state.phase == "activation":
        for side in (other(state.to_act), state.to_act):
            if waiting(state, side):
                return replace(state, to_act=side)
        state = replace(state, phase="combat", to_act=state.leader)
        if groups(state):
            report.append({"text": f"Round {state.round}: combat phase", "kind": "phase"})
    chasing = [f for f in state.fighters if f.pursuing and f.standing]
    if state.phase == "combat" and chasing:  # a pursuit movement comes before the next fight
        return replace(state, to_act=chasing[0].side)
    if state.phase == "combat" and groups(state):
        from .authority_uses import token_chooser  # authority_uses.py reads this module's fray groups
        from .concentration import declaring  # concentration.py reads this module's fights

        return replace(state, to_act=token_chooser(state) or declaring(state) or state.leader)
    from .reinforcement import roll_reinforcements  # reinforcement.py reads this module's geometry

    state = roll_reinforcements(maintenance(state, fate, report), fate, report)
    return after_maintenance(mark_curers(state), fate, report)  # whom each curer cures, his player's (cure.py)


def after_maintenance(state: SkirmishState, fate: Fate, report: list[ReportLine]) -> SkirmishState:
    """A Reinforcement choice or a curer's choice still to make keeps the maintenance phase (its player to act);
    else the next round."""
    choosing = next((f for f in state.fighters if f.returning), None) or waiting_curer(state)
    if choosing is not None:
        return replace(state, phase="maintenance", to_act=choosing.side)
    state = next_round(state, report)
    return state if state.over else rallying_cry.strategic(state, fate, report)  # Rallying cry, rallying tests


def maintenance(state: SkirmishState, fate: Fate, report: list[ReportLine]) -> SkirmishState:
    """The maintenance phase: each standing fighter's upkeep rolls, Fierce's removal, Stunned wearing off."""
    reading = state.option("ephemeral_vs_regeneration", "cancel")
    changed = []
    chosen = cure_by_players(state)  # Cure rolled apart, its target his player's choice (cure.py)
    for f in state.standing():
        card = without_cure(f.card) if chosen and f.card.has("Cure") else f.card
        upkeep = upkeep_of(card, f.fierce, reading)
        hp = f.hp
        if upkeep.rolls or upkeep.removed:
            hp = roll_maintenance(fate, card, f.hp, f.fierce, reading)
            report.append({"text": f"Maintenance: {f.key} {f.hp} → {hp} HP" + (" (removed)" if hp <= 0 else ""),
                           "kind": "maintenance"})
        changed.append(replace(f, hp=max(hp, 0), killed=hp <= 0, fierce=False, stunned=False))
    state = state.with_fighters(*changed)
    for f in changed:
        if f.killed:
            state = _forget(state, f.key)
    return state


def next_round(state: SkirmishState, report: list[ReportLine]) -> SkirmishState:
    state = decided(state)
    if state.over:
        return state
    if state.round >= state.round_limit:
        return by_points(state)
    fresh = tuple(replace(f, activated=False, fought=(), charged=False, heartened=False, pursuing=False, pursued=0,
                          aiming=False, walked=False, fired=0, leaps=0, covered=False, absorbed=False, reacted=False,
                          furious=False, resolute=False, cure_used=False, steeled=False)
                  for f in state.fighters)
    state = replace(state, fighters=fresh, round=state.round + 1, phase="tactical", to_act=state.leader, splits=(),
                    held=(0, 0), settled=(), no_pass="", asking="", declared="", concentrated="")  # unused tokens are discarded
    report.append({"text": f"Round {state.round}: the Tactical roll", "kind": "phase"})
    from .magic import refresh  # the Mystics' reserves at the start of a round (magic.py reads shooting.py)

    return refresh(state)


def do_lead(state: SkirmishState, first: str) -> tuple[SkirmishState, list[ReportLine]]:
    """The Tactical roll's winner chooses the side that acts first; the activation phase begins."""
    report: list[ReportLine] = [{"text": f"{state.name(state.leader)} choose: {state.name(first)} act first",
                               "kind": "phase"}]
    state = replace(state, phase="activation", first=first)
    for side in (first, other(first)):
        if waiting(state, side):
            return replace(state, to_act=side), report
    return replace(state, phase="combat", to_act=state.leader), report
