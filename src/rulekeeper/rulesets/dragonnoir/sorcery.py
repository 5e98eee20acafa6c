"""Wizards in a battle: one spell and one counterspell per player turn, through :mod:`.magic`.

"During player A's turn, each of the wizards has the right to cast one spell and one counterspell."
A ``cast`` (``unit``: the wizard, ``spell``, ``target``: the character it aims at, the wizard himself for a
personal spell) is legal in any sequence of his side's player turn while no decision is owed. "The counter
must be announced before the wizard who cast the spell has rolled the die": when the enemy wizard may counter
(alive, on his feet, not yet countered this player turn, enough energy for the double cost, a hope of
success), the cast waits for his side's ``counter`` or ``let_be``; then the dice fall as
:func:`.magic.resolve_cast` rolls them (the counter's die first), and both pay. The magic sheets (energy,
wounded, what each wizard did this player turn) live in the battle's state.

Wired effects: ``heal`` (a wounded character of the wizard's side back to healthy), ``stun`` (an enemy
character, as a "stunned" result) and ``summon`` (spectres appear near the wizard, on his side: :mod:`.summons`;
the action's ``target`` is the wizard himself, the hexes they appear on the area the spell affects). Terrain
spells are not offered in battles (docs/rules/dragonnoir.md, "Battles": why).
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.game import JsonDict, LegalAction

from . import summons
from .harm import hurt
from .magic import (
    Casting,
    CastOdds,
    Countering,
    Wizard,
    cast_odds,
    heal_wizard,
    new_player_turn,
    new_wizard,
    resolve_cast,
    shipped_spells,
    wound_wizard,
)
from .state import DNState, Man, Pending, character_of, other

Lines = list[JsonDict]
WIRED = ("heal", "stun", "summon")
WOUNDED = ("wounded", "wounded_twice")


def wizards_of(men: tuple[Man, ...]) -> tuple[Wizard, ...]:
    """A magic sheet for every wizard of the scenario: 'available EP = Level x 100'."""
    out = []
    for m in men:
        level = character_of(m.character).wizard_level
        if level and not m.horse:
            out.append(new_wizard(m.name, level))
    return tuple(out)


def sheet(state: DNState, name: str) -> Wizard:
    return next(w for w in state.wizards if w.name == name)


def _with(state: DNState, *ws: Wizard) -> DNState:
    changed = {w.name: w for w in ws}
    return replace(state, wizards=tuple(changed.get(w.name, w) for w in state.wizards))


def _targets(state: DNState, wizard: Man, effect: str) -> list[Man]:
    if effect == "heal":
        return [m for m in state.men if m.side == wizard.side and m.alive and not m.horse and m.health in WOUNDED]
    return [m for m in state.men if m.side != wizard.side and m.standing and not m.horse
            and character_of(m.character).kind not in ("spectre", "dragon part")]


def _casting(state: DNState, wizard: str, spell: str, target: str) -> Casting:
    board = state.board
    w, t = state.man(wizard), state.man(target)
    s = shipped_spells().spell(spell)[1]
    hexes = (summons.placements(state, w, summons.free_counters(state, s)) if s.effect.kind == "summon"
             else list(t.hexes))
    return Casting(spell, sheet(state, wizard), board.parse(w.hex), tuple(board.parse(h) for h in hexes))


def counterer(state: DNState, wizard: str) -> Man | None:
    """The enemy wizard who could counter a spell of ``wizard`` now (alive, standing, a sheet)."""
    side = state.man(wizard).side
    return next((m for m in state.men if m.side != side and m.standing
                 and any(w.name == m.name for w in state.wizards)), None)


def odds_of(state: DNState, wizard: str, spell: str, target: str, countered: bool) -> CastOdds:
    casting = _casting(state, wizard, spell, target)
    c = counterer(state, wizard) if countered else None
    countering = None if c is None else Countering(sheet(state, c.name), state.board.parse(c.hex))
    return cast_odds(shipped_spells(), casting, countering)


def can_counter(state: DNState, wizard: str, spell: str, target: str) -> bool:
    if counterer(state, wizard) is None:
        return False
    try:
        odds_of(state, wizard, spell, target, True)
    except ImpossibleRequestError:
        return False
    return True


def cast_actions(state: DNState) -> list[LegalAction]:
    """Every spell the side to act may cast now (none while a decision is owed)."""
    if state.pending is not None or not state.wizards:
        return []
    out = []
    spells = shipped_spells()
    for w in state.men:
        if w.side != state.side or not w.standing or not any(s.name == w.name for s in state.wizards):
            continue
        for name, spell in spells.spells.items():
            summon = spell.effect.kind == "summon"
            if spell.effect.kind not in WIRED or (spell.target == "hexes" and not summon):
                continue
            targets = [w] if spell.target == "self" or summon else _targets(state, w, spell.effect.kind)
            for t in targets:
                if spell.target == "self" and (spell.effect.kind != "heal" or w.health not in WOUNDED):
                    continue
                try:
                    o = odds_of(state, w.name, name, t.name, False)
                except ImpossibleRequestError:
                    continue
                action = {"kind": "cast", "side": w.side, "unit": w.name, "spell": name, "target": t.name}
                text = f"{w.name} casts {name}" + ("" if summon else f" on {t.name}")
                out.append(LegalAction(action, text, w.side, float(spell.ep),
                                       f"{spell.ep} EP, succeeds {float(o.cast.probability):.0%}",
                                       f"{name} → {t.name}", f"{w.name}: cast"))
    return out


def pending_actions(state: DNState, p: Pending) -> list[LegalAction]:
    c = counterer(state, p.unit)
    assert c is not None
    spell, target = p.harm, p.options[0]
    return [LegalAction({"kind": "counter", "side": p.side, "unit": c.name}, f"{c.name} counters {spell}", p.side,
                        None, f"{2 * shipped_spells().spell(spell)[1].ep} EP", "Counter", "Counterspell"),
            LegalAction({"kind": "let_be", "side": p.side}, f"{state.name(p.side)} let {p.unit} cast {spell} on "
                        f"{target}", p.side, None, "", "Let it be", "Counterspell")]


def cast(state: DNState, action: JsonDict, fate: Fate) -> tuple[DNState, Lines]:
    """Announce the spell: wait for the enemy wizard's counter if he can, else roll it now."""
    wizard, spell, target = str(action["unit"]), str(action["spell"]), str(action["target"])
    if can_counter(state, wizard, spell, target):
        p = Pending("counter", other(state.man(wizard).side), wizard, (target,), (), 0, spell)
        return replace(state, pending=p), [{"text": f"{wizard} announces {spell} on {target}: the enemy wizard "
                                                    "may counter it before the die is rolled", "kind": "note"}]
    return resolve(state, wizard, spell, target, False, fate)


