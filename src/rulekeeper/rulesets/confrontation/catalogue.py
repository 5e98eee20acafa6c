"""Every ability of the seed not yet implemented, with what it waits for.

Kept as data beside :data:`~.abilities.ABILITIES` so the catalogue is complete and checkable: a
test reads docs/rules/confrontation.md and finds every name of both in its table.
"""

from __future__ import annotations

CORE = "not yet: a core rule the seed refers to but does not describe"
BOARD = "not yet: needs the board (distances, line of sight, movement)"
MYSTIC = "not yet: needs mystic actions (mana, T.F., charges)"
MORALE = "not yet: needs morale (COU vs FEAR, rout)"
ARMY = "not yet: needs army lists and the activation sequence"
SHOOT = "not yet: shooting has the core shot only (docs: Shooting)"
SIZE = "not yet: the size table (page 11) is not in the seed; the card prints its HP"

#: name -> (category, status) for every ability of the seed that no hook implements yet.
NOT_YET: dict[str, tuple[str, str]] = {
    "Alliance": ("army", ARMY),
    "Artefact": ("army", ARMY),
"Attentive": ("board", BOARD), "Blood brother": ("army", ARMY), 
    "Chargeable": ("mystic", MYSTIC), 
    "Collect": ("mystic", MYSTIC),
    "Consciousness": ("board", BOARD), "Disengagement": ("board", BOARD),
    "Divine blood": ("size", SIZE), 
    
    "Flight": ("board", BOARD),
    "Generation": ("mystic", MYSTIC),
    "Harassment": ("board", BOARD), 
    "Icon": ("mystic", MYSTIC), "Iconoclast": ("mystic", MYSTIC), 
    "Impact": ("damage", BOARD + " (War Machines)"),
    "Inalterable": ("mystic", MYSTIC), "Indirect fire": ("shooting", SHOOT),
    "Inviolable": ("army", ARMY), "Infiltration": ("board", BOARD), "Insensitive": ("mystic", MYSTIC),
    "Loyal": ("mystic", MYSTIC), 
    "Mechanic": ("upkeep", "not yet: needs War Machines and Steam/Naphtha equipment (not in the seed)"), "Mercenary": ("army", ARMY),
    "Minelayer": ("board", BOARD), "Mowing": ("board", BOARD), "Mutagenic": ("army", ARMY + "; Mutagenic dice"),
    "Negation": ("mystic", MYSTIC), "Predictable": ("army", ARMY), 
    "Rapid reloading": ("shooting", SHOOT), 
"Reorientation": ("board", BOARD),
    "Resource": ("upkeep", "not yet: needs a Nexus's charges (mystic actions)"), "Ruthless": ("board", BOARD + " (charges, pushes)"),
    "Sanctuary": ("board", BOARD), "Sapper": ("board", BOARD), "Scout": ("board", BOARD),
    "Selenite": ("army", ARMY), "Shelter": ("board", BOARD),
    "Stateless": ("army", ARMY), "Steadfast": ("board", BOARD + " (charges, pushes)"),
    "Subjugated": ("army", ARMY), "Sustained defence": ("combat", CORE + " (sustained defence)"), "Summoner": ("army", ARMY),
    "Thaumaturgist": ("mystic", MYSTIC), "Transportable": ("board", BOARD),
    "Transport": ("board", BOARD), "Unstoppable": ("board", BOARD),
    
    "Warrior-mage": ("mystic", MYSTIC), "Warrior-monk": ("mystic", MYSTIC), "Watchful": ("board", BOARD),
}

#: Abilities of the seed that the combat (``fighters.py``, ``duel.py``) or the maintenance phase
#: (``maintenance.py``) implement rather than a test hook: name -> (category, status).
#: The mystic abilities whose effect on a reserve is implemented in mystic.py, with no Mystic phase to use them in.
RESERVE = "implemented as reserve arithmetic (mystic.py): "
NO_PHASE = " (not yet: the Mystic phase, spells and miracles)"

