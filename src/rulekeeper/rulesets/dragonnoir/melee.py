"""Combat in a battle: who may attack whom together, the blow applied, the victim chosen, the advance after.

The odds are the calculator's (:func:`.combat.combat_odds`: ratio, terrain and group shifts, armour,
"Attacks at less than 1 to 1 are impossible", "any combat is impossible when the attacker cannot go onto
the hex he is attacking"). The combats offered for each enemy are each adjacent attacker alone and, when
there are several, any of them together ("they can attack him individually or else add their attack
points into a single overall factor"), every group of them (two of three, say: "Every combat is optional", each
attacker chooses to join or not); an attacker next to several enemies may also attack them all
("he must add their defence points into a single overall factor"). "When the result of a combat
indicates that one of the attackers or defenders has been stunned or wounded, it is the player of the
side concerned who decides which of his characters takes the blow" (a ``victim`` decision); "the result
'attacker retreats' or 'defender retreats' applies to all the characters who took part".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from rulekeeper.boards.hexes import hex_distance
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.memo import remembered

from .advance import advance_steps
from .centre import BODY, staged, via_combats
from .combat import CombatOdds, combat_odds, resolve_combat
from .data import shipped_sheet
from .dragon import attack_refusal, is_part
from .harm import hurt, kill_horse_under
from .report import Lines
from .special import obliged_defenders
from .state import DNState, Man, Pending, character_of, fighter_of, other

#: "the victorious player may advance one of his characters by 2 hexes if he is on foot and by 3 hexes if he
#: is mounted"
ADVANCE = {False: 2, True: 3}


def touching(state: DNState, a: Man, b: Man) -> bool:
    board = state.board
    return any(hex_distance(board.parse(x), board.parse(y)) == 1 for x in a.hexes for y in b.hexes)


def ready(state: DNState, m: Man) -> bool:
    """Able to attack this combat sequence: of the side to act, standing, with an attack, not yet attacked."""
    return (m.side == state.side and m.standing and not m.horse and not m.attacked
            and fighter_of(state, m).attack > 0)


def odds(state: DNState, attackers: list[str], defenders: list[str]) -> CombatOdds:
    """The combat's odds (ImpossibleRequestError when the combat cannot be fought), worked out once per state:
    listing the combats, the policy's choice and the fight itself ask the same ones (issue 28, profiled)."""
    def build() -> CombatOdds:
        atk = [fighter_of(state, state.man(n)) for n in attackers]
        dfn = [fighter_of(state, state.man(n)) for n in defenders]
        return combat_odds(shipped_sheet(), atk, dfn, state.option("dwarves", "instead"))

    return remembered(state, (odds, tuple(attackers), tuple(defenders)), build)


def _possible(state: DNState, attackers: list[str], defenders: list[str]) -> bool:
    if attack_refusal(state, [state.man(n) for n in attackers], [state.man(n) for n in defenders]):
        return False
    try:
        odds(state, attackers, defenders)
    except ImpossibleRequestError:
        return False
    return True


LUCIFER, GODIVA = "Lucifer", "Godiva"


def obliged(state: DNState, defenders: list[str]) -> list[str]:
    """The defenders with Lucifer added when Godiva is among them and he stands beside her, alive, on her side:
    "In combat, if Godiva is attacked, one is obliged to add Lucifer's defence potential to that of his mistress if
    the dog is on a hex adjacent to the young woman." (:func:`.special.obliged_defenders`.)"""
    names = {m.name for m in state.men}
    if GODIVA not in defenders or LUCIFER not in names or GODIVA not in names:
        return defenders
    dog, lady = state.man(LUCIFER), state.man(GODIVA)
    if not dog.alive or dog.side != lady.side:
        return defenders
    fighters = [fighter_of(state, state.man(n)) for n in defenders]
    out = obliged_defenders(fighters, fighter_of(state, dog), touching(state, dog, lady))
    return defenders + ([LUCIFER] if len(out) > len(fighters) else [])


