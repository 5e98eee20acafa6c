"""Shooting in a battle: who may shoot at whom now (offensive and defensive fire), and what a shot does.

The line of fire and the odds are the calculator's (:func:`.fire.line_of_fire`, :func:`.fireodds.fire_odds`)
on the battle's scene, so a shot in a battle is judged exactly as ``odds dragonnoir fire`` judges it.
"Each character can shoot only once per shooting sequence"; "a character cannot shoot if he is on a
hex adjacent to an enemy character"; "To be able to make a defensive shot, a long-bow archer must not
have moved during his turn; a crossbowman must have neither moved nor shot during his turn"; "Arlon can
shoot when mounted but he is obliged to dismount to reload his crossbow".
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.chance import ChanceRequest, Fate, discrete

from .data import shipped_sheet
from .fire import WEAPONS, LineOfFire, line_of_fire, stray_hexes
from .fireodds import FireOdds, cover_words, errare_odds, fire_odds, resolve_fire
from .harm import hurt, kill_horse_under, retreat
from .report import Lines
from .state import DNState, Man, character_of, fighter_of, scene_of


def is_shooter(m: Man) -> bool:
    return not m.horse and character_of(m.character).weapon in WEAPONS


def _weapon_rules(m: Man):  # type: ignore[no-untyped-def]
    return shipped_sheet().fire.weapons[character_of(m.character).weapon]  # type: ignore[index]


def may_shoot(m: Man, defensive: bool) -> bool:
    """The rate of fire: once per shooting sequence, the long bow and crossbow limits on defensive fire."""
    if not is_shooter(m) or not m.standing or m.unloaded:
        return False
    if not defensive:
        return not m.shot
    rules = _weapon_rules(m)
    if m.fired or (m.moved and not rules.defensive_fire_after_moving.value):
        return False
    return not (m.shot and not rules.defensive_fire_after_shooting.value)


def lines_from(state: DNState, shooter: Man, targets: list[Man]) -> list[tuple[Man, LineOfFire]]:
    """The line of fire from ``shooter`` to each target (possible or not, and why)."""
    scene = scene_of(state)
    sheet = shipped_sheet()
    return [(t, line_of_fire(sheet, scene, shooter.name, t.name)) for t in targets]


def targets_of(state: DNState, shooter: Man) -> list[Man]:
    """Enemies a shot may be aimed at: living, on the map (the adult Black Dragon is refused by the line)."""
    return [t for t in state.men if t.alive and t.side != shooter.side]


def shots(state: DNState, shooter: Man, defensive: bool, only: Man | None = None) -> list[tuple[Man, LineOfFire]]:
    """The targets ``shooter`` may shoot at now, with their lines (defensive: only the mover ``only``)."""
    if not may_shoot(shooter, defensive):
        return []
    targets = [only] if only is not None else targets_of(state, shooter)
    return [(t, line) for t, line in lines_from(state, shooter, targets) if line.possible]


def defensive_shooters(state: DNState, mover: Man) -> list[tuple[Man, LineOfFire]]:
    """The other side's shooters who may shoot at ``mover`` where he stands now."""
    out = []
    for s in state.men:
        if s.side != mover.side and s.alive:
            out += [(s, line) for _, line in shots(state, s, True, mover)]
    return out


def stood_still(m: Man) -> bool:
    """Neither moved by his player this movement sequence (a step, a turn, mounting, a jump, a flight: ``moved``) nor
    carried or led along (``steps``): a character the opposing player "does not intend to move"."""
    return not m.moved and m.steps == 0


def standstill_shots(state: DNState) -> list[tuple[Man, Man, LineOfFire]]:
    """The defensive shots owed when the moving side ends its movement: "It is not possible to make a defensive shot
    against a character who has not yet started to move, unless the opposing player does not intend to move him
    during his turn." Once the movement is over the intention is known, so the other side's shooters who may still
    fire defensively (not in contact, once per enemy movement, the long bow and crossbow limits) may shoot at every
    living piece of the moving side that stood still. (shooter, target, line), in the order of the pieces."""
    still = [t for t in state.men if t.side == state.side and t.alive and stood_still(t)]
    if not still:
        return []
    out = []
    for s in state.men:
        if s.side != state.side and s.alive and may_shoot(s, True):
            out += [(s, t, line) for t, line in lines_from(state, s, still) if line.possible]
    return out


def odds_of(state: DNState, shooter: Man, target: Man, line: LineOfFire) -> FireOdds:
    assert line.band is not None
    return fire_odds(shipped_sheet(), fighter_of(state, shooter), fighter_of(state, target), line.band, line.cover)


