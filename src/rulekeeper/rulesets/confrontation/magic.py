"""Spells and miracles (issue 24): a Magician casts, a Faithful calls, an enemy Mystic may counter or censure.

The seed names them and prints none of their rules; the mystic abilities it does spell out are reserve arithmetic
(mystic.py). Played here with the example cards of ``data/spells.yaml`` (**estimated**, docs/rules/confrontation.md,
"Spells and miracles"):

* reserves: at the start of each round a Magician (a card with POW) has POW Gems (+ Recovery/X), a Faithful (FAI)
  keeps what Piety/X keeps and recovers FAI + 1 per other friendly fighter in his Aura of Faith (10 cm);
* ``cast FIGHTER CARD TARGET`` is his activation (free, not in rout): pay the card's cost, then a POW (FAI) test of
  :mod:`.rolls` (Focus, Spirit of X, Enlightened, Exalted apply) against its difficulty; a target in range and sight,
  an enemy not in a fight for a damage card, a wounded friend (or himself) for a healing one;
* a successful spell may be countered by an enemy Magician within counter range who has the Gems (a miracle censured
  by an enemy Faithful with the T.F.): his player's choice, ``counter`` (the keeper's proposal: he pays the same cost
  and passes a POW/FAI test against the card's difficulty; passed, the card does nothing and the caster loses focus,
  -1 to his POW and FAI tests this round, unless Focus/Enlightened/Unbowed) or ``let``;
* then the effect: a damage roll of the card's STR against the target's RES (his own damage hooks apply), or HP
  healed.
"""

from __future__ import annotations

from fractions import Fraction

from rulekeeper.boards.table import edge_distance
from rulekeeper.core.chance import ChanceRequest, Fate

from .concentration import generate
from .exchanges import Health, apply_wound
from .fighters import Combatant
from .measures import line_of_sight
from .mystic import faith_kept
from .report_lines import ReportLine
from .rolls import odds_of_test, request_for_test, roll_test, succeeds
from .shooting import sight_blockers
from .spells import Incantation, mystic_rules
from .state import Fighter, SkirmishState, other, replace
from .terrain import sight_scenery
from .wounds import damage_odds, damage_request, load_wound_table

#: Who keeps his focus: Focus against counter-magic, Enlightened against censure, Unbowed always.
KEEPS_FOCUS = {False: "Focus", True: "Enlightened"}


def mystic(f: Fighter, miracle: bool) -> bool:
    """A Faithful (FAI) for miracles, a Magician (POW) for spells."""
    return (f.card.FAI if miracle else f.card.POW) is not None


def known(f: Fighter) -> list[Incantation]:
    """Every example card of his kind (**estimated**: the cards a player gives him replace them)."""
    return [c for c in mystic_rules().cards if mystic(f, c.miracle)]


def refresh(state: SkirmishState) -> SkirmishState:
    """The reserves at the start of a round (before its Tactical roll); focus regained; Concentration's points."""
    changed = []
    for f in state.standing():
        if f.card.POW is None and f.card.FAI is None:
            continue
        x = (f.card.value_of("Recovery") or "0").strip().lstrip("+")
        gems = 0 if f.card.POW is None else max(f.card.POW, 0) + (int(x) if x.isdigit() else 0)
        faith = 0 if f.card.FAI is None else faith_kept(f.card, f.faith) + max(f.card.FAI, 0) + believers(state, f)
        changed.append(replace(f, gems=gems, faith=faith, unfocused=False))
    return generate(state.with_fighters(*changed))  # accumulators: Concentration's points (Generation/X)


def believers(state: SkirmishState, f: Fighter) -> int:
    aura = mystic_rules().aura_of_faith
    return sum(1 for g in state.standing(f.side) if g.key != f.key and edge_distance(f.base, g.base) <= aura)


def reserve(f: Fighter, card: Incantation) -> int:
    return f.faith if card.miracle else f.gems


def value(f: Fighter, card: Incantation) -> int:
    """His POW (FAI), less the focus penalty when he lost his focus this round."""
    stat = (f.card.FAI if card.miracle else f.card.POW) or 0
    return stat - (mystic_rules().focus_penalty if f.unfocused else 0)


