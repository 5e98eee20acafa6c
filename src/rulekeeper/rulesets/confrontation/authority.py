"""Authority (issue 24): the tokens a side's Authority fighters generate, and winning a drawn Tactical roll with one.

The seed: "Before any Tactical Roll, a fighter endowed with this capacity generates an "authority" token. An army
cannot have more than X+1 such tokens during the same round, where X is the number of Pure Warrior Characters in the
army. If both armies have Authority tokens, subtract one from each other's reserve until one or both have no tokens
left. These tokens can be used in various ways before the Tactical Roll, during the approach or the activation: If
the Tactical Roll was a Draw, a player can use a token to win the Tactical Roll. … All unused tokens are discarded at
the end of the activation phase."

Played here: the tokens are counted before each Tactical roll from the standing fighters (a Pure Warrior Character
is a Character with neither POW nor FAI); after the cancelling, at most one side holds any. When the roll is a draw
and a side holds a token, the roll stops and that side chooses (its legal actions): ``authority`` (spend a token and
win: the keeper's proposal) or ``tactical`` (roll again, keeping the token). The other uses are not played: the
activation sequence's cards (reserve, passing) are not modelled, and splitting a fray with a token needs the other
side to act at the start of the combat phase (docs/rules/confrontation.md, "Authority").
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.game import JsonDict

from .state import Fighter, SkirmishState, other


def pure_warrior_character(f: Fighter) -> bool:
    """A Character who is no Mystic: neither POW (a Magician's) nor FAI (a Faithful's)."""
    return f.card.character and f.card.POW is None and f.card.FAI is None


def generated(state: SkirmishState, side: str) -> int:
    """The side's tokens before the cancelling: one per standing Authority fighter, at most X + 1."""
    mine = state.standing(side)
    cap = sum(1 for f in mine if pure_warrior_character(f)) + 1
    return min(sum(1 for f in mine if f.card.has("Authority")), cap)


def tokens(state: SkirmishState, side: str) -> int:
    """After "subtract one from each other's reserve until one or both have no tokens left"."""
    return max(0, generated(state, side) - generated(state, other(side)))


def holder(state: SkirmishState) -> str | None:
    """The side holding Authority tokens this round, if any."""
    return next((s for s in ("A", "B") if tokens(state, s) > 0), None)


def do_authority(state: SkirmishState, side: str) -> tuple[SkirmishState, list[JsonDict]]:
    """"If the Tactical Roll was a Draw, a player can use a token to win the Tactical Roll"."""
    text = f"{state.name(side)} spend an Authority token ({tokens(state, side)} held) and win the Tactical roll; " \
           "they choose who acts first"
    return replace(state, phase="lead", leader=side, to_act=side, drawn=False), [{"text": text, "kind": "phase"}]
