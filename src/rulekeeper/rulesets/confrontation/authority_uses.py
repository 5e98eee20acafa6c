"""Authority's other uses (issue 24): forcing an opponent who passes to play, and choosing how a fray is split.

The seed (Authority): "These tokens can be used in various ways before the Tactical Roll, during the approach or the
activation: … A player can use an Authority counter to prevent his opponent from passing his turn. The opponent is
then Forced to play immediately and cannot refuse. This is not possible if the opponent only has 1 card to play.
Additionally, these tokens can be used at the beginning of the Combat Phase as follows: 1 token can be spent to
choose how to split a Fray where at least one of his fighters is. All unused tokens are discarded at the end of the
activation phase."

Played here (docs/rules/confrontation.md, "Authority's other uses"):

* **passing** (the core's activation sequence is not in the seed; **estimated**): the side to act may ``pass``
  instead of activating a fighter, so the other side activates one first, when the other side has a fighter waiting;
  it may not pass back at once (``no_pass``). A "card" is a fighter still to activate.
* **forcing**: when a side with more than one fighter waiting passes and the opponent holds a token, the opponent
  answers: ``allow`` (the keeper's proposal: the token is kept) or ``force`` (a token spent: the passer activates a
  fighter now and cannot pass).
* **a fray's split**: at the beginning of the combat phase, the side that lost the Tactical roll (the winner already
  chooses every split: splitting.py) may spend a token on each fray of three or more where one of his fighters is, to
  choose how it is split (``authority_split`` with the block split off, or none: it stays whole); the winner cannot
  split that fray again. ``decline`` (the keeper's proposal) leaves the splits to the winner and discards the tokens.
* the seed's two sentences on when tokens go ("used at the beginning of the Combat Phase", "discarded at the end of
  the activation phase") are read as one moment (default ``authority_tokens=combat``: the split is chosen, then they
  are discarded); option ``authority_tokens=discarded`` reads the discard first: no split with a token.
"""

from __future__ import annotations

from rulekeeper.core.game import LegalAction

from .action_types import ByFighter, Split, offer
from .authority import held, spend
from .report_lines import ReportLine
from .skirmish import groups, too_large, waiting
from .splitting import candidates, do_split
from .state import Fighter, SkirmishState, other, replace
from .tactical import general

Group = tuple[tuple[Fighter, ...], tuple[Fighter, ...]]


# -- the beginning of the combat phase: a fray's split -----------------------------------------------------------


def token_frays(state: SkirmishState, side: str) -> list[Group]:
    """The frays of three or more where one of ``side``'s fighters is, whose split no token chose yet."""
    return [g for g in groups(state) if len(g[0]) + len(g[1]) > 2
            and any(f.side == side for f in (*g[0], *g[1])) and not settled(state, g)]


def settled(state: SkirmishState, group: Group) -> bool:
    return any(f.key in state.settled for f in (*group[0], *group[1]))


def token_chooser(state: SkirmishState) -> str | None:
    """The side that may spend a token at the beginning of the combat phase: the Tactical roll's loser, holding a
    token, with a fray to split (None under ``authority_tokens=discarded``)."""
    if state.phase != "combat" or state.option("authority_tokens", "combat") == "discarded":
        return None
    side = other(state.leader)
    return side if held(state, side) > 0 and token_frays(state, side) else None


def split_offers(state: SkirmishState, side: str) -> list[LegalAction]:
    """``decline`` (the keeper's proposal), then for each of his frays: kept whole (when a fray may hold it), and
    each block the keeper offers the winner (:func:`~.splitting.candidates`)."""
    g = general(state, side).key
    out = [offer(ByFighter("decline", side, g), "Keep no Authority token: the Tactical roll's "
                 "winner splits the frays (the keeper's proposal)", side, None, "", "no token",
                 f"{g}: Authority")]
    for group in token_frays(state, side):
        mine = next(f for f in (*group[0], *group[1]) if f.side == side)
        keys = {f.key for f in (*group[0], *group[1])}
        if not too_large(group):
            out.append(_offer(mine, [], f"Spend a token: {' and '.join(sorted(keys))} fight as one fray"))
        for block in candidates(state, keys, mine.key):
            order = [f.key for f in state.fighters if f.key in block]
            out.append(_offer(mine, order, f"Spend a token: split {' and '.join(order)} off their fray"))
    return out


