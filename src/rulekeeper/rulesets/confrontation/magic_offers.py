"""The choices spells and miracles give (magic.py): a Mystic's casts in his activation, the enemy's counter."""

from __future__ import annotations

from rulekeeper.core.game import LegalAction

from .action_types import ByFighter, Cast, offer
from .magic import cast_problem, counterers, known, pending
from .state import Fighter, SkirmishState, other
from .tactical import general


def cast_offers(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """Each card he knows on each target it may take now (the enemies for damage, the wounded friends for healing)."""
    out = []
    for card in known(f):
        targets = state.standing(other(f.side)) if card.damage else state.standing(f.side)
        for t in targets:
            if cast_problem(state, f, card, t) is None:
                out.append(offer(Cast(f.side, f.key, card.name, t.key),
                                 f"{f.key} {card.verb} {card.name} on {t.key} ({card.test} vs "
                                 f"{card.difficulty}, {card.cost} {card.reserve})", f.side, float(card.cost),
                                 "", f"{card.name} → {t.key}", f"{f.key}: {'miracle' if card.miracle else 'spell'}"))
    return out


def counter_offers(state: SkirmishState) -> list[LegalAction]:
    """The enemy's answer to a spell that worked: each Mystic who may counter (censure) it, nearest first (the
    keeper's proposal), or ``let``."""
    found = pending(state)
    assert found is not None
    f, card, t = found
    side = other(f.side)
    word = "censures" if card.miracle else "counters"
    out = [offer(ByFighter("counter", side, e.key), f"{e.key} {word} {card.name} ({card.test} "
                 f"vs {card.difficulty}, {card.cost} {card.reserve})", side, float(card.cost), "",
                 f"{word[:-1]} with {e.key}", f"{e.key}: {word[:-1]}")
           for e in counterers(state, f, card)]
    g = general(state, side).key
    return [*out, offer(ByFighter("let", side, g), f"Let {card.name} work on {t.key}", side,
                        0.0, "", "let it work", f"{g}: {word[:-1]}")]
