"""The search bot's score of an unfinished Dragon Noir battle (``rulekeeper.bots``): who is alive, how strong, and
who is in danger.

At the turn limit the side with more living characters wins (``turns.at_limit``), and a side with none loses at
once. So each living character counts first for being alive (``ALIVE``), then for the strength of the counter side
he shows (attack + defence + half his movement, against a healthy man's ``REFERENCE``): a wounded or stunned
counter is weaker, and a strong character (Crazy Ork, a knight) is worth more than a goblin. A wizard adds his
energy points left (``ENERGY`` per point: his spells are strength too). *Threat*: a standing enemy who can strike
a character next (a shooter with a possible line of fire to him; anyone within his movement + 1 hexes of him)
puts that character at risk in proportion to the odds of the attack against his defence; each character counts
his worst threat only, and threats of the side about to act weigh ``IMMEDIATE``, the others ``LATER``. Every
weight is an *estimate* (issue 28: the old score, living characters by counter side, barely moved over a
4-action rollout of one-hex steps, so the bot kept the shipped policy's moves). The score is (own − enemy) /
(own + enemy), scaled by 0.8 so that no unfinished battle counts as much as a won one.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.boards.hexcoords import hex_distance

from .data import shipped_sheet
from .fire import line_of_fire
from .harm import movement_of
from .shots import may_shoot
from .state import SIDES, DNState, Man, fighter_of, scene_of
from .turns import living

ALIVE = 0.6  # what being alive is worth (the turn limit counts it)
REFERENCE = 13.5  # a healthy man on foot: attack 5 + defence 5 + movement 7 / 2
STRENGTH = 0.4  # what a counter as strong as REFERENCE adds
ENERGY = 0.02  # per energy point a wizard has left
IMMEDIATE, LATER = 0.5, 0.25  # share of a threatened character's worth lost to a threat by the side to act / other


def strength(state: DNState, m: Man) -> tuple[int, int, float]:
    """Attack, defence and the character's whole strength (attack + defence + movement / 2) on the counter up."""
    f = fighter_of(state, m)
    attack, defence = int(f.attack), int(f.defence)
    return attack, defence, attack + defence + movement_of(m) / 2


Stats = dict[str, tuple[int, int, float]]


def worth(stats: Stats, m: Man) -> float:
    return ALIVE + STRENGTH * stats[m.name][2] / REFERENCE


def _threat(state: DNState, stats: Stats, enemy: Man, target: Man, shooting: bool) -> float:
    """The chance-like weight of ``enemy`` striking ``target`` next (0 if he cannot reach him)."""
    attack = stats[enemy.name][0]
    if attack <= 0:
        return 0.0
    near = hex_distance(state.board.parse(enemy.hex), state.board.parse(target.hex)) <= movement_of(enemy) + 1
    if not near and not shooting:
        return 0.0
    return attack / (attack + max(1, stats[target.name][1]))


def _targets(state: DNState, scene: Any, shooter: Man, own: list[Man]) -> set[str]:
    """Whom of ``own`` ``shooter`` has a possible line of fire to."""
    sheet = shipped_sheet()
    return {t.name for t in own if line_of_fire(sheet, scene, shooter.name, t.name).possible}


def _in_danger(state: DNState, stats: Stats, scene: Any, side: str, own: list[Man]) -> float:
    """The worth ``side`` stands to lose: each of its characters' worst threat, weighted by who acts next."""
    weight = IMMEDIATE if state.side != side else LATER
    enemies = [m for m in state.men if m.side != side and m.name in stats and m.standing]
    shooters = {e.name: _targets(state, scene, e, own) for e in enemies if may_shoot(e, False) or may_shoot(e, True)}
    lost = 0.0
    for m in own:
        worst = max((_threat(state, stats, e, m, m.name in shooters.get(e.name, ())) for e in enemies), default=0.0)
        lost += weight * worst * worth(stats, m)
    return lost


def side_value(state: DNState, side: str, stats: Stats | None = None, scene: Any = None) -> float:
    """What ``side``'s characters are worth, less what they stand to lose next."""
    if stats is None:
        stats = {m.name: strength(state, m) for m in state.men if m.alive and not m.horse}
    own = living(state, side)
    value = sum(worth(stats, m) for m in own)
    value += ENERGY * sum(w.energy for w in state.wizards if any(m.name == w.name for m in own))
    return max(0.0, value - _in_danger(state, stats, scene or scene_of(state), side, own))


def evaluate(state: DNState, side: str) -> float:
    stats = {m.name: strength(state, m) for m in state.men if m.alive and not m.horse}
    scene = scene_of(state)
    own = side_value(state, side, stats, scene)
    enemy = sum(side_value(state, s, stats, scene) for s in SIDES if s != side)
    return 0.8 * (own - enemy) / (own + enemy) if own + enemy else 0.0
