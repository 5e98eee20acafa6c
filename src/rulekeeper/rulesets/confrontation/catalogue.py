"""Every ability of the seed not yet implemented, with what it waits for.

Kept as data beside :data:`~.abilities.ABILITIES` so the catalogue is complete and checkable: a
test reads docs/rules/confrontation.md and finds every name of both in its table.
"""

from __future__ import annotations

COMBAT = "not yet: needs combat dice and exchanges"
BOARD = "not yet: needs the board (distances, line of sight, movement)"
MYSTIC = "not yet: needs mystic actions (mana, T.F., charges)"
MORALE = "not yet: needs morale (COU vs FEAR, rout)"
UPKEEP = "not yet: needs the maintenance phase and health points"
ARMY = "not yet: needs army lists and the activation sequence"
SHOOT = "not yet: needs shooting"
DAMAGE = "not yet: needs health points and wound penalties"

#: name -> (category, status) for every ability of the seed that no hook implements yet.
NOT_YET: dict[str, tuple[str, str]] = {
    "Absorb": ("mystic", MYSTIC), "Alliance": ("army", ARMY),
    "Artefact": ("army", ARMY), "Assassin": ("damage", COMBAT + " (Deadly blow)"),
    "Assault fire": ("shooting", SHOOT), "Attentive": ("board", BOARD), "Authority": ("army", ARMY),
    "Being of": ("army", ARMY), "Blood brother": ("army", ARMY), 
    "Bull's eye": ("shooting", SHOOT), "Circular blow": ("combat", COMBAT),
    "Chargeable": ("mystic", MYSTIC), 
    "Collect": ("mystic", MYSTIC), "Colossal": ("size", DAMAGE), "Concentration": ("mystic", MYSTIC),
    "Consciousness": ("board", BOARD), 
    "Cure": ("upkeep", UPKEEP), "Devotion": ("mystic", MYSTIC), "Disengagement": ("board", BOARD),
    "Divine blood": ("size", DAMAGE), "Emblem": ("morale", MORALE), "Enormous": ("size", DAMAGE),
    "Extended vision": ("board", BOARD),
    "Faith": ("mystic", MYSTIC), "Fanaticism": ("morale", MORALE), "Feint": ("combat", COMBAT),
    "Fencer": ("combat", COMBAT), "Flight": ("board", BOARD),
    "Frenetic": ("board", BOARD), "Generation": ("mystic", MYSTIC), "Gigantic": ("size", DAMAGE),
    "Harassment": ("board", BOARD), "Hostile": ("army", ARMY), "Hyperian": ("morale", MORALE),
    "Icon": ("mystic", MYSTIC), "Iconoclast": ("mystic", MYSTIC), "Immersion": ("board", BOARD),
    "Immunity": ("damage", "not yet: needs every effect it names (fear, toxic, spells, locations)"),
    "Impact": ("damage", BOARD + " (War Machines)"), "Implacable": ("board", BOARD),
    "Inalterable": ("mystic", MYSTIC), "Indestructible": ("damage", DAMAGE), "Indirect fire": ("shooting", SHOOT),
    "Inviolable": ("army", ARMY), "Infiltration": ("board", BOARD), "Insensitive": ("mystic", MYSTIC),
    "Instinctive firing": ("shooting", SHOOT), "Leadership": ("morale", MORALE), "Leap": ("board", BOARD),
    "Living-dead": ("morale", MORALE), "Loyal": ("mystic", MYSTIC), "Mana": ("mystic", MYSTIC),
    "Martyr": ("mystic", MYSTIC), "Master Archer": ("shooting", SHOOT), "Master Crossbowman": ("shooting", SHOOT),
    "Master marksman": ("shooting", SHOOT), "Master strike": ("combat", COMBAT),
    "Mastery of the arcana": ("mystic", MYSTIC), "Mechanic": ("upkeep", UPKEEP), "Mercenary": ("army", ARMY),
    "Minelayer": ("board", BOARD), "Mowing": ("board", BOARD), "Mutagenic": ("army", ARMY + "; Mutagenic dice"),
    "Negation": ("mystic", MYSTIC), "Pariah": ("army", ARMY + " (the Tactical Roll)"),
    "Personal enemy": ("damage", ARMY + " (gains on X's removal); its Bane/X is Bane"), "Piety": ("mystic", MYSTIC),
    "Possessed": ("damage", DAMAGE), "Predictable": ("army", ARMY), "Rapidity": ("board", BOARD),
    "Rapid reloading": ("shooting", SHOOT), "Reaction fire": ("shooting", SHOOT), "Recovery": ("mystic", MYSTIC),
    "Reinforcement": ("upkeep", UPKEEP), "Reorientation": ("board", BOARD),
    "Resource": ("upkeep", UPKEEP), "Righteous": ("morale", MORALE),
    "Robustness": ("damage", DAMAGE), "Ruthless": ("board", BOARD + " (charges, pushes)"),
    "Sanctuary": ("board", BOARD), "Sapper": ("board", BOARD), "Scout": ("board", BOARD),
    "Selenite": ("army", ARMY), "Sequence": ("combat", COMBAT), "Shelter": ("board", BOARD),
    "Stateless": ("army", ARMY), "Steadfast": ("board", BOARD + " (charges, pushes)"),
    "Subjugated": ("army", ARMY), "Sustained defence": ("combat", COMBAT), "Summoner": ("army", ARMY),
    "Tall": ("board", BOARD), "Target": ("shooting", SHOOT), "Thaumaturgist": ("mystic", MYSTIC),
    "Toxic": ("damage", COMBAT + " (Toxic dice, follow-up damage roll)"), "Transportable": ("board", BOARD),
    "Transport": ("board", BOARD), "Unbowed": ("mystic", MYSTIC), "Unstoppable": ("board", BOARD),
    "War cry": ("morale", MORALE), 
    "Warrior-mage": ("mystic", MYSTIC), "Warrior-monk": ("mystic", MYSTIC), "Watchful": ("board", BOARD),
}

