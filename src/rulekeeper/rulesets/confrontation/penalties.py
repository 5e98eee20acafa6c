"""Wound penalties: what a wounded or Stunned fighter subtracts from his tests, from the HP he has lost.

The seed names wound penalties without giving them (the core rules are not in it), but it fixes their
shape: levels (Possessed "reduces by one level the wound penalties … a fighter with this ability that also
lost 1 HP suffers no wound penalties but he suffers the penalties for being Stunned"), one number (Sequence:
"he also suffers Serious wound penalties, so his ATT is 4 and DEF is 1", from ATT 6 and DEF 3: Serious is
−2), and per-characteristic reductions (Fine blade, Parade, Vivacity, Sharp shooter, Fanaticism "reduces by
1 wound penalties to …, this does not cumulate with Possessed"). The numbers live in the Wound Table's data
(``levels``, ``penalties``, ``penalised``; estimated but Serious's 2), so a player's book replaces them.

Order (docs/rules/confrontation.md, "Wound penalties"): the level is read from the HP lost; Robustness
ignores a Light level ("applied before Possessed, so they do not affect Serious Wounds becoming Light due to
Possessed"); Possessed lowers the level by one; a characteristic's own reduction (−1) applies only without
Possessed; Stunned gives its penalty unless Robustness ("ignore penalties due to Stunned"), whatever
Possessed, and never stacks with a wound's (third-edition rules: Stunned −1 "never stacks with wounds"): the
larger of the two applies. Indestructible "has no health, so he cannot lose HP": never wounded. A table that penalises RES
(the shipped one does not) leaves an Ethereal fighter's alone: "Their RES cannot be altered by any generic
bonus or penalty".
"""

from __future__ import annotations

from functools import cache

from .cards import FighterCard
from .wounds import WOUND_LEVELS, WoundTable

#: The ability that "reduces by 1 wound penalties to" each characteristic.
REDUCED_BY = {"INI": "Vivacity", "ATT": "Fine blade", "DEF": "Parade", "AIM": "Sharp shooter", "STR": "Fanaticism"}
#: Fierce's extra HP: while standing thanks to it a fighter has lost his card's HP and then some.
FIERCE_HP = 2

Penalties = tuple[tuple[str, int], ...]


def hp_lost(card: FighterCard, hp: int, fierce: bool = False) -> int:
    """HP lost so far: the card's HP minus what is left (Fierce: all of the card's, plus what he lost of 2 more)."""
    return card.HP + (FIERCE_HP - hp) if fierce else max(0, card.HP - hp)


def wound_level(table: WoundTable, names: tuple[str, ...], lost: int) -> int:
    """0 (none), 1 Light, 2 Serious, 3 Critical after Robustness and then Possessed."""
    if "Indestructible" in names:
        return 0
    level = table.level_of(lost)
    if level == 1 and ("Robustness" in names or "Endurance" in names):
        level = 0  # Endurance (third-edition rules): "ignores Light-wound penalties"; Stunned still counts
    if "Possessed" in names:
        level = max(0, level - 1)
    return level


@cache
def penalty_table(table: WoundTable, names: tuple[str, ...], lost: int, stunned: bool) -> Penalties:
    """``(characteristic, penalty)`` pairs, penalty > 0, for a fighter with these abilities in this state."""
    level = wound_level(table, names, lost)
    wound = table.penalty_of(WOUND_LEVELS[level - 1]) if level else 0
    stun = table.penalty_of("Stunned") if stunned and "Robustness" not in names else 0
    out = []
    for characteristic in table.penalised:
        if characteristic == "RES" and "Ethereal" in names:
            continue  # Ethereal: "Their RES cannot be altered by any generic bonus or penalty"
        own = 1 if wound and REDUCED_BY.get(characteristic) in names and "Possessed" not in names else 0
        total = max(max(0, wound - own), stun)  # third-edition rules: Stunned "never stacks with wounds"
        if total:
            out.append((characteristic, total))
    return tuple(out)


def wound_penalties(card: FighterCard, hp: int, stunned: bool, table: WoundTable,
                    fierce: bool = False) -> dict[str, int]:
    """What ``card``, with ``hp`` HP left (and Stunned, and standing thanks to Fierce), subtracts from each
    characteristic's tests: ``{"ATT": 2, "DEF": 2, …}``; characteristics without a penalty are absent."""
    return dict(penalty_table(table, card.ability_names, hp_lost(card, hp, fierce), stunned))