def request(f: Fighter, card: Incantation, label: str = "") -> ChanceRequest:
    shape = Combatant(f.card).shape(card.test, False)
    return request_for_test(label or f"{card.test} test: {f.key}", shape, value(f, card), card.difficulty)


def success_odds(f: Fighter, card: Incantation) -> Fraction:
    shape = Combatant(f.card).shape(card.test, False)
    return sum((p for n, p in odds_of_test(shape, value(f, card), card.difficulty).items()
                if succeeds(n, value(f, card), shape, card.difficulty)), Fraction(0))


def cast_problem(state: SkirmishState, f: Fighter, card: Incantation, t: Fighter) -> str | None:
    """Why ``f`` cannot cast (call) ``card`` on ``t`` now, or None."""
    what = "a Faithful (FAI)" if card.miracle else "a Magician (POW)"
    if not mystic(f, card.miracle):
        return f"{card.name} is a {'miracle' if card.miracle else 'spell'}: {f.key} is not {what}"
    if f.rout or f.engaged:
        return f"{f.key} is {'in rout' if f.rout else 'engaged'}: he casts when free and not in rout"
    if reserve(f, card) < card.cost:
        return f"{card.name} costs {card.cost} {card.reserve}: {f.key} has {reserve(f, card)}"
    if not t.standing:
        return f"{t.key} is not standing"
    if card.damage and (t.side == f.side or t.engaged):
        return f"{card.name} strikes an enemy not in a fight: {t.key} is " + \
            ("a friend" if t.side == f.side else "engaged")
    if card.heal and (t.side != f.side or t.hp >= t.card.HP):
        return f"{card.name} heals a wounded friend: {t.key} is " + ("an enemy" if t.side != f.side else "unwounded")
    if t.key == f.key:
        return None
    distance = edge_distance(f.base, t.base)
    if distance > card.range + 1e-9:
        return f"{t.key} is {distance:.1f} cm away, beyond {card.name}'s {card.range:g} cm"
    if not line_of_sight(f.base, t.base, sight_scenery(state, f, t), [g.base for g in sight_blockers(state, f, t)]):
        return f"{t.key} is not in sight (front 180°, the scenery, bases larger than both)"
    return None


def counterers(state: SkirmishState, f: Fighter, card: Incantation) -> list[Fighter]:
    """The enemy Mystics who may counter (censure) it: of the card's kind, free of rout, within counter range of the
    caster, with the cost in their reserve; nearest first."""
    reach = mystic_rules().counter_range
    out = [e for e in state.standing(other(f.side)) if mystic(e, card.miracle) and not e.rout
           and reserve(e, card) >= card.cost and edge_distance(f.base, e.base) <= reach + 1e-9]
    return sorted(out, key=lambda e: (edge_distance(f.base, e.base), e.key))


def damage(card: Incantation, caster: Fighter, t: Fighter) -> ChanceRequest:
    victim = Combatant(t.card, hp=t.hp, stunned=t.stunned, fierce=t.fierce)
    return damage_request(f"damage roll: {card.name} on {t.key}", load_wound_table(), card.damage, t.card.RES,
                          victim.suffered_hooks())


def effect_odds(card: Incantation, caster: Fighter, t: Fighter) -> dict[str, Fraction]:
    """The damage roll's exact odds (the card's STR against his RES and his damage hooks)."""
    victim = Combatant(t.card, hp=t.hp, stunned=t.stunned, fierce=t.fierce)
    return damage_odds(load_wound_table(), card.damage, t.card.RES, victim.suffered_hooks())


def pay(f: Fighter, card: Incantation) -> Fighter:
    return replace(f, faith=f.faith - card.cost) if card.miracle else replace(f, gems=f.gems - card.cost)


