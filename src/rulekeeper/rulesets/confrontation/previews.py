"""The odds a skirmish action shows before it is made: exactly the draws its resolution makes (preview = roll)."""

from __future__ import annotations

import math
from fractions import Fraction

from rulekeeper.core.game import OddsPreview

from . import after_ini, before_ini, cure, rallying_cry, steeling
from .accumulators import absorb_preview
from .action_types import (
    Absorb,
    ByFighter,
    Cast,
    Charge,
    Concentrate,
    Cure,
    Declare,
    Disengage,
    Place,
    Pursue,
    Shoot,
    SkirmishAction,
    ToPoint,
)
from .assault import assault_shot, reaction_difficulty, reaction_shot
from .authority import holder
from .concentration import do_concentrate, points_of
from .core_rules import number
from .cover_move import cover_cm
from .disengage import disengagement
from .fear import FearTest, awaits_resolute, charge_tests, steeled_charge
from .flight import fanaticism_test, flee_cm, flight_of, opponent_chooses, pursuit_cm
from .fray import Fray, initiative_odds_of
from .fray_whole import fray_ends
from .leap import leap_charge, leap_pursuit
from .magic_preview import magic_preview
from .maintenance import cure_odds, x_of
from .placing import by_players, group_now, placed_so_far, with_choice
from .reaction import may_react
from .shooting import WOUNDS, Shot, shot_of
from .skirmish import (
    charge_cm,
    charge_draws,
    charge_of,
    fray_of,
    group_of,
    groups,
    initiative_requests,
    too_large,
    walk_tests,
)
from .state import Fighter, SkirmishState, replace
from .tactical import request, roll_odds, win_odds
from .wounds import load_wound_table


def _pct(p: Fraction | float) -> float:
    return float(p)


def _odds(tests: list[FearTest]) -> list[tuple[str, float | str]]:
    return [(f"{test.tester} passes COU {test.characteristic} vs FEAR {test.fear}", _pct(test.chance()))
            for test in tests]


def _passes(tests: list[FearTest]) -> list[tuple[str, float | str]]:
    """Each test by its label (a rallying test may be DIS: the characteristic, not its name)."""
    return [(f"{test.label} passes {test.characteristic} vs {test.fear}", _pct(test.chance())) for test in tests]


def fray_outlook(state: SkirmishState, group: tuple[tuple[Fighter, ...], tuple[Fighter, ...]],
                 fray: Fray, winner: int | None = None) -> list[tuple[str, float | str]]:
    """The whole fray's outcome (issue 24: "the preview of a fight shows the kill odds, not only the initiative
    dice"): each side's chance of killing every enemy in it, of no one being killed, and each fighter's chance of
    being killed (the enemies first); :func:`~.fray_whole.fray_ends`: exact when small, else the numpy kernel's
    estimate with its error (the seed is fixed, so the preview of one state is always the same). Each side by its
    name, as the initiative line beside it says it (the lines read "side A kills every enemy in the fight" under
    "Lions of Alahan win initiative", played as a user)."""
    flat = [*group[0], *group[1]]
    camp_a = len(group[0])
    found = fray_ends(fray, winner=winner)  # the whole fray, fast (issue 27): exact when small, else an estimate
    ends: dict[tuple[str, ...], float] = found.odds
    how: list[tuple[str, float | str]] = [("odds", "exact" if found.method == "exact" else
                                           f"estimate, ±{100 * found.error_bound:.1f} % ({found.note})")]
    out = list(how)
    first, second = flat[0].side, flat[camp_a].side
    for side, enemies in ((first, range(camp_a, len(flat))), (second, range(camp_a))):
        won = sum(p for e, p in ends.items() if all(e[k] == "killed" for k in enemies))
        out.append((f"{state.name(side)} kill every enemy in the fight", _pct(won)))
    out.append(("no one killed", _pct(sum(p for e, p in ends.items() if "killed" not in e))))
    for at in [*range(camp_a, len(flat)), *range(camp_a)]:  # the enemies first
        killed = sum(p for e, p in ends.items() if e[at] == "killed")
        out.append((f"{flat[at].key} killed", _pct(killed)))
    return out


