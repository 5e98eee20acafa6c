"""Combat odds: the strength ratio, its column shifts, the armour +1 and the d10 on the Combat Table.

"To resolve a combat, the attacker's strength (black number) is divided by the defence strength of
the attacked character (red number). This gives a strength ratio that corresponds to a column of
possible results in the appropriate Combat Table. The attacker then only has to roll the die."
:func:`combat_odds` computes everything the Fate Screen shows; :func:`resolve_combat` draws the die
from exactly the request the odds describe (``odds.request``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wording import counted

from .data import CombatResult, SheetData, Table
from .fighters import Fighter, can_enter, fighter_effect, least_advantageous
from .special import combat_notes

DIE = range(1, 11)
"""The d10: "a 10-sided die (numbered 0 to 9, the 0 counting as 10)"."""

DWARF_READINGS = ("instead", "plus")


@dataclass(frozen=True)
class Shift:
    """One column shift of the strength ratio and the rule behind it."""

    columns: int
    why: str


@dataclass(frozen=True)
class CombatOdds:
    """Everything the Fate Screen shows before the die is rolled."""

    attackers: tuple[Fighter, ...]
    defenders: tuple[Fighter, ...]
    attack: int
    defence: int
    ratio: Fraction
    base_column: int
    shifts: tuple[Shift, ...]
    column: int
    column_name: str
    table: Table
    die_modifier: int
    rows: dict[int, str]
    letters: dict[str, Fraction]
    key: dict[str, CombatResult]
    notes: tuple[str, ...] = ()
    arithmetic: tuple[str, ...] = field(default=())

    @property
    def request(self) -> ChanceRequest:
        """The d10 as the resolution draws it: one outcome per face, ``"7→C"`` (die 7 reads row 7+mod)."""
        return discrete(f"combat die ({self.table} table, column {self.column_name})",
                        [(f"{d}→{self.rows[d]}", 1.0) for d in DIE], self.arithmetic)

    def to_dict(self) -> dict[str, object]:
        return {
            "attackers": [f.label for f in self.attackers], "defenders": [f.label for f in self.defenders],
            "attack": self.attack, "defence": self.defence, "ratio": f"{self.ratio.numerator}/{self.ratio.denominator}",
            "base_column": f"{self.base_column + 1}-1",
            "shifts": [{"columns": s.columns, "why": s.why} for s in self.shifts],
            "column": self.column_name, "table": self.table, "die_modifier": self.die_modifier,
            "rows": {str(d): letter for d, letter in self.rows.items()},
            "results": {k: {"probability": float(p), "exact": f"{p.numerator}/{p.denominator}",
                            "meaning": self.key[k].text} for k, p in self.letters.items()},
            "notes": list(self.notes), "arithmetic": list(self.arithmetic),
        }


def strength_ratio(attack: int, defence: int) -> tuple[Fraction, int]:
    """The ratio and its column index (0 is 1-1): "rounded if necessary in favour of the defender"."""
    if defence <= 0:
        raise ImpossibleRequestError("The defenders have no defence strength left: no ratio can be made "
                                     "(a dragon part wounded twice 'no longer has any defence potential').")
    ratio = Fraction(attack, defence)
    if ratio < 1:
        raise ImpossibleRequestError(
            f"Attack {attack} against defence {defence} is less than 1 to 1: "
            "'Attacks at less than 1 to 1 are impossible.'", attack=attack, defence=defence)
    return ratio, int(ratio) - 1  # "rounded if necessary in favour of the defender": down to whole n-1


def _restrictions(sheet: SheetData, attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...]) -> None:
    """"As a general rule, any combat is impossible when the attacker cannot go onto the hex he is attacking.\""""
    for a in attackers:
        if not a.standing:
            raise ImpossibleRequestError(f"{a.name} is stunned and cannot attack.", character=a.name)
        if a.attack <= 0:
            raise ImpossibleRequestError(f"{a.name} has no attack strength ({a.state}).", character=a.name)
        for d in defenders:
            for terrain in d.hex_terrains():
                why = can_enter(sheet, a, terrain)
                if why is not None:
                    raise ImpossibleRequestError(
                        f"{a.name} cannot attack {d.name}: {why} ('any combat is impossible when the attacker "
                        "cannot go onto the hex he is attacking').", attacker=a.name, defender=d.name)


