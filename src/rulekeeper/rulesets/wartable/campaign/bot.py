"""The search bot's two hooks for the War Table campaign (``rulekeeper.bots``): hidden orders re-drawn, and a
score of a campaign between rounds.

``determinise``: the orders another side has given but not yet revealed are exactly what the bot may not
read, so they are dropped and drawn afresh for each simulation: the shipped policy's orders half of the
time, any of that side's legal order sets the other half (an *estimate* of how a player plays: a bot that
assumed the naive policy would be exploited by anyone who knew it; one that assumed uniform play would
guard against orders nobody gives). The RNG state is replaced too, so no Delve roll is foreseen.

``evaluate``: half Health (the side's share of all standing Health against an even share), half
Enclaves (a holder wants its Enclaves' Stability, an attacker wants them Fallen).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from rulekeeper.core.rng import RngState

from .actions import policy_orders, side_choices
from .session import CampaignGameState, SideOrders


def determinise(state: CampaignGameState, side: str, seed: int) -> CampaignGameState:
    """``state`` as ``side`` sees it, with a fresh RNG and the other sides' pending orders re-drawn."""
    draws = np.random.Generator(np.random.PCG64(seed))
    base = replace(state, rng=RngState.from_seed(int(draws.integers(0, 2**62))),
                   pending=tuple(p for p in state.pending if p.side == side))
    redrawn: list[SideOrders] = []
    for hidden in state.pending:
        if hidden.side == side:
            continue
        if draws.random() < 0.5:
            redrawn.append(policy_orders(base, hidden.side))
        else:
            choices = side_choices(base, hidden.side)
            redrawn.append(choices[int(draws.integers(0, len(choices)))])
    order = [p.side for p in state.pending]
    by_side = {p.side: p for p in (*base.pending, *redrawn)}
    return replace(base, pending=tuple(by_side[s] for s in order))


def evaluate(state: CampaignGameState, side: str) -> float:
    """How the campaign stands for ``side`` in [-1, 1]: Health share and Enclaves, half each."""
    c = state.campaign
    faction = state.faction_of(side)
    total = sum((u.health for u in c.units if u.health > 0), Fraction(0))
    own = sum((u.health for u in c.units if u.faction == faction and u.health > 0), Fraction(0))
    health = float(own / total) - 1.0 / max(len(state.sides), 1) if total else 0.0
    if not c.enclaves:
        return max(-1.0, min(1.0, 2 * health))
    kept = [0.0 if e.fallen else float(e.stability / e.full) if e.full else 0.0 for e in c.enclaves]
    mine = [k for e, k in zip(c.enclaves, kept, strict=True) if e.faction == faction]
    theirs = [k for e, k in zip(c.enclaves, kept, strict=True) if e.faction != faction]
    enclaves = (sum(mine) / len(mine) - 0.5) if mine else (0.5 - sum(theirs) / len(theirs))
    return max(-1.0, min(1.0, health + enclaves))
