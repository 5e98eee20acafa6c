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

from collections.abc import Collection, Iterator
from dataclasses import replace

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.game import LegalAction

from . import summons
from .action_types import ACTIONS, ByUnit, Cast, Decide, offered
from .harm import hurt
from .magic import (
    Casting,
    CastOdds,
    Countering,
    Wizard,
    cast_odds,
    heal_wizard,
    initiative,
    new_player_turn,
    new_wizard,
    resolve_cast,
    shipped_spells,
    spell_on,
    wound_wizard,
)
from .report import Lines
from .state import DNState, Man, Pending, character_of, other

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
    # a horseman is unhorsed only "following a combat or a shot": no mounted stunned counter (issue 24, point 3)
    return [m for m in state.men if m.side != wizard.side and m.standing and not m.horse and not m.mounted
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
    """Every spell the side whose player turn it is may cast now (none while a decision is owed)."""
    if state.pending is not None or not state.wizards:
        return []
    return noted(state, casts(state, state.side))


def casts(state: DNState, side: str, only: Collection[str] | None = None) -> list[LegalAction]:
    """Every spell a wizard of ``side`` may cast now, whosever player turn it is: "During player A's turn, each of
    the wizards has the right to cast one spell and one counterspell" (both sides' wizards). ``only``: just those
    spells, in the same order (the search bot's rollouts weigh only the spells the shipped policy casts)."""
    return list(_each_cast(state, side, only))


def noted(state: DNState, listed: list[LegalAction]) -> list[LegalAction]:
    """The casts as a player's list shows them: a cast that rolls its die as it is cast (nobody can counter it or
    answer with a rival spell) shows its odds ("Shaman's Call the Gargoyles takes effect 50.0 %"), so its note
    gives only its cost; "60 EP, succeeds 50%" beside those odds said the chance twice (played as a user). A cast
    that waits for the enemy's answer shows no odds yet, and its note keeps the die's chance. Why not in
    :func:`casts`: the rival spells and a rollout's list (which nobody reads) are built from it, and asking whether a
    cast waits asks for the rivals again."""
    out = []
    for lg in listed:
        cast = ACTIONS.listed(lg.action)  # the codec's own reading of a listed action
        assert isinstance(cast, Cast)
        rolled = odds_for(state, cast)
        if rolled is not None and (rolled.cast.wizard, rolled.spell_name) == (cast.unit, cast.spell):
            lg = replace(lg, note=f"{shipped_spells().spells[cast.spell].ep} EP")
        out.append(lg)
    return out


def can_cast(state: DNState, side: str) -> bool:
    """Whether a wizard of ``side`` may cast some spell now (the first one found is enough)."""
    return next(_each_cast(state, side, None), None) is not None


def _each_cast(state: DNState, side: str, only: Collection[str] | None) -> Iterator[LegalAction]:
    spells = shipped_spells()
    for w in state.men:
        if w.side != side or not w.standing or not any(s.name == w.name for s in state.wizards):
            continue
        for name, spell in spells.spells.items():
            summon = spell.effect.kind == "summon"
            if spell.effect.kind not in WIRED or (spell.target == "hexes" and not summon) or (
                    only is not None and name not in only):
                continue
            targets = [w] if spell.target == "self" or summon else _targets(state, w, spell.effect.kind)
            for t in targets:
                if spell.target == "self" and (spell.effect.kind != "heal" or w.health not in WOUNDED):
                    continue
                try:
                    o = odds_of(state, w.name, name, t.name, False)
                except ImpossibleRequestError:
                    continue
                yield offered(Cast(w.side, w.name, name, t.name), f"{w.name} casts {spell_on(name, t.name)}",
                              float(spell.ep),
                              f"{spell.ep} EP, succeeds {float(o.cast.probability):.0%}",
                              name if summon else f"{name} → {t.name}", f"{w.name}: cast")


def window(before: DNState | None, state: DNState) -> DNState:
    """Open the other side's magic window when a sequence of the side whose player turn it is begins.

    "The moment of casting the spell is decided freely by each player", and each wizard casts in the enemy's player
    turn too. The keeper asks the other side once at the start of each enemy sequence (offensive fire, movement,
    combat) while one of its wizards may cast (decision: docs/rules/dragonnoir.md, "Magic in battle"); it answers
    ``cast`` or ``no_spell``."""
    if state.over or state.pending is not None or not state.wizards:
        return state
    if before is not None and (before.side, before.phase, before.player_turn) == (
            state.side, state.phase, state.player_turn):
        return state
    them = other(state.side)
    if not can_cast(state, them):
        return state
    return replace(state, pending=Pending("magic", them))


def window_actions(state: DNState, p: Pending) -> list[LegalAction]:
    return [*noted(state, casts(state, p.side)),
            offered(Decide("no_spell", p.side), f"{state.name(p.side)} cast no spell now", None, "", "No spell now",
                    "Magic")]


def affected(state: DNState, wizard: str, spell: str, target: str) -> set[str]:
    """The hexes a spell affects (a character's hexes, the hexes spectres appear on)."""
    board = state.board
    return {board.label(h) for h in _casting(state, wizard, spell, target).targets}


def rivals(state: DNState, p: Pending) -> list[LegalAction]:
    """The answering side's spells that affect the same character or hex as the one announced: "if two enemy
    wizards want to cast a spell affecting the same character or the same hex, it is the one with the most energy
    points in reserve who wins the initiative"."""
    if p.others:
        return []
    wanted = affected(state, p.unit, p.harm, p.options[0])
    out = []
    for lg in casts(state, p.side):
        a = lg.action
        if affected(state, str(a["unit"]), str(a["spell"]), str(a["target"])) & wanted:
            out.append(replace(lg, text=lg.text + " (rival spell: the initiative decides who casts first)",
                               group="Counterspell"))
    return out


def pending_actions(state: DNState, p: Pending) -> list[LegalAction]:
    c = counterer(state, p.unit)
    spell, target = p.harm, p.options[0]
    out = []
    if c is not None and can_counter(state, p.unit, spell, target):
        out.append(offered(ByUnit("counter", p.side, c.name), f"{c.name} counters {spell}", None,
                           f"{2 * shipped_spells().spell(spell)[1].ep} EP", "Counter", "Counterspell"))
    return [*out, *noted(state, rivals(state, p)),
            offered(Decide("let_be", p.side), f"{state.name(p.side)} let {p.unit} cast {spell_on(spell, target)}", None, "",
                    "Let it be", "Counterspell")]


def announce(state: DNState, wizard: str, spell: str, target: str, fate: Fate,
             queued: tuple[str, ...] = ()) -> tuple[DNState, Lines]:
    """The spell is announced: wait for the enemy wizard's counter (or, first time round, a rival spell) if he can
    answer, else roll it now; then the queued rival spell, if any."""
    if waits(state, wizard, spell, target, queued):
        p = Pending("counter", other(state.man(wizard).side), wizard, (target,), (), 0, spell, queued)
        return replace(state, pending=p), [{"text": f"{wizard} announces {spell_on(spell, target)}: the enemy wizard "
                                                    "may counter it before the die is rolled", "kind": "note"}]
    state, lines = resolve(state, wizard, spell, target, False, fate)
    state, more = then_queued(state, queued, fate)
    return state, lines + more


def waits(state: DNState, wizard: str, spell: str, target: str, queued: tuple[str, ...]) -> bool:
    """Whether an announced spell waits for the other side's answer (a counter, or a rival spell)."""
    p = Pending("counter", other(state.man(wizard).side), wizard, (target,), (), 0, spell, queued)
    return can_counter(state, wizard, spell, target) or (not queued and bool(rivals(state, p)))


def _heads(state: DNState, p: Pending, rival: tuple[str, str, str]) -> tuple[tuple[str, str, str],
                                                                              tuple[str, str, str], str]:
    announced = (p.unit, p.harm, p.options[0])
    tie = p.unit if state.man(p.unit).side == state.side else rival[0]
    first, why = initiative(sheet(state, p.unit), sheet(state, rival[0]), tie)
    head, queued = (announced, rival) if first == p.unit else (rival, announced)
    return head, queued, why


def cast(state: DNState, action: Cast, fate: Fate) -> tuple[DNState, Lines]:
    """A ``cast``: in the side's own player turn or its magic window, announced; in answer to an enemy's
    announcement, a rival spell on the same character or hex, and the initiative decides who casts first."""
    wizard, spell, target = action.unit, action.spell, action.target
    p = state.pending
    if p is not None and p.kind == "counter":
        return contest(state, p, (wizard, spell, target), fate)
    return announce(replace(state, pending=None), wizard, spell, target, fate)


def contest(state: DNState, p: Pending, rival: tuple[str, str, str], fate: Fate) -> tuple[DNState, Lines]:
    """Two enemy wizards want the same character or hex: the most EP in reserve casts first (a tie: the wizard of
    the side whose player turn it is, estimated); "The other wizard always has the possibility of countering the
    spell that has just been cast", then casts his own."""
    head, queued, why = _heads(state, p, rival)
    lines: Lines = [{"text": f"{rival[0]} wants {spell_on(rival[1], rival[2])} too: {why}", "kind": "note"}]
    state, more = announce(replace(state, pending=None), *head, fate, queued=queued)
    return state, lines + more


def then_queued(state: DNState, queued: tuple[str, ...], fate: Fate) -> tuple[DNState, Lines]:
    """The second of two rival spells, cast once the first is settled (lost if its wizard can no longer cast it
    or its target is no longer one: decision, nothing spent)."""
    if not queued:
        return state, []
    wizard, spell, target = queued
    still = [lg.action for lg in casts(state, state.man(wizard).side)]
    if not any(a["unit"] == wizard and a["spell"] == spell and a["target"] == target for a in still):
        return state, [{"text": f"  {wizard}'s {spell_on(spell, target)} is lost: he can no longer cast it",
                        "kind": "note"}]
    return announce(state, wizard, spell, target, fate)


def answer(state: DNState, action: ByUnit | Decide, fate: Fate) -> tuple[DNState, Lines]:
    p = state.pending
    assert p is not None
    state = replace(state, pending=None)
    if action.kind == "no_spell":
        return state, [{"text": f"{state.name(p.side)} cast no spell now", "kind": "note"}]
    state, lines = resolve(state, p.unit, p.harm, p.options[0], action.kind == "counter", fate)
    state, more = then_queued(state, p.others, fate)
    return state, lines + more


def requests(state: DNState, action: Cast | ByUnit | Decide) -> tuple[ChanceRequest, ...]:
    """The dice a ``cast``, ``counter`` or ``let_be`` rolls first (a cast that waits for an answer rolls none; a
    queued rival spell rolls after, so it is not previewed)."""
    rolled = odds_for(state, action)
    return () if rolled is None else rolled.requests


def odds_for(state: DNState, action: Cast | ByUnit | Decide) -> CastOdds | None:
    """The odds of the spell a ``cast``, ``counter`` or ``let_be`` rolls for now (None: a cast that waits for the
    enemy's answer rolls nothing yet); its ``requests`` are the dice :func:`requests` previews."""
    p = state.pending
    if isinstance(action, Cast):
        head = (action.unit, action.spell, action.target)
        queued: tuple[str, ...] = ()
        if p is not None and p.kind == "counter":
            head, queued, _ = _heads(state, p, head)
            state = replace(state, pending=None)
        return None if waits(state, *head, queued) else odds_of(state, *head, False)
    assert p is not None
    return odds_of(state, p.unit, p.harm, p.options[0], action.kind == "counter")


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
    state, more = hurt(state, t.name, "stunned", [state.man(wizard).hex], spell=True)
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
        if w.stunned != (m.health == "stunned"):
            w = replace(w, stunned=m.health == "stunned")
        if state.player_turn != before.player_turn:
            w = new_player_turn(w)
        out.append(w)
    if all(a is b for a, b in zip(out, state.wizards, strict=True)):  # nothing changed: most actions (issue 28)
        return state
    return replace(state, wizards=tuple(out))