#: Abilities of the seed that the combat (``fighters.py``, ``duel.py``) or the maintenance phase
#: (``maintenance.py``) implement rather than a test hook: name -> (category, status).
ELSEWHERE: dict[str, tuple[str, str]] = {
    "Additional limb": ("combat", "implemented in combat: ATT and DEF swapped when it raises ATT (policy)"),
    "Ambidextrous": ("combat", "implemented in combat: a successful DEF test gains an attack die; a spare defence die turns to attack"),
    "Born killer": ("combat", "implemented in combat: one more combat die (not yet: its COU tests)"),
    "Brutish charge": ("combat", "implemented in combat: one more attack die after a charge (--charge)"),
    "Charging strength": ("damage", "implemented in combat: STR replaced by X after a charge (--charge; not yet: Master strike)"),
    "Counterattack": ("combat", "implemented in combat: margin 2, or 1 for a Character/Warrior-Mystic with it on his card or twice"),
    "Construct": ("upkeep", "implemented in part: SP (Repair, Ruin; no Regeneration, Ephemeral) (not yet: immunities, DIS 0)"),
    "Ephemeral": ("upkeep", "implemented in the maintenance phase (cancelled by Regeneration; option ephemeral_vs_regeneration)"),
    "Ethereal": ("damage", "implemented in part: Immunity/Stunned, HP lost reduced by one (not yet: the board advantages)"),
    "Fierce": ("damage", "implemented in combat: 2 more HP at 0 HP, killed when lost; removed at the maintenance phase"),
    "Regeneration": ("upkeep", "implemented in the maintenance phase (cancels Ephemeral)"),
    "Repair": ("upkeep", "implemented in the maintenance phase (cancels Ruin)"),
    "Ruin": ("upkeep", "implemented in the maintenance phase (cancels Repair)"),
    "Vulnerable": ("damage", "implemented in combat: +1 HP lost by damage rolls, none on Stunned"),
    "War-horse": ("combat", "implemented in combat: one more combat die unless he charged (not yet: pushes)"),
}