ELSEWHERE: dict[str, tuple[str, str]] = {
    "Reaction fire": ("shooting", "implemented in skirmishes: a charged marksman's shot at his charger before "
                      "contact, his player's choice, AIM against 7 (4 with it twice), one a round (reaction.py)"),
    "Assault fire": ("shooting", "implemented in skirmishes: a charger's shot at the fighter he charges, before "
                     "contact, AIM against 7 (4 with it twice), the target killed not reached (assault.py)"),
    "Concentration": ("mystic", "implemented in skirmishes: X points a round (Generation/X) on the card's bold "
                      "characteristics, declared at the beginning of the combat phase, before his fight "
                      "(concentration.py; not yet: the bold characteristics a fight does not read)"),
    "Absorb": ("mystic", "implemented in skirmishes: friendly Magicians' Gems (Faithful's T.F.) within X cm, up to his "
               "rank, 1 for 1 (estimated, data/spells.yaml), once a round before his action (accumulators.py)"),
    "Unbowed": ("mystic", "implemented in skirmishes: a countered or censured Mystic keeps his focus (magic.py)"),
    "Authority": ("army", "implemented in skirmishes: tokens before each Tactical roll (X + 1 at most, cancelled), a drawn roll won with one, a pass forced to play, a fray's split chosen (authority.py, authority_uses.py; not yet: a card in reserve)"),
    "Leap": ("board", "implemented in skirmishes: walks and pursuits over what is no taller than he is, charges over what is no taller than twice his height, two leaps a round, none under cover (leap.py)"),
    "Tall": ("board", "implemented in skirmishes: X cm tall for sight and cover (heights.py)"),
    "Bull's eye": ("shooting", "implemented in skirmishes: (final result − difficulty) added to the damage Strength "
                   "of his shots (third-edition rules)"),
    "Target": ("shooting", "implemented in skirmishes: X added to the difficulty of a shot at him, not cumulated with moving under cover when both are bonuses"),
    "Piety": ("mystic", RESERVE + "the T.F. kept at the beginning of the Mystic phase" + NO_PHASE),
    "Recovery": ("mystic", RESERVE + "X more Gems after the mana recovery roll, within the reserve limit" + NO_PHASE),
    "Martyr": ("mystic", RESERVE + "the exact odds of what an offering of T.F. yields (STR 5 per T.F., RES 0; one "
               "more if it kills)" + NO_PHASE),
    "Devotion": ("mystic", RESERVE + "the exact odds of what an offering of Gems yields (STR 5 per Gem, RES 0; one "
                 "more if it kills)" + NO_PHASE),
    "Mana": ("mystic", RESERVE + "X Gems for eliminating him" + NO_PHASE),
    "Faith": ("mystic", RESERVE + "X T.F. for eliminating him" + NO_PHASE),
    "Mastery of the arcana": ("mystic", RESERVE + "a −X on the next POW test buys the X missing Gems, X at most his "
                              "POW" + NO_PHASE),
    "Rapidity": ("board", "implemented in skirmishes: charges up to 3 × MOV (policy: always used); in rout, fleeing "
                 "3 × MOV at the opponent's choice (not yet: runs)"),
    "Extended vision": ("board", "implemented in skirmishes: a 360° front (charges need the target in the front)"),
    "Righteous": ("morale", "implemented in part: Immunity/Fear (not yet: never controlled by the opponent)"),
    "Hyperian": ("morale", "implemented in part: Immunity/Fear (not yet: Alliance/Cynwäll, the FEAR and COU swapped "
                 "against the Meanders of Darkness)"),
    "War cry": ("morale", "implemented in skirmishes: a FEAR rate of X when he charges (policy: always chosen), his COU "
                "for his own test; no test against a FEAR of X or less"),
    "Leadership": ("morale", "implemented in skirmishes: COU tests with his card's COU (or FEAR) within X cm, same "
                   "people, no Constructs (not yet: DIS tests, page 61's restrictions)"),
    "Emblem": ("morale", "implemented in skirmishes: COU tests with his SP within X cm (not yet: DIS tests)"),
    "Assassin": ("damage", "implemented in combat: after a charge, his first damage roll is a Deadly blow (estimated: "
                 "read one line lower)"),
    "Being of": ("army", "implemented in part: Immunity/Toxic in combat, Immunity/Fear for Darkness and Light (not "
                 "yet: alliances, Consciousness, Hyperian's FEAR)"),
    "Circular blow": ("combat", "implemented in frays: one attack on every opponent for that many attack dice, STR "
                      "altered by X (policy: X ≥ 0, two or more opponents)"),
    "Colossal": ("size", "implemented: a card check (Very Large, 7 HP; 8 with Divine blood) (not yet: Force 4 for "
                 "pushes)"),
    "Cure": ("upkeep", "implemented: once a round, as a free fighter's simple action (+1) or in the maintenance phase, "
             "his player choosing whom he cures (himself or a friend in base contact), 1d6 ≥ X heals 1 LP"),
    "Enormous": ("size", "implemented: a card check (Very Large, 6 HP; 7 with Divine blood) (not yet: Force 3 for "
                 "pushes)"),
    "Fanaticism": ("morale", "implemented in skirmishes: −1 to his wound penalties to STR; the DIS test before he "
                   "flees, passed: he does not flee"),
    "Frenetic": ("board", "implemented in skirmishes: a pursuit movement of his whole MOV"),
    "Master marksman": ("shooting", "implemented in skirmishes: two shots in one activation, after a walk too (not "
                        "yet: a different special shot each time: special shots are not modelled)"),
    "Master Archer": ("shooting", "implemented in skirmishes: as Master marksman"),
    "Master Crossbowman": ("shooting", "implemented in skirmishes: as Master marksman"),
    "Reinforcement": ("upkeep", "implemented in skirmishes: the maintenance phase's d6 for the cheapest one in the "
                      "area of losses; his player chooses on 1-2 (remove him or not) and 5-6 (where he comes back)"),
    "Endurance": ("damage", "implemented: no penalties for a Light wound (third-edition rules; not in the seed's list)"),
    "Implacable": ("board", "implemented in skirmishes: X more pursuit movements a combat phase"),
    "Pariah": ("army", "implemented in skirmishes: a Pariah General (not every fighter one) rolls the Tactical roll "
               "with 2d6, the lowest kept"),
    "Fencer": ("combat", "implemented in combat: one die held in reserve (his player's choice as he places), placed in "
               "attack (no Counterattack nor Ambidextrous against it) or defence when he has no other (policy) (not yet: its sustained defence, a "
               "core rule the seed does not describe)"),
    "Feint": ("combat", "implemented in combat: a hit takes an attack (else a defence) die instead of a damage roll "
              "(policy: when the damage roll cannot wound)"),
    "Gigantic": ("size", "implemented: a card check (Very Large, 8 HP; 9 with Divine blood) (not yet: Force 5 for "
                 "pushes)"),
    "Hostile": ("army", "implemented in part: its Bane/X in combat (not yet: capturing and Forcing a Nexus)"),
    "Immunity": ("damage", "implemented in combat for abilities (Bane, Ferocious, Toxic, Master strike, Assassin as "
                 "Deadly blow) and Stunned; fear and a kind of terrain (Immunity/Encumbered ground, Immunity/<a "
                 "piece's name>) in skirmishes (not yet: elements, locations, exceptional wounds, magic, firing)"),
    "Immersion": ("board", "implemented in skirmishes: water is open ground to him (others cannot enter it)"),
    "Instinctive firing": ("shooting", "implemented in skirmishes: no cover penalty (not yet: Harassment's penalty, "
                           "firing into a Fray)"),
    "Indestructible": ("damage", "implemented in combat: he loses no HP and has no wound penalties (a decision: "
                       "Killed outright neither)"),
    "Living-dead": ("morale", "implemented in part: Immunity/Toxic in combat, Immunity/Fear (not yet: Hyperian's "
                    "FEAR, DIS 0)"),
    "Master strike": ("combat", "implemented in combat: two attack dice, STR + his card's ATT with no wound penalty "
                      "when no DEF test is made against it (policy: an undefended target)"),
    "Personal enemy": ("damage", "implemented in part: its Bane/X in combat (not yet: the ability gained and the 2 HP "
                       "when X is removed: needs army lists)"),
    "Possessed": ("damage", "implemented: wound penalties one level lower (Stunned unaffected)"),
    "Robustness": ("damage", "implemented: no penalties for Stunned or a Light wound (before Possessed)"),
    "Sequence": ("combat", "implemented in combat: up to X more dice, −1 ATT and DEF each, never below 0 (declared by "
                 "his player before the INI test in a battle; the calculator takes every die it may)"),
    "Toxic": ("damage", "implemented in combat: one Toxic die on his first attack; a wound brings a damage roll STR X "
              "vs RES 0 (not yet: the army's count of Toxic dice)"),
    "Additional limb": ("combat", "implemented in combat: ATT and DEF swapped as its player announces after the INI test "
                                "(the INI loser first); the keeper's proposal and one-action fights: when it raises ATT"),
    "Ambidextrous": ("combat", "implemented in combat: a successful DEF test gains an attack die; a spare defence die turns to attack"),
    "Brutish charge": ("combat", "implemented in combat: one more attack die after a charge (--charge)"),
    "Charging strength": ("damage", "implemented in combat: STR replaced by X after a charge (--charge; not yet: Master strike)"),
    "Counterattack": ("combat", "implemented in combat: margin 2, or 1 for a Character/Warrior-Mystic with it on his card or twice"),
    "Construct": ("upkeep", "implemented in part: SP (Repair, Ruin; no Regeneration, Ephemeral), Immunity/Fear and "
                  "Immunity/Toxic (not yet: DIS 0)"),
    "Ephemeral": ("upkeep", "implemented in the maintenance phase (cancelled by Regeneration; option ephemeral_vs_regeneration)"),
    "Ethereal": ("damage", "implemented in part: Immunity/Stunned, HP lost reduced by one, RES never penalised; "
                 "in skirmishes walks and charges through scenery and miniatures, and the COU test of an enemy a "
                 "fear-inducing one passes through (not yet: Steadfast, disengagement, Force 0)"),
    "Fierce": ("damage", "implemented in combat: 2 more HP at 0 HP, killed when lost; removed at the maintenance phase"),
    "Regeneration": ("upkeep", "implemented in the maintenance phase (cancels Ephemeral)"),
    "Repair": ("upkeep", "implemented in the maintenance phase (cancels Ruin)"),
    "Ruin": ("upkeep", "implemented in the maintenance phase (cancels Repair)"),
    "Vulnerable": ("damage", "implemented in combat: +1 HP lost by damage rolls, none on Stunned"),
    "War-horse": ("combat", "implemented in combat: one more combat die unless he charged (not yet: pushes)"),
}
