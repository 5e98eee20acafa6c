"""Expected kills per round and per 100 points for the shipped matchups (the estimates' sanity check).

The seed prints no unit stat lines beyond a few tables, so most stats are estimates
(``data/units.yaml``). This table checks them against the seed's descriptions: what each unit
kills in one round of melee, and what that costs. It is printed in
``docs/rules/exillis-units.md`` ("Checking the estimates"), and a test regenerates it and
compares: change an estimate, and the doc must follow.

Regenerate: ``python -m rulekeeper.rulesets.exillis.matchups``.

Each cell is the mean over ``ROUNDS`` rounds resolved with :func:`.melee.resolve_round` (seeds
0 … ROUNDS−1, full fresh units at level 1, no fatigue, Neutral morale, front), so it is exact
for a given data set and reproducible bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.chance import Fate

from .melee import MeleeContext, resolve_round
from .setup import Tables, UnitSpec, build, load_tables

ROUNDS = 300


@dataclass(frozen=True)
class Attack:
    """One row: who attacks, with which action, and whether the defenders are in the open."""

    unit: str
    action: str = "fight"
    open_ground: bool = True

    @property
    def title(self) -> str:
        if self.action != "charge":
            return f"{self.unit} fight"
        return f"{self.unit} charge ({'in the open' if self.open_ground else 'into terrain'})"


ATTACKS: tuple[Attack, ...] = (
    Attack("Franc Chevalers", "charge"),
    Attack("Franc Chevalers", "charge", open_ground=False),
    Attack("Franc Chevalers"),
    Attack("Hobelars", "charge"),
    Attack("Hobelars"),
    Attack("Billmen"),
    Attack("Serjants (Sword)"),
    Attack("Vileins"),
)
DEFENDERS: tuple[str, ...] = ("Vileins", "Billmen", "Longbowmen", "Serjants (Spear)")


def expected_kills(tables: Tables, attack: Attack, defender: str, rounds: int = ROUNDS) -> float:
    """Mean miniatures of ``defender`` killed by one round of ``attack`` (seeded, reproducible)."""
    total = 0
    for seed in range(rounds):
        taken: set[str] = set()
        a = build(tables, UnitSpec(attack.unit), "A", taken)
        d = build(tables, UnitSpec(defender), "B", taken)
        ctx = MeleeContext(tables.rules, action=attack.action, open_ground=attack.open_ground)
        report = resolve_round((a, d), a.key, ctx, Fate.from_seed(seed))
        total += sum(1 for m in report.casualties if m.startswith(f"{d.key} #"))
    return total / rounds


def kill_table(tables: Tables | None = None, rounds: int = ROUNDS) -> list[tuple[Attack, int, list[float]]]:
    """Per row: the attack, its unit's points, the expected kills against each of :data:`DEFENDERS`."""
    t = tables or load_tables()
    return [(a, int(t.roster.get(a.unit).stat("cost")), [expected_kills(t, a, d, rounds) for d in DEFENDERS])
            for a in ATTACKS]


def markdown(rows: list[tuple[Attack, int, list[float]]]) -> str:
    """The table as printed in the units doc: kills per round, and per 100 points in brackets."""
    head = "| Attack (points) | " + " | ".join(DEFENDERS) + " |"
    lines = [head, "|" + "---|" * (len(DEFENDERS) + 1)]
    for attack, points, kills in rows:
        cells = [f"{k:.2f} ({100 * k / points:.1f})" for k in kills]
        lines.append(f"| {attack.title} ({points}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - the doc's regeneration command
    print(markdown(kill_table()))
