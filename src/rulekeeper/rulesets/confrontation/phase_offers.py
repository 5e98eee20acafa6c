"""The choices of the phases around the activations: the Tactical roll and its winner's ``lead``, the combat phase's
fights and splits, the maintenance phase's Reinforcement choices."""

from __future__ import annotations

from rulekeeper.core.game import LegalAction

from .action_types import ByFighter, Lead, Split, ToPoint, at, offer
from .cover_move import cover_offers, declaring
from .reinforcement import proposals, waiting_choice
from .skirmish import groups, names, too_large
from .splitting import candidates
from .state import Fighter, SkirmishState
from .tactical import general, lead_choices


def combat_offers(state: SkirmishState) -> list[LegalAction]:
    """The Tactical roll's winner's choices: which fray is fought next (each group's ``fight``, the keeper's proposal
    first) and how to split a fray of more than two (``split``: splitting.py); a group too large for one fray offers
    its splits in its fight's place, the keeper's (his first fighter with his own opponents, as before) first."""
    side, out, splits = state.to_act, [], []
    for mine, theirs in groups(state):
        group = {f.key for f in (*mine, *theirs)}
        blocks = candidates(state, group, mine[0].key) if len(group) > 2 and not group & set(state.settled) else []
        offered = [_split(state, mine[0], group, block) for block in blocks]
        if too_large((mine, theirs)):
            out += offered
            continue
        out.append(offer(ByFighter("fight", side, mine[0].key),
                         f"{names(mine)} fight{'s' if len(mine) == 1 else ''} {names(theirs)}", side, None,
                         "a duel" if len(mine) + len(theirs) == 2 else f"a fray of {len(mine) + len(theirs)}",
                         f"{names(mine)} vs {names(theirs)}", "Fight"))
        splits += offered
    return [*out, *splits]


def _split(state: SkirmishState, lead: Fighter, group: set[str], block: set[str]) -> LegalAction:
    order = [f.key for f in state.fighters]
    keys = [k for k in order if k in block]
    rest = [k for k in order if k in group - block]
    return offer(Split("split", lead.side, lead.key, tuple(keys)),
                 f"split {' and '.join(keys)} off into a fray of their own (the rest: {' and '.join(rest)})",
                 lead.side, None, "", f"split off {' and '.join(keys)}", f"{lead.key}: split the fray")


def tactical_offers(state: SkirmishState) -> list[LegalAction]:
    """The Tactical roll (one action: both Generals' dice), then its winner's choice of who acts first (his own
    side proposed first)."""
    side, g = state.to_act, general(state, state.to_act).key
    if declaring(state) == side:  # moves under cover come before the roll
        return cover_offers(state, side)
    if state.phase == "tactical" and state.drawn:  # Authority: the holder's choice after a draw
        return [offer(ByFighter("authority", side, g), "Spend an Authority token and win "
                      "the Tactical roll (the keeper's proposal)", side, None, "", "Authority token",
                      f"{g}: Tactical roll"),
                offer(ByFighter("tactical", side, g), "Roll the Tactical roll again, keeping "
                      "the token", side, None, "", "roll again", f"{g}: Tactical roll")]
    if state.phase == "tactical":
        return [offer(ByFighter("tactical", side, g), f"Round {state.round}: roll the Tactical "
                      "roll", side, None, "", "Tactical roll", f"{g}: Tactical roll")]
    return [offer(Lead(side, g, first),
                  f"{state.name(first)} act first" + (" (the keeper's proposal)" if i == 0 else ""), side, None,
                  "", f"{state.name(first)} first", f"{g}: who acts first")
            for i, first in enumerate(lead_choices(state))]


def reinforcement_offers(state: SkirmishState) -> list[LegalAction]:
    """A Reinforcement roll's choice: on 1-2 keep him (the keeper's proposal) or remove him from play; on 5-6 where
    he comes back (the keeper's spots; any legal one may be named)."""
    f = waiting_choice(state)
    if f is None:
        return []
    side = f.side
    if f.returning == "remove?":
        return [offer(ByFighter("keep", side, f.key), f"{f.key} stays in the area of losses (the keeper's proposal)",
                side, None, "", "keep", f"{f.key}: Reinforcement"),
                offer(ByFighter("remove", side, f.key), f"{f.key} is removed from play", side, None, "", "remove",
                f"{f.key}: Reinforcement")]
    if not proposals(state, f):
        return [offer(ByFighter("keep", side, f.key), f"{f.key}: no room within 10 cm of a "
                      "friend, he stays in the area of losses", side, None, "", "keep", f"{f.key}: Reinforcement")]
    return [offer(ToPoint("return", side, f.key, at(to)),
                  f"{f.key} comes back at ({to[0]:g}, {to[1]:g})", side, None, "", f"back at {to[0]:g},{to[1]:g}",
                  f"{f.key}: Reinforcement") for to in proposals(state, f)]