def _shot_lines(shot: Shot, what: str = "") -> list[tuple[str, float | str]]:
    """A shot's exact chances: to hit, to wound, to kill (summed over every AIM result); ``what`` names the shot
    when a preview shows two (a reaction fire, then an assault fire)."""
    ends = shot.outcomes(load_wound_table())
    wounded = sum((p for line, p in ends.items() if line in WOUNDS), Fraction(0))
    head = f"{what}: " if what else ""
    return [(f"{head}difficulty", f"AIM {shot.aim} vs {shot.difficulty}"),
            (f"{head}hits", _pct(1 - ends.get("miss", Fraction(0)))), (f"{head}wounds", _pct(wounded)),
            (f"{head}{shot.target} killed", _pct(ends.get("Killed outright", Fraction(0))))]


def initiative_label(state: SkirmishState, side: str) -> str:
    """Whose chance a fray's initiative line gives (its camp A's side): a bare "wins initiative" did not say, and a
    player read the other camp's odds as his own."""
    return f"{state.name(side)} win initiative"


def concentrate_preview(state: SkirmishState, f: Fighter, given: dict[str, int]) -> OddsPreview:
    """Concentration draws nothing; its preview is his fight's odds recomputed with the bonus (the fight's own
    preview and roll read the same boosted card once it is given: preview = roll)."""
    after, said = do_concentrate(state, f, given)
    lines: list[tuple[str, float | str]] = [("Concentration", said.split(": ", 1)[1])]
    group = next((g for g in groups(after) if f.key in {h.key for h in (*g[0], *g[1])}), None)
    if group is None or too_large(group):
        return OddsPreview(tuple(lines))
    fray = fray_of(group, after)
    won = initiative_odds_of(fray)
    lines.append((initiative_label(state, group[0][0].side), _pct(won)))
    ends = fray_ends(fray).odds
    hurt = [(f"{g.key} loses HP", _pct(sum(p for e, p in ends.items() if not e[k].startswith(f"{g.hp} HP"))))
            for k, g in enumerate((*group[0], *group[1]))]
    return OddsPreview((*lines, *fray_outlook(state, group, fray), *hurt))


def _declaring_preview(state: SkirmishState, lead: Fighter, then: str) -> OddsPreview:
    """A fight's outlook while its abilities are being declared: no draw yet (the INI tests come after the last)."""
    group = group_of(state, lead)
    if group is None:
        return OddsPreview()
    fray = fray_of(group, state)
    return OddsPreview((("then", then), (initiative_label(state, group[0][0].side), _pct(initiative_odds_of(fray))),
                        *fray_outlook(state, group, fray)))