def do_cast(state: SkirmishState, f: Fighter, card: Incantation, t: Fighter,
            fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """Pay, test; passed: a counter's choice first when an enemy Mystic may counter, else the effect."""
    test = roll_test(fate, f"{card.test} test: {f.key}", Combatant(f.card).shape(card.test, False), value(f, card),
                     card.difficulty)
    caster = replace(pay(f, card), activated=True)
    state = state.with_fighters(caster)
    head = f"{f.key} {card.verb} {card.name} on {t.key} ({card.test} {test.final} vs {card.difficulty}, " \
           f"{card.cost} {card.reserve})"
    if not test.success:
        return state, [{"text": f"{head}: it fails", "kind": "magic"}]
    if counterers(state, caster, card):
        foe = other(f.side)
        word = "censure" if card.miracle else "counter"
        text = f"{head}: it works, unless {state.name(foe)} {word} it"
        return replace(state, casting=(f.key, card.name, t.key)), [{"text": text, "kind": "magic"}]
    return take_effect(state, caster, card, state.fighter(t.key), fate, [{"text": f"{head}: it works", "kind": "magic"}])


def take_effect(state: SkirmishState, f: Fighter, card: Incantation, t: Fighter, fate: Fate,
                report: list[ReportLine]) -> tuple[SkirmishState, list[ReportLine]]:
    if card.heal:
        healed = replace(t, hp=min(t.card.HP, t.hp + card.heal))
        report.append({"text": f"{t.key} recovers {healed.hp - t.hp} HP ({healed.hp} of {t.card.HP})", "kind": "magic"})
        return state.with_fighters(healed), report
    table = load_wound_table()
    line = fate.draw(damage(card, f, t)).outcome
    victim = Combatant(t.card, hp=t.hp, stunned=t.stunned, fierce=t.fierce)
    health = apply_wound(victim, table, Health(t.hp, t.fierce, t.stunned), line)
    hit = replace(t, hp=max(health.hp, 0), stunned=health.stunned, fierce=health.fierce, killed=health.killed)
    report.append({"text": f"{card.name} strikes {t.key}: {line}" + (f"; {t.key} is killed" if health.killed else ""),
                   "kind": "magic"})
    return state.with_fighters(hit), report


def pending(state: SkirmishState) -> tuple[Fighter, Incantation, Fighter] | None:
    """The spell (miracle) that waits for the enemy's counter, or None."""
    if not state.casting:
        return None
    key, name, target = state.casting
    card = mystic_rules().card(name)
    assert card is not None
    return state.fighter(key), card, state.fighter(target)


def do_counter(state: SkirmishState, e: Fighter, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    """``e`` pays the cost and tests against the card's difficulty: passed, it does nothing and the caster loses
    focus (unless Focus, Enlightened or Unbowed keeps it); failed, it takes effect."""
    found = pending(state)
    assert found is not None
    f, card, t = found
    word = "censures" if card.miracle else "counters"
    test = roll_test(fate, f"{card.test} test: {e.key} {word}", Combatant(e.card).shape(card.test, False),
                     value(e, card), card.difficulty)
    state = replace(state.with_fighters(pay(e, card)), casting=())
    head = f"{e.key} {word} {card.name} ({card.test} {test.final} vs {card.difficulty}, {card.cost} {card.reserve})"
    if not test.success:
        return take_effect(state, f, card, t, fate, [{"text": f"{head}: he fails", "kind": "magic"}])
    keeps = f.card.has(KEEPS_FOCUS[card.miracle]) or f.card.has("Unbowed")
    caster = f if keeps else replace(state.fighter(f.key), unfocused=True)
    lost = "keeps his focus" if keeps else f"loses his focus (-{mystic_rules().focus_penalty} to his POW and FAI tests " \
                                           "this round)"
    return state.with_fighters(caster), [{"text": f"{head}: {card.name} does nothing; {f.key} {lost}",
                                          "kind": "magic"}]


def do_let(state: SkirmishState, fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    found = pending(state)
    assert found is not None
    f, card, t = found
    state = replace(state, casting=())
    return take_effect(state, f, card, t, fate, [{"text": f"{state.name(other(f.side))} let {card.name} work",
                                                  "kind": "magic"}])
