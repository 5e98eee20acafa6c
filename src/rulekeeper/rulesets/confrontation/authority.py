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
win: the keeper's proposal) or ``tactical`` (roll again, keeping the token). The tokens are generated once a round,
kept in the state, and spent there; their other uses (preventing a pass, choosing how a fray is split) are
:mod:`.authority_uses` (docs/rules/confrontation.md, "The Tactical roll" and "Authority's other uses").
"""

from __future__ import annotations

from .report_lines import ReportLine
from .state import SIDES, Fighter, SkirmishState, other, replace


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


def held(state: SkirmishState, side: str) -> int:
    """The tokens ``side`` holds: those it is about to generate before the round's Tactical roll, then what is left
    of those generated (kept in the state: fighters killed later in the round do not take them back)."""
    if state.phase == "tactical" and not state.drawn:
        return tokens(state, side)
    return state.held[SIDES.index(side)]


def generate(state: SkirmishState) -> SkirmishState:
    """"Before any Tactical Roll, a fighter endowed with this capacity generates an "authority" token" (once a round:
    a roll again after a draw is the same round's, and "An army cannot have more than X+1 such tokens during the same
    round")."""
    return replace(state, held=(tokens(state, "A"), tokens(state, "B")))


def spend(state: SkirmishState, side: str) -> SkirmishState:
    """One of ``side``'s tokens spent."""
    a, b = state.held
    return replace(state, held=(a - (side == "A"), b - (side == "B")))


def holder(state: SkirmishState) -> str | None:
    """The side holding Authority tokens this round, if any."""
    return next((s for s in SIDES if held(state, s) > 0), None)


def do_authority(state: SkirmishState, side: str) -> tuple[SkirmishState, list[ReportLine]]:
    """"If the Tactical Roll was a Draw, a player can use a token to win the Tactical Roll"."""
    text = f"{state.name(side)} spend an Authority token ({held(state, side)} held) and win the Tactical roll; " \
           "they choose who acts first"
    return replace(spend(state, side), phase="lead", leader=side, to_act=side, drawn=False), \
        [{"text": text, "kind": "phase"}]