def answer(state: DNState, action: JsonDict, fate: Fate) -> tuple[DNState, Lines]:
    p = state.pending
    assert p is not None
    state = replace(state, pending=None)
    return resolve(state, p.unit, p.harm, p.options[0], action["kind"] == "counter", fate)


def requests(state: DNState, action: JsonDict) -> tuple[ChanceRequest, ...]:
    """The dice a ``cast``, ``counter`` or ``let_be`` rolls first (a cast that waits for a counter rolls none)."""
    if action["kind"] == "cast":
        w, s, t = str(action["unit"]), str(action["spell"]), str(action["target"])
        return () if can_counter(state, w, s, t) else odds_of(state, w, s, t, False).requests
    p = state.pending
    assert p is not None
    return odds_of(state, p.unit, p.harm, p.options[0], action["kind"] == "counter").requests


def resolve(state: DNState, wizard: str, spell: str, target: str, countered: bool,
            fate: Fate) -> tuple[DNState, Lines]:
    o = odds_of(state, wizard, spell, target, countered)
    result = resolve_cast(fate, o)
    state = _with(state, result.caster, *([result.counterer] if result.counterer else []))
    lines: Lines = [{"text": f"{result.narrative}", "kind": "roll"}]
    if not result.applied:
        return state, lines
    if o.spell.effect.kind == "summon":
        state, more = summons.appear(state, wizard, o.spell)
        return state, lines + more
    t = state.man(target)
    if o.spell.effect.kind == "heal":
        state = state.with_men(replace(t, health="healthy", stunned_at=0))
        return state, lines + [{"text": f"  {t.name}: {t.health} → healthy", "kind": "recover"}]
    state, more = hurt(state, t.name, "stunned", [state.man(wizard).hex])
    return state, lines + more


def sync(before: DNState, state: DNState) -> DNState:
    """Keep the magic sheets in step with the counters: a wizard wounded halves his EP, healed doubles them;
    stunned he casts nothing; a new player turn gives every wizard his spell and counterspell again."""
    if not state.wizards:
        return state
    out = []
    for w in state.wizards:
        m = state.man(w.name)
        if m.health in WOUNDED and not w.wounded:
            w = wound_wizard(w)
        elif m.health not in WOUNDED and m.alive and w.wounded:
            w = heal_wizard(w)
        w = replace(w, stunned=m.health == "stunned")
        if state.player_turn != before.player_turn:
            w = new_player_turn(w)
        out.append(w)
    return replace(state, wizards=tuple(out))
