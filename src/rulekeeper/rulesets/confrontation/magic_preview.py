"""The odds a spell, a miracle, a counter or a let shows before it is made (its first draw exactly: preview = roll)."""

from __future__ import annotations

from fractions import Fraction

from rulekeeper.core.game import OddsPreview

from .action_types import Cast, SkirmishAction
from .magic import counterers, damage, effect_odds, pending, request, success_odds
from .shooting import WOUNDS
from .spells import Incantation, mystic_rules
from .state import Fighter, SkirmishState


def _effect(card: Incantation, f: Fighter, t: Fighter, scale: Fraction, when: str) -> list[tuple[str, float | str]]:
    if card.heal:
        return [("heals", f"{card.heal} HP{when}")]
    ends = effect_odds(card, f, t)
    wounded = sum((p for line, p in ends.items() if line in WOUNDS), Fraction(0))
    return [(f"{t.key} wounded{when}", float(scale * wounded)),
            (f"{t.key} killed{when}", float(scale * ends.get("Killed outright", Fraction(0))))]


def magic_preview(state: SkirmishState, f: Fighter, action: SkirmishAction) -> OddsPreview:
    kind = action.kind
    if isinstance(action, Cast):
        card = mystic_rules().card(action.spell)
        if card is None:
            return OddsPreview()
        t = state.fighter(action.target)
        works = success_odds(f, card)
        lines: list[tuple[str, float | str]] = [(f"{card.name} works ({card.test} vs {card.difficulty})",
                                                 float(works))]
        foes = counterers(state, f, card)
        when = " (unless countered)" if foes else ""
        lines += _effect(card, f, t, works, when)
        if foes:
            lines.append(("may counter it", ", ".join(e.key for e in foes)))
        return OddsPreview(tuple(lines), (request(f, card),))
    found = pending(state)
    if found is None:
        return OddsPreview()
    caster, card, t = found
    if kind == "counter":
        word = "censures" if card.miracle else "counters"
        p = success_odds(f, card)
        return OddsPreview(((f"{f.key} {word} {card.name}", float(p)), *_effect(card, caster, t, 1 - p, "")),
                           (request(f, card, f"{card.test} test: {f.key} {word}"),))
    return OddsPreview(tuple(_effect(card, caster, t, Fraction(1), "")),
                       () if card.heal else (damage(card, caster, t),))
