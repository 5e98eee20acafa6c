"""Fray splitting (issue 24): the Tactical roll's winner splits the round's frays and orders their fights.

The seed names Fray splitting without describing it: Assassin's bonus "is acquired even if the fighter is separated
from the target of his charge after Fray splitting"; Brutish charge's die "even if the fighter ... is separated
from the target of his charge after Fray splitting"; Charging strength "even if the fighter is separated from the
target of his charge at the end of Fray splitting"; Authority "1 token can be spent to choose how to split a Fray".
So a fray can be split, the split can separate a charger from his target, and one player chooses how. Read here
(**estimated**, docs/rules/confrontation.md, "Fray splitting"):

* in the combat phase the Tactical roll's winner (who already orders the fights) may split any group of engaged
  fighters of more than two: he names a *block* of its fighters that is connected by engagements and holds both
  sides, and whose rest (each connected part of it) holds both sides too; the block and the rest are then fought as
  separate frays, and an engagement between them is not fought this round;
* a block can be split again, so any partition into connected two-sided frays can be reached;
* the keeper proposes not to split (the fight comes first in the list), except for a group larger than a fray can
  hold (``MAX_FIGHTERS``): it must be split, and the keeper proposes its first fighter with his own opponents;
* the split blocks last until they are fought (a fight removes its block; the next round starts with none).
"""

from __future__ import annotations

from collections.abc import Iterable

from .report_lines import ReportLine
from .state import Fighter, SkirmishState, replace


def block_of(state: SkirmishState, key: str) -> int | None:
    """The index of the split block ``key`` is in, or ``None`` (not split off)."""
    return next((i for i, block in enumerate(state.splits) if key in block), None)


def fights(state: SkirmishState, f: Fighter, e: str) -> bool:
    """Whether ``f`` fights ``e`` this round still: engaged, not fought yet, and not split apart."""
    return e not in f.fought and block_of(state, f.key) == block_of(state, e)


def component(state: SkirmishState, start: str, within: Iterable[str] | None = None) -> set[str]:
    """The fighters connected to ``start`` by engagements still to fight (inside ``within`` when given)."""
    allowed = None if within is None else set(within)
    members, todo = {start}, [start]
    while todo:
        f = state.fighter(todo.pop())
        for e in f.engaged:
            if e not in members and fights(state, f, e) and (allowed is None or e in allowed):
                members.add(e)
                todo.append(e)
    return members


def two_sided(state: SkirmishState, keys: Iterable[str]) -> bool:
    return len({state.fighter(k).side for k in keys}) == 2


def split_problem(state: SkirmishState, group: set[str], block: set[str]) -> str | None:
    """Why ``block`` cannot be split off ``group`` (a connected group still to fight), or ``None``."""
    if not block < group:
        outside = sorted(block - group)
        return f"{', '.join(outside)} {'is' if len(outside) == 1 else 'are'} not in this fray" if outside else \
            "the block is the whole fray: nothing to split"
    if not two_sided(state, block) or component(state, next(iter(sorted(block))), block) != block:
        return "a split-off fray must hold fighters of both sides, connected by their engagements"
    rest = group - block
    while rest:
        part = component(state, sorted(rest)[0], rest)
        if not two_sided(state, part):
            return f"it would leave {', '.join(sorted(part))} with no opponent to fight"
        rest -= part
    return None


def candidates(state: SkirmishState, group: set[str], first: str) -> list[set[str]]:
    """The blocks the keeper offers: ``first`` with his own opponents in the group (the keeper's proposal when the
    group must be split), each other fighter with his, then each engaged pair (a duel split off); the legal ones,
    without repeats, in the order the fighters stand in the state."""
    order = [first, *(f.key for f in state.fighters if f.key in group and f.key != first)]
    out: list[set[str]] = []
    stars = [{k, *(e for e in state.fighter(k).engaged if e in group and fights(state, state.fighter(k), e))}
             for k in order]
    pairs = [{k, e} for k in order for e in state.fighter(k).engaged
             if e in group and fights(state, state.fighter(k), e) and order.index(e) > order.index(k)]
    for block in [*stars, *pairs]:
        if block not in out and split_problem(state, group, block) is None:
            out.append(block)
    return out


def do_split(state: SkirmishState, block: list[str]) -> tuple[SkirmishState, list[ReportLine]]:
    """Split ``block`` off its fray: it becomes a block of its own (taken out of the block it was in)."""
    chosen = set(block)
    kept = tuple(tuple(k for k in b if k not in chosen) for b in state.splits)
    order = [f.key for f in state.fighters if f.key in chosen]
    splits = tuple(b for b in kept if b) + (tuple(order),)
    text = f"{state.name(state.leader)} split {' and '.join(order)} off into a fray of their own"
    return replace(state, splits=splits), [{"text": text, "kind": "phase"}]


def fought_block(state: SkirmishState, keys: set[str]) -> SkirmishState:
    """After a fight: its block is done, and every engagement it leaves unfought across a split is closed too (the
    fighter on the other side does not fight it this round)."""
    changed = [replace(f, fought=(*f.fought, *(e for e in f.engaged if e in keys and e not in f.fought)))
               for f in state.fighters if f.key not in keys and any(e in keys for e in f.engaged)]
    splits = tuple(b for b in state.splits if not set(b) <= keys)
    return replace(state.with_fighters(*changed), splits=splits)