def preview(state: SkirmishState, action: SkirmishAction) -> OddsPreview:
    """A fight's two INI tests (its first draws, exactly) and its exact odds when small enough; a move's or
    charge's measured distance."""
    kind = action.kind
    if kind == "tactical" and holder(state) is not None:  # a draw stops the roll: the token's holder chooses
        a, b, draw = roll_odds(state)
        return OddsPreview(((f"{state.name('A')} win the Tactical roll", _pct(a)),
                            (f"{state.name('B')} win the Tactical roll", _pct(b)),
                            (f"a draw: {state.name(str(holder(state)))} may spend an Authority token", _pct(draw))),
                           (request(state, "A"), request(state, "B")))
    if kind == "tactical":
        return OddsPreview(((f"{state.name('A')} win the Tactical roll", _pct(win_odds(state, "A"))),
                            (f"{state.name('B')} win the Tactical roll", _pct(win_odds(state, "B")))),
                           (request(state, "A"), request(state, "B")))
    try:
        f = state.fighter(action.fighter)
    except LookupError:
        return OddsPreview()
    if isinstance(action, Cure) and action.target is not None:  # one d6 (+1 as a simple action)
        simple = state.phase == "activation"
        return OddsPreview(((f"{action.target} cured (1 LP)", float(cure_odds(x_of(f.card, "Cure"), simple))),),
                           (cure.request(f, state.fighter(action.target), simple),))
    if isinstance(action, Declare) and after_ini.pending(state) is not None:  # the fight's outlook with this announcement
        announced = after_ini.with_announcement(state, action)  # (the rest as proposed): nothing is drawn
        now, winner = group_now(announced), int(announced.placing[2])
        return OddsPreview(tuple(fray_outlook(announced, now, placed_so_far(announced, now, winner), winner)))
    if isinstance(action, Declare) and before_ini.declaring(state):  # the fight with this declaration, the rest
        declared = before_ini.with_declaration(state, action)  # as proposed; the last one is the fight's start
        lead = declared.fighter(declared.before_ini[1])
        if before_ini.pending(declared) is None:
            return preview(declared, ByFighter("fight", lead.side, lead.key))
        return _declaring_preview(declared, lead, "the declarations after his: the keeper's proposals")
    if kind == "fight" and before_ini.asks(state, f):  # it draws nothing: War fury, Sequence, Resolute are declared first
        group = group_of(state, f)
        said = [f"{p.fighter.key}'s {p.ability}" for p in ([] if group is None else before_ini.queue(state, group))]
        return _declaring_preview(state, f, f"declared first, before the INI test: {', '.join(said)}; the odds below "
                                            "take the keeper's proposals")
    if kind == "fight":
        group = group_of(state, f)
        if group is None:
            return OddsPreview()
        fray = fray_of(group, state)
        headline: list[tuple[str, float | str]] = [(initiative_label(state, group[0][0].side),
                                                     _pct(initiative_odds_of(fray)))]
        if by_players(state):  # the fight draws its INI tests; the players place their dice after (placing.py)
            headline.append(("then", "each fighter's dice are placed, the loser's camp first; the odds below take "
                                     "the keeper's proposals"))
        return OddsPreview((*headline, *fray_outlook(state, group, fray)), initiative_requests(fray))
    if isinstance(action, Place) and state.placing:  # the fight's outlook with this placement (placing.py), the
        fray, winner, group, _ = with_choice(state, action.attack)  # fighters after him placing as proposed
        return OddsPreview(tuple(fray_outlook(state, group, fray, winner)))
    if kind in ("react", "withhold") and state.reacting:  # the reaction fire, then the charge as declared
        charger, t, assault = state.fighter(state.reacting[0]), f, state.reacting[2] == "assault"
        after = replace(state, reacting=()).with_fighters(replace(t, reacted=True))  # answered: no second offer
        rest = preview(after, Charge(charger.side, charger.key, t.key, assault=True if assault else None))
        if kind == "withhold":
            return rest
        shot = reaction_shot(state, t, charger)
        return OddsPreview((*_shot_lines(shot, "reaction fire"), *rest.headline), (shot.request(), *rest.draws))
    if isinstance(action, Charge):
        state, f = steeled_charge(state, f, action.resolute)  # Resolute on his COU test (fear.py)
        t = state.fighter(action.target)
        reach = (leap_charge(state, f, t)[0] if action.leap else None) or charge_of(state, f, t)
        mine, passing, theirs = charge_draws(state, f, t)
        tests = [test for test in (mine, *passing, theirs) if test is not None]
        lines: list[tuple[str, float | str]] = [("distance", f"{reach.distance:.1f} cm of {charge_cm(f)}")]
        if awaits_resolute(state, f, t):  # his COU test waits for his player's Resolute (steeling.py)
            plain, steeled = (charge_tests(state, f, replace(t, steeled=used))[1] for used in (False, True))
            assert plain is not None and steeled is not None  # awaits_resolute: both exist
            lines.append(("then", f"{t.key}'s player says whether he spends Resolute on his COU test: he passes "
                                  f"{_pct(plain.chance()):.1%} without, {_pct(steeled.chance()):.1%} with"))
        waits = not action.leap and may_react(state, f, t)  # declared: nothing drawn until the answer (reaction.py)
        if waits:
            lines.append(("reaction fire", f"{t.key} may fire first (AIM vs {reaction_difficulty(t)}); the odds "
                                           "below come after his answer"))
        if action.assault is True:  # the charger's test, then his shot, then the rest (assault.py)
            shot = assault_shot(state, f, t)
            fired = (*(() if mine is None else (mine.request(),)), shot.request(), *(x.request() for x in tests[1:]))
            return OddsPreview((*lines, *_odds(tests), *_shot_lines(shot)), () if waits else fired if mine else
                               (shot.request(), *(x.request() for x in tests)))
        return OddsPreview((*lines, *_odds(tests)), () if waits else tuple(test.request() for test in tests))
    if isinstance(action, Shoot):
        shot = shot_of(state, f, state.fighter(action.target))
        ends = shot.outcomes(load_wound_table())
        wounded = sum((p for line, p in ends.items() if line in WOUNDS), Fraction(0))
        return OddsPreview((("distance", f"{shot.distance:.1f} cm, {shot.band} range"),
                            ("difficulty", f"AIM {shot.aim} vs {shot.difficulty}"),
                            ("hits", _pct(1 - ends.get("miss", Fraction(0)))), ("wounds", _pct(wounded)),
                            (f"{shot.target} killed", _pct(ends.get("Killed outright", Fraction(0))))),
                           (shot.request(),))
    if isinstance(action, Declare) and state.crying:  # Rallying cry; the rallying tests after it (rallying_cry.py)
        words, tests = rallying_cry.planned(state, bool(action.value))
        return OddsPreview((("then", words), *_passes(tests)), tuple(test.request() for test in tests))
    if isinstance(action, Declare) and state.steeling:  # his COU test as declared, the rest of a rally (steeling.py)
        tests = steeling.answer_tests(state, bool(action.value))
        return OddsPreview(tuple(_passes(tests)), tuple(test.request() for test in tests))
    if isinstance(action, Declare) and state.rapid_flight:  # the opponent's choice: the run it makes, no draw
        run = flight_of(state, f, bool(action.value))
        return OddsPreview((("run", f"{run.distance:.1f} cm of {flee_cm(f, bool(action.value)):g}"
                                    + (", off the field" if run.leaves else "")),))
    if kind == "flee":
        test = fanaticism_test(f)
        run = flight_of(state, f)
        ran: tuple[str, float | str] = ("run", f"{run.distance:.1f} cm of {flee_cm(f):g}"
                                             + (", off the field" if run.leaves else ""))
        if opponent_chooses(state, f):
            fast = flight_of(state, f, True)
            ran = ("run", f"{run.distance:.1f} cm of {flee_cm(f):g}, or {fast.distance:.1f} cm of "
                          f"{flee_cm(f, True):g} with Rapidity" + (" (off the field)" if fast.leaves else "")
                          + ": his opponent chooses")
        if test is None:
            return OddsPreview((ran,))
        return OddsPreview((ran, (f"{f.key} passes DIS {test.characteristic} vs {test.fear} and does not flee",
                                     _pct(test.chance()))), (test.request(),))
    if isinstance(action, Disengage):
        d = disengagement(state, f, action.test)
        if d.difficulty is None:
            return OddsPreview((("disengages", 1.0),))
        return OddsPreview(((f"disengages ({d.test} {d.value} vs {d.difficulty})", d.chance()),), (d.request(),))
    if isinstance(action, Pursue):
        t = state.fighter(action.target)
        reach = (leap_pursuit(state, f, t)[0] if action.leap else None) or charge_of(state, f, t, pursuit_cm(f))
        return OddsPreview((("distance", f"{reach.distance:.1f} cm of {pursuit_cm(f):g}"),))
    if isinstance(action, Cast) or kind in ("counter", "let"):
        return magic_preview(state, f, action)
    if isinstance(action, Absorb):
        return absorb_preview(state, f, list(action.from_))
    if isinstance(action, Concentrate):
        return concentrate_preview(state, f, points_of(action.points.given()))
    if isinstance(action, ToPoint) and kind == "cover":
        x, y = action.to
        return OddsPreview((("distance", f"{math.hypot(x - f.x, y - f.y):.1f} cm of {cover_cm(f):g}"),
                            ("shots at him this round", f"+{number('under_cover', 'shot_difficulty')} difficulty")))
    if isinstance(action, ToPoint) and kind in ("move", "leap"):
        x, y = action.to
        crossing = walk_tests(state, f, x, y)
        return OddsPreview((("distance", f"{math.hypot(x - f.x, y - f.y):.1f} cm of {f.card.MOV}"), *_odds(crossing)),
                           tuple(test.request() for test in crossing))
    return OddsPreview()