def _offer(f: Fighter, apart: list[str], text: str) -> LegalAction:
    return offer(Split("authority_split", f.side, f.key, tuple(apart)), text, f.side,
                 None, "", "split off " + ", ".join(apart) if apart else "keep whole", f"{f.key}: Authority")


def do_token_split(state: SkirmishState, side: str, lead: Fighter, apart: list[str]) -> tuple[SkirmishState,
                                                                                             list[ReportLine]]:
    """A token spent on ``lead``'s fray: split ``apart`` off it (none: it stays whole); the winner cannot split it."""
    group = next(g for g in groups(state) if lead.key in {f.key for f in (*g[0], *g[1])})
    keys = [f.key for f in (*group[0], *group[1])]
    report: list[ReportLine] = []
    if apart:
        state, report = do_split(state, apart)
    left = held(state, side) - 1
    text = f"{state.name(side)} spend an Authority token ({left} left): " + (
        f"{' and '.join(apart)} fight apart" if apart else f"{' and '.join(keys)} fight as one fray")
    state = replace(spend(state, side), settled=(*state.settled, *keys))
    return _next_in_combat(state), [{"text": text, "kind": "phase"}, *report[1:]]


def do_decline(state: SkirmishState, side: str) -> tuple[SkirmishState, list[ReportLine]]:
    text = f"{state.name(side)} spend no Authority token: their tokens are discarded"
    return _next_in_combat(replace(state, held=(0, 0))), [{"text": text, "kind": "phase"}]


def _next_in_combat(state: SkirmishState) -> SkirmishState:
    return replace(state, to_act=token_chooser(state) or state.leader)


# -- the activation phase: passing, and forcing with a token ----------------------------------------------------


def may_pass(state: SkirmishState, side: str) -> bool:
    """His opponent has a fighter waiting, and he did not just pass to him nor was forced to play."""
    return state.phase == "activation" and not state.asking and state.no_pass != side and bool(
        waiting(state, other(side))) and not any(f.aiming and f.standing for f in state.fighters)


def pass_offer(state: SkirmishState, side: str) -> list[LegalAction]:
    if not may_pass(state, side):
        return []
    g = general(state, side).key
    return [offer(ByFighter("pass", side, g), f"Pass: {state.name(other(side))} activate a "
                  "fighter first", side, None, "", "pass", f"{g}: activation")]


def can_force(state: SkirmishState, passer: str) -> bool:
    """The opponent holds a token, and the passer has more than "1 card to play"."""
    return held(state, other(passer)) > 0 and len(waiting(state, passer)) > 1


def do_pass(state: SkirmishState, side: str) -> tuple[SkirmishState, list[ReportLine]]:
    foe = other(side)
    if can_force(state, side):
        text = f"{state.name(side)} pass: {state.name(foe)} may spend an Authority token to force them to play"
        return replace(state, asking=side, to_act=foe), [{"text": text, "kind": "phase"}]
    text = f"{state.name(side)} pass: {state.name(foe)} activate a fighter first"
    return replace(state, no_pass=foe, to_act=foe), [{"text": text, "kind": "phase"}]


def answer_offers(state: SkirmishState) -> list[LegalAction]:
    """The answer to a pass: ``allow`` (the keeper's proposal) or ``force`` (a token)."""
    side, passer = other(state.asking), state.asking
    g = general(state, side).key
    return [offer(ByFighter("allow", side, g), f"Let {state.name(passer)} pass (the keeper's "
                  "proposal: the token is kept)", side, None, "", "let them pass", f"{g}: Authority"),
            offer(ByFighter("force", side, g), f"Spend an Authority token ({held(state, side)} "
                  f"held): {state.name(passer)} must play now", side, None, "", "force them to play",
                  f"{g}: Authority")]


def do_answer(state: SkirmishState, side: str, force: bool) -> tuple[SkirmishState, list[ReportLine]]:
    passer = state.asking
    if force:
        text = f"{state.name(side)} spend an Authority token: {state.name(passer)} are forced to play now"
        return replace(spend(state, side), asking="", no_pass=passer, to_act=passer), [{"text": text, "kind": "phase"}]
    text = f"{state.name(side)} let {state.name(passer)} pass: they activate a fighter first"
    return replace(state, asking="", no_pass=side, to_act=side), [{"text": text, "kind": "phase"}]