def combats(state: DNState) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every combat the side to act may fight now, as (attackers, defenders), in a stable order (Godiva's defenders
    with Lucifer beside her: :func:`obliged`)."""
    mine = [m for m in state.men if ready(state, m)]
    foes = [e for e in state.men if e.alive and e.side != state.side]
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for e in foes:
        near = [m.name for m in mine if touching(state, m, e)]
        options = [list(group) for size in range(1, len(near) + 1) for group in combinations(near, size)]
        out += [(tuple(a), tuple(obliged(state, [e.name]))) for a in options
                if _possible(state, a, obliged(state, [e.name]))]
    for m in mine:  # "he can choose to fight some of them, all of them or none"
        near = [e.name for e in foes if touching(state, m, e)]
        groups = [list(g) for size in range(2, len(near) + 1) for g in combinations(near, size)]
        out += [((m.name,), tuple(obliged(state, g))) for g in groups if _possible(state, [m.name], obliged(state, g))]
    return list(dict.fromkeys((in_order(state, a), in_order(state, d)) for a, d in out))


def in_order(state: DNState, names: Sequence[str]) -> tuple[str, ...]:
    """Names in the battle's own order of characters: the canonical order ``parse_action`` gives a list of names,
    so that a legal attack is listed exactly as it will be read back (Lucifer added after Godiva, or a ``via``
    character named before those already beside the centre, used to break that)."""
    order = {m.name: i for i, m in enumerate(state.men)}
    return tuple(sorted(names, key=order.__getitem__))


def centre_combats(state: DNState) -> list[tuple[tuple[str, ...], tuple[str, str]]]:
    """(attackers, via) for the attacks on the dragon's centre from a disabled limb's hex (:mod:`.centre`)."""
    if state.dragon is None or state.dragon.dead or state.side == state.man(BODY).side:
        return []
    mine = [m for m in state.men if ready(state, m)]
    body = state.man(BODY)
    around = [m.name for m in mine if touching(state, m, body) and attack_refusal(state, [m], [body]) is None]
    out = []
    for attackers, via in via_combats(state, mine, around):
        if _possible(staged(state, via), list(attackers), [BODY]):
            out.append((in_order(state, attackers), via))
    return out


def _hexes(state: DNState, names: list[str]) -> list[str]:
    return [h for n in names for h in state.man(n).hexes]


def _blow(state: DNState, victim: str, harm: str, horse: bool, attackers: list[str], curare: bool,
          ) -> tuple[DNState, Lines]:
    """One defender takes the blow of the letter (and his horse, on the mounted table)."""
    v = state.man(victim)
    away = _hexes(state, attackers)
    if v.horse:
        return hurt(state, victim, "killed", away) if horse else (state, [])
    if harm:
        return hurt(state, victim, harm, away, curare=curare, horse_killed=horse)
    if horse and v.mounted:
        return kill_horse_under(state, victim)
    return state, []


def advance_after(state: DNState, winners: list[str], before: dict[str, tuple[str, ...]]) -> DNState:
    """Offer the advance after combat to the victor when a loser left his hexes or was stunned or killed."""
    board = state.board
    vacated = []
    for name, hexes in before.items():
        now = state.man(name)
        gone = [h for h in hexes if h not in now.hexes or not now.standing]
        # "(or the hex of the stunned or killed character)": a hex nobody standing holds (issue 24, point 2)
        vacated += [h for h in gone if all(not o.standing for o in state.on(h))]
    if not vacated:
        return state
    movers = [n for n in winners if state.man(n).standing and not state.man(n).horse and not is_part(state.man(n))]
    movers = [n for n in movers if any(hex_distance(board.parse(h), board.parse(v)) == 1
                                       for h in state.man(n).hexes for v in vacated)]
    if not movers:
        return state
    p = Pending("advance", state.man(movers[0]).side, "", tuple(movers), tuple(dict.fromkeys(vacated)))
    if not any(advance_steps(state, p, state.man(n)) for n in movers):
        return state
    return replace(state, pending=p)


def fight(state: DNState, attackers: list[str], defenders: list[str], fate: Fate) -> tuple[DNState, Lines]:
    """Roll one combat and apply it; a blow to one of several defenders waits for their side's choice."""
    o = odds(state, attackers, defenders)
    roll = resolve_combat(fate, o)
    result = o.key[roll.letter]
    state = state.with_men(*(replace(state.man(n), attacked=True) for n in attackers))
    lines: Lines = [{"text": f"{' + '.join(attackers)} attack {' + '.join(defenders)} at {o.column_name} "
                             f"({o.table} table): die {roll.die} rolls {roll.letter}, {result.text}", "kind": "roll"}]
    curare = any(character_of(state.man(n).character).poison for n in attackers)
    before = {n: state.man(n).hexes for n in (*attackers, *defenders)}
    horse = result.horse == "killed" or (any(state.man(d).horse for d in defenders) and roll.letter in "EFGH")
    if result.attacker == "retreat":
        for n in attackers:
            state, more = hurt(state, n, "retreat", _hexes(state, defenders))
            lines += more
        return advance_after(state, defenders, {n: before[n] for n in attackers}), lines
    if result.defender == "retreat":
        for n in defenders:
            state, more = hurt(state, n, "retreat", _hexes(state, attackers))
            lines += more
    elif result.defender is not None or horse:
        harm = result.defender or ""
        if len(defenders) > 1:
            lines.append({"text": f"  {state.name(state.man(defenders[0]).side)} choose who takes the blow",
                          "kind": "note"})
            return replace(state, pending=Pending("victim", other(state.side), "", tuple(defenders), (), 0,
                                                  harm + ("+horse" if horse else ""), tuple(attackers))), lines
        state, more = _blow(state, defenders[0], harm, horse, attackers, curare)
        lines += more
    return advance_after(state, attackers, {n: before[n] for n in defenders}), lines


def take_blow(state: DNState, victim: str) -> tuple[DNState, Lines]:
    """The defenders' side chose ``victim`` for the blow waiting in ``state.pending``."""
    p = state.pending
    assert p is not None and p.kind == "victim"
    harm, _, horse = p.harm.partition("+")
    attackers = list(p.others)
    curare = any(character_of(state.man(n).character).poison for n in attackers)
    before = {n: state.man(n).hexes for n in p.options}
    state = replace(state, pending=None)
    state, lines = _blow(state, victim, harm, bool(horse), attackers, curare)
    lines.insert(0, {"text": f"{victim} takes the blow", "kind": "note"})
    return advance_after(state, attackers, before), lines