def _group_shifts(attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...], dwarves: str) -> list[Shift]:
    parts = [a for a in attackers if a.is_dragon_part]
    out: list[Shift] = []
    if len(parts) >= 2:
        out.append(Shift(1, "the Black Dragon attacks with two parts of its body: 'The dragon benefits from a shift "
                            "of the strength ratio of one column to the right when it attacks a character with two "
                            "parts of its body.'"))
    characters = len(attackers) - len(parts) + (1 if parts else 0)  # the dragon's parts are one character
    if characters < 2:
        return out
    if any(d.on_horse_table for d in defenders) and sum(a.mounted for a in attackers) < 2:
        out.append(Shift(0, "no shift for attacking together: 'This rule applies against a mounted character "
                            "only if he is attacked by several horsemen.'"))
    else:
        out.append(Shift(1, "attacking together: 'If they attack together, they are also entitled to shift the "
                            "strength ratio thus obtained one column to the right'"))
    n = sum(a.is_dwarf for a in attackers)
    if n:
        quote = ("'When they attack together, the strength ratio obtained is shifted one column to the right for "
                 "each dwarf present in the combat.'")
        together = out[-1].columns
        if dwarves == "plus":
            out.append(Shift(n, f"{counted(n, 'dwarf', 'dwarves')}, on top of attacking together (option dwarves=plus): {quote}"))
        elif n > together:
            out.append(Shift(n - together, f"{counted(n, 'dwarf', 'dwarves')} in place of the one column for attacking together "
                                           f"(option dwarves=instead): {quote}"))
    return out


def _terrain_shift(sheet: SheetData, attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...]) -> Shift:
    a = least_advantageous([fighter_effect(sheet, f) for f in attackers])
    d = least_advantageous([fighter_effect(sheet, f) for f in defenders])
    n = sheet.terrain.combat_shifts.shifts[a][d]  # type: ignore[index]
    who = "the attackers' least advantageous terrain" if len(attackers) > 1 else "the attacker's terrain"
    return Shift(n, f"terrain: {who} ({a}) against the defender's ({d}): {n:+d} {'column' if abs(n) == 1 else 'columns'}")


def combat_odds(sheet: SheetData, attackers: list[Fighter], defenders: list[Fighter],
                dwarves: str = "instead") -> CombatOdds:
    """The exact odds of one combat (any number of attackers and defenders)."""
    if not attackers or not defenders:
        raise ImpossibleRequestError("A combat needs at least one attacker and one defender.")
    if dwarves not in DWARF_READINGS:
        raise ImpossibleRequestError(f"dwarves must be one of {', '.join(DWARF_READINGS)}, got {dwarves!r}.")
    atk, dfn = tuple(attackers), tuple(defenders)
    _restrictions(sheet, atk, dfn)
    attack, defence = sum(a.attack for a in atk), sum(d.defence for d in dfn)
    ratio, base = strength_ratio(attack, defence)
    shifts = [_terrain_shift(sheet, atk, dfn), *_group_shifts(atk, dfn, dwarves)]
    columns = sheet.combat.columns
    wanted = base + sum(s.columns for s in shifts)
    column = max(0, min(len(columns) - 1, wanted))
    notes = []
    if wanted != column:
        notes.append(f"shifted to column {wanted + 1}-1, read on the table's {'last' if wanted > column else 'first'}"
                     f" column {columns[column]} (estimated: the sheet has no column beyond)")
    table: Table = "mounted" if all(d.on_horse_table for d in dfn) else "foot"
    armoured = all(d.armour for d in dfn)
    modifier = 1 if armoured else 0
    table_rows = sheet.combat.tables[table]
    lo, hi = min(table_rows), max(table_rows)
    rows = {d: table_rows[max(lo, min(hi, d + modifier))][column] for d in DIE}
    letters: dict[str, Fraction] = {}
    for letter in rows.values():
        letters[letter] = letters.get(letter, Fraction(0)) + Fraction(1, len(DIE))
    letters = dict(sorted(letters.items()))
    arithmetic = (
        f"attack {' + '.join(f'{a.name} {a.attack}' for a in atk)} = {attack}; "
        f"defence {' + '.join(f'{d.label} {d.defence}' for d in dfn)} = {defence}",
        f"{attack}/{defence} = {float(ratio):.2f} to 1, rounded in the defender's favour: {base + 1}-1",
        *(f"{s.columns:+d}: {s.why}" for s in shifts),
        f"column {columns[column]} of the {table} Combat Table"
        + (" ('one is used to resolve combats against mounted characters')" if table == "mounted" else ""),
        ("die +1: every defender is in armour ('he adds 1 point to the number obtained on the die')" if armoured
         else "die unmodified" + (" (not every defender is in armour: 'this rule does not apply')"
                                  if any(d.armour for d in dfn) else "")),
    )
    key = sheet.combat.keys[table]
    return CombatOdds(atk, dfn, attack, defence, ratio, base, tuple(shifts), column, columns[column], table,
                      modifier, rows, letters, dict(key), (*notes, *combat_notes(atk, dfn, letters, key)),
                      arithmetic)


@dataclass(frozen=True)
class CombatRoll:
    odds: CombatOdds
    die: int
    letter: str

    @property
    def meaning(self) -> str:
        return self.odds.key[self.letter].text


def resolve_combat(fate: Fate, odds: CombatOdds) -> CombatRoll:
    """Roll the d10 through ``fate`` on exactly the request the odds show."""
    outcome = fate.draw(odds.request).outcome
    die = int(outcome.split("→")[0])
    return CombatRoll(odds, die, odds.rows[die])