def shot_odds(state: DNState, shooter: str, target: str) -> FireOdds:
    s, t = state.man(shooter), state.man(target)
    (_, line), = lines_from(state, s, [t])
    return odds_of(state, s, t, line)


def stray_request(shooter: str) -> ChanceRequest:
    """The second die of "Errare humanum est": one outcome per face, the hex it names or nowhere."""
    rule = shipped_sheet().fire.errare
    faces = [(f"{d}→{rule.numbering[d - 1] if d in rule.rolls and d <= 6 else 'nowhere'}", 1.0) for d in range(1, 11)]
    return discrete(f"errare: {shooter}'s stray projectile", faces,
                    ("'each time a shooter botches his shot (result \"shot missed\"), the player concerned rolls the "
                     "die a second time'", f"rolls {rule.rolls} name the hexes {rule.numbering} around the target "
                                           "(estimated)"))


def errare(state: DNState, shooter: Man, target: Man, fate: Fate) -> tuple[DNState, Lines]:
    """Option ``errare=on``: a missed shot may end "in one of the 6 hexes around the target and wounds any character
    found there. Characters in armour are not wounded but must immediately retreat 2 hexes." Nobody sheltered from the
    shooter by an obstacle is hit (``fire.stray_hexes``)."""
    outcome = fate.draw(stray_request(shooter.name)).outcome
    where = outcome.split("→")[1]
    if where == "nowhere":
        return state, [{"text": f"  the stray projectile hits nobody ({outcome})", "kind": "note"}]
    sheet = shipped_sheet()
    scene = scene_of(state)
    line = line_of_fire(sheet, scene, shooter.name, target.name)
    stray = errare_odds(sheet, odds_of(state, shooter, target, line))
    spot = next(x for x in stray_hexes(sheet, scene, line, stray) if x.direction == where)
    lines: Lines = [{"text": f"  the stray projectile lands {where} of {target.name}: {spot.effect}",
                              "kind": "roll"}]
    if "sheltered" in spot.effect:
        return state, lines
    for name in spot.victims:
        victim = state.man(name)
        if not victim.alive:
            continue
        armour = fighter_of(state, victim).armour
        state, more = hurt(state, name, "retreat" if armour else "wounded", list(shooter.hexes), 2 if armour else 1)
        lines += more
    return state, lines


def resolve_shot(state: DNState, shooter: str, target: str, defensive: bool,
                 fate: Fate) -> tuple[DNState, Lines]:
    """One shot: the die on the fire table, the letter's harm applied to the target."""
    s, t = state.man(shooter), state.man(target)
    odds = shot_odds(state, shooter, target)
    roll = resolve_fire(fate, odds)
    result = odds.key[roll.letter]
    unloaded = s.mounted and character_of(s.character).weapon == "crossbow"
    s = replace(s, fired=True) if defensive else replace(s, shot=True)
    state = state.with_men(replace(s, unloaded=unloaded))
    lines: Lines = [{"text": f"{s.name} shoots at {t.name} ({odds.weapon}, {odds.band} range, "
                                      f"{cover_words(odds.cover)}): die {roll.die}{odds.modifier:+d} rolls {roll.letter}, "
                                      f"{result.text}", "kind": "roll"}]
    if roll.letter == "A" and state.option("errare", "off") == "on":
        state, more = errare(state, s, t, fate)
        return state, lines + more
    away = list(s.hexes)
    horse_hit = t.horse and roll.letter in "CDEF"  # "the results C, D, E or F for shots ... cause the death of the horse"
    if t.horse:
        if not horse_hit:
            return state, lines + [{"text": f"  {t.name}: no effect on a horse alone", "kind": "note"}]
        state, more = hurt(state, t.name, "killed", away)
        return state, lines + more
    if character_of(t.character).kind == "dragon" and roll.letter not in "DEF":
        return state, lines + [{"text": "  'The other results have no effect.'", "kind": "note"}]
    if result.target is not None:
        state, more = hurt(state, t.name, result.target, away, 2 if t.mounted else 1,
                           horse_killed=result.horse == "killed")
        lines += more
    elif result.horse == "killed" and t.mounted:
        state, more = kill_horse_under(state, t.name)
        lines += more
    if result.retreat and state.man(t.name).alive and state.man(t.name).hexes == t.hexes:
        state, more = retreat(state, state.man(t.name), away)
        lines += more
    return state, lines
