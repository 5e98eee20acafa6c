"""The whole result of a Dragon Noir action before it is made (issue 27): what a combat, a shot, a spell or a
slip past will do to everyone on the map, each outcome with its probability, exactly.

An action draws a d10 or two; :func:`~rulekeeper.core.draws.enumerate_draws` runs :func:`play`, the very
function :meth:`~.game.DragonNoir.apply` resolves with, once per sequence of outcomes. So the preview is the
roll by construction: a rules change reaches both at once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from rulekeeper.core.chance import Fate
from rulekeeper.core.draws import NotEnumerable, enumerate_draws
from rulekeeper.core.whole import WholeMeasure, WholeOdds
from rulekeeper.core.wording import counted

from .action_types import Attack, ByUnit, Cast, DNAction, Lead, Mount, Shoot, ToHex
from .combat import CombatOdds
from .report import Lines
from .state import DNState, Man

#: Actions that draw: what the keeper shows a whole preview for.
CHANCY = ("shoot", "attack", "cast", "counter", "let_be", "move", "carry", "jump", "take_blow")


def play(state: DNState, action: DNAction, fate: Fate) -> tuple[DNState, Lines]:
    """One legal action resolved through ``fate`` (what ``apply`` records), the battle decided after it."""
    from . import actions
    from .sorcery import sync, window
    from .turns import decided

    new, report = actions.perform(state, action, fate)
    return decided(window(state, sync(state, replace(new, rng=fate.state)))), report


def fell(before: DNState, after: DNState, side: str, enemy: bool) -> int:
    """Characters (not riderless horses) of one side alive before and dead after."""
    return sum(1 for m in before.men if (m.side != side) == enemy and m.alive and not m.horse
               and not after.man(m.name).alive)


def _state_of(before: Man, after: Man, acting: bool) -> str:
    if not after.alive:
        return "dead"
    moved = "" if after.hexes == before.hexes else " (moved)" if acting else " (retreats)"
    return f"{after.health}{moved}"


def _acting(action: DNAction) -> str:
    """The one character an action names as acting ("" for an attack, a side's decision or the dragon's step)."""
    match action:
        case Shoot() | ToHex() | ByUnit() | Mount() | Cast() | Lead():
            return action.unit
    return ""


def _answered(before: DNState, action: DNAction) -> list[str]:
    """The target of the spell a counter or a "let it be" answers: what its dice decide.

    Seen: "Zacharie counters Stunning" showed "what it does: Zacharie: healthy 100 %" (the counterer, whom the
    dice never touch) where the player weighs whether Laberne ends stunned."""
    pending = before.pending
    if action.kind in ("counter", "let_be") and pending is not None and pending.kind == "counter":
        return list(pending.options[:1])
    return []


def result_of(before: DNState, after: DNState, action: DNAction) -> str:
    """What the action did to its targets, in words a player reads on the Fate Screen."""
    pending = after.pending
    if pending is not None and pending.kind == "victim" and (before.pending is None or before.pending != pending):
        return f"one of them takes it (their choice): {pending.harm.replace('+', ' and ') or 'the horse'}"
    acting = _acting(action)
    names = list(action.targets) if isinstance(action, Attack) else \
        [action.target] if isinstance(action, Shoot | Cast) else _answered(before, action) or [acting]
    names = [n for n in names if any(m.name == n for m in before.men)]
    if isinstance(action, Attack):
        if any(after.man(n).hexes != before.man(n).hexes for n in action.units if after.man(n).alive):
            return "attackers retreat"
    parts = [f"{n}: {_state_of(before.man(n), after.man(n), n == acting)}" for n in names]
    return "; ".join(parts) if parts else "no effect"


def whole_odds(state: DNState, action: DNAction) -> WholeOdds | None:
    """Every outcome of the action's draws run through :func:`play`: the targets' state, the enemies killed, our
    own losses. ``None`` for an action without chance (or one the check refuses)."""
    if action.kind not in CHANCY:
        return None
    side = action.side
    try:
        leaves = enumerate_draws(lambda fate: play(state, action, fate)[0])
    except NotEnumerable:
        return None
    if len(leaves) == 1 and not leaves[0].draws:
        return None  # nothing was drawn: no chance in this action
    results: defaultdict[str, float] = defaultdict(float)
    enemies: defaultdict[int, float] = defaultdict(float)
    ours: defaultdict[int, float] = defaultdict(float)
    for leaf in leaves:
        results[result_of(state, leaf.value, action)] += leaf.probability
        enemies[fell(state, leaf.value, side, True)] += leaf.probability
        ours[fell(state, leaf.value, side, False)] += leaf.probability
    shown = sorted(results.items(), key=lambda kv: -kv[1])
    measures = (WholeMeasure.from_weights("result", "what it does", shown),
                WholeMeasure.from_weights("enemies_killed", "enemies killed", sorted(enemies.items())),
                WholeMeasure.from_weights("own_losses", "our losses", sorted(ours.items())))
    events = (("an enemy killed", min(1.0, sum(p for k, p in enemies.items() if k > 0))),
              ("one of ours killed", min(1.0, sum(p for k, p in ours.items() if k > 0))))
    return WholeOdds(measures, events, "exact", 0.0,
                     f"every outcome of the dice ({counted(len(leaves), 'branch', 'branches')}) run through the rules")


def combat_whole(odds: CombatOdds) -> WholeOdds:
    """A combat off the map (``odds dragonnoir combat --whole``): each result of the Combat Table with its chance
    and what it does to healthy defenders (on the map, :func:`whole_odds` reads their counters as well)."""
    results: defaultdict[str, float] = defaultdict(float)
    for letter, p in odds.letters.items():
        results[odds.key[letter].text] += float(p)
    killed = sum(float(p) for letter, p in odds.letters.items() if odds.key[letter].defender == "killed")
    retreat = sum(float(p) for letter, p in odds.letters.items() if odds.key[letter].attacker == "retreat")
    return WholeOdds((WholeMeasure.from_weights("result", "what it does", sorted(results.items(),
                                                                                  key=lambda kv: -kv[1])),),
                     (("a defender killed", killed), ("attackers retreat", retreat)), "exact", 0.0,
                     f"one d10 on the {odds.table} table, column {odds.column_name}")

