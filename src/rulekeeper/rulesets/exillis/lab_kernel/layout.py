"""Where each number sits in the flat arrays the kernel reads (names for the columns).

The kernel runs on flat numpy arrays (numba compiles those well); these constants name their
columns so the hot loops read ``side_f[d, HP]`` rather than ``side_f[d, 0]``.
"""

from __future__ import annotations

# -- per side (row 0: the request's first unit, row 1: its second), integers: side_i[side, …]
N = 0  # miniatures at the start
CAP = 1  # attacks one miniature can receive per round (its Bulk)
CAN_ROUT = 2  # 0 for Soulless / Enraged units
AGG_OK = 3  # 1 if its Aggressiveness draws attacks at all (weight > 0)
N_THR = 4  # number of morale-state thresholds (4 standard, 1 Soulless / Enraged)
BULK_OK = 5  # 1 if its casualties shake it (Bulk > 0)
SHOOTS = 6  # 1 if it has a ranged attack (shoot mode)
SHOTS_PER = 7  # projectiles per miniature in a volley
SIDE_I = 8

# -- per side, floats: side_f[side, …]
HP = 0  # Hit Points of one miniature
SHD = 1  # the divisor of a Blocked hit on it: max(1, Shield)
RET = 2  # its chance to retaliate once defended: min(1, RET × stance)
BAD_SELF = 3  # what a Bad Luck costs its own miniature
MORALE0 = 4  # morale at the start
MBLK = 5  # Missile Block chance when shot at
SHOT_FINAL = 6  # final damage of the enemy's projectiles on it
BULK = 7  # Bulk of one miniature (the zone space its casualty frees)
SIDE_F = 8

# -- per strike (one unit's round or volley, in order): sched_i[strike, …] and sched_f[strike, …]
ATT = 0  # the side that strikes
ROUND = 1  # the round the strike belongs to (1-based)
CHARGE = 2  # 1 for the charge opening
SCHED_I = 3
HIT_FINAL = 0  # final damage of its attacks (lance on a cavalry charge)
RET_FINAL = 1  # final damage of the defender's retaliations
STATIC = 2  # static morale penalty the strike puts on the defender (cavalry charge), before sensitivity
SCHED_F = 3

# -- per-battle state: mor[side, …] (floats) and cnt[side, …] (integers), work[…, miniature] scratch rows
MORALE = 0
INTIM_MOD = 1  # the Intimidation modifier now in the morale, replaced each round
COUNT = 0  # living miniatures
FLEEING = 1
RECEIVED = 0  # attacks each defending miniature received this round (Bulk cap)
RETALIATED = 1  # whether it retaliated this round (once per round)
ALIVE0 = 2  # attacking miniatures alive when the round began
ELIGIBLE = 3  # the miniatures an attack may still be assigned to (the first ``targets`` entries)
SLOT = 4  # where each miniature sits in ELIGIBLE
WORK_ROWS = 5

# -- constants: params[…]
LUCK_MULT = 0
ROUT_ON_BREAKING = 1
FIRST_ORDER_END = 2  # strikes before it: the fight when the first unit was deployed first; from it: the second
CHARGE_FIRST = 3  # 1: a charge's Intimidation is set before its casualties (option charge_intimidation)
PARAMS = 4

#: Morale states a table holds (Overconfident … Broken; Soulless / Enraged use two).
STATES = 5
#: Melee roll-to-hit outcomes, in the order of the odds tables.
ATTACK, BLOCKED, EVADED, DEFLECTED, LUCK, BAD_LUCK = range(6)
MELEE_OUTCOMES = ("Attack", "Blocked", "Evaded", "Deflected", "Luck", "Bad Luck")
#: Where a projectile falls, in the order of the shot tables.
ACCURATE, ENEMY_SPACE, ALLIED_SPACE, FREE_SPACE, COVER, SHOT_LUCK, SHOT_BAD_LUCK = range(7)
SHOT_OUTCOMES = ("Accurate Shot", "Enemy space", "Allied space", "Free space", "Cover", "Luck", "Bad Luck")

# -- outcome codes of a battle (the order of core.duels.OUTCOMES)
FIRST_DESTROYS, FIRST_ROUTS, SECOND_DESTROYS, SECOND_ROUTS, DRAW = range(5)
