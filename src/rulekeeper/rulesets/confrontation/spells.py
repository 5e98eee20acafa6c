"""The example spell and miracle cards (``data/spells.yaml``, **estimated**) and the casting numbers they come with.

The seed prints no spell, no miracle and no casting rule; it names them ("cast a spell or call a miracle",
"counter-magic or censure", mana Gems, T.F., the Aura of Faith, losing focus). So a small card set ships, marked
estimated, each card with its reasoning, replaceable by the player's own cards; the rules that use them are
:mod:`.magic` (docs/rules/confrontation.md, "Spells and miracles").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError

SPELLS = Path(__file__).resolve().parent / "data" / "spells.yaml"


@dataclass(frozen=True)
class Incantation:
    """A spell (cast with POW, paid in Gems) or a miracle (called with FAI, paid in T.F.)."""

    name: str
    miracle: bool
    cost: int
    difficulty: int
    range: float
    damage: int = 0  # the damage roll's STR against an enemy (0: no damage)
    heal: int = 0  # HP a friend recovers

    @property
    def test(self) -> str:
        return "FAI" if self.miracle else "POW"

    @property
    def reserve(self) -> str:
        return "T.F." if self.miracle else "Gems"

    @property
    def verb(self) -> str:
        return "calls" if self.miracle else "casts"


@dataclass(frozen=True)
class MysticRules:
    aura_of_faith: float
    counter_range: float
    focus_penalty: int
    cards: tuple[Incantation, ...]
    absorb_rate: int = 1  # resources a designated fighter loses for 1 charge (Absorb/X: accumulators.py)

    def card(self, name: str) -> Incantation | None:
        wanted = " ".join(name.split()).casefold()
        return next((c for c in self.cards if c.name.casefold() == wanted), None)


def _card(row: object, miracle: bool, where: str) -> Incantation:
    if not isinstance(row, dict) or not isinstance(row.get("effect"), dict):
        raise DataFileError(str(SPELLS), [f"{where}: name, cost, difficulty, range and effect are required"])
    effect = row["effect"]
    try:
        card = Incantation(str(row["name"]), miracle, int(row["cost"]), int(row["difficulty"]), float(row["range"]),
                           int(effect.get("damage", 0)), int(effect.get("heal", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError(str(SPELLS), [f"{where}: {exc!r}"]) from None
    if (card.damage > 0) == (card.heal > 0) or card.cost < 0:
        raise DataFileError(str(SPELLS), [f"{where}: an effect is either damage: STR or heal: HP"])
    return card


@cache
def mystic_rules(path: Path = SPELLS) -> MysticRules:
    """The file, checked: marked ``estimated``, its numbers, its cards."""
    data = read_data_file(path)
    if not isinstance(data, dict) or "estimated" not in data or not isinstance(data.get("rules"), dict):
        raise DataFileError(str(path), ["the spells file must be a mapping marked 'estimated' with its 'rules'"])
    rules = data["rules"]
    cards = tuple(_card(r, kind == "miracles", f"{kind}[{i}]") for kind in ("spells", "miracles")
                  for i, r in enumerate(data.get(kind) or []))
    absorb = data.get("accumulators", {}).get("absorb", {}) if isinstance(data.get("accumulators"), dict) else {}
    rate = absorb.get("rate", 1) if isinstance(absorb, dict) else 1
    if isinstance(rate, bool) or not isinstance(rate, int) or rate < 1:
        raise DataFileError(str(path), [f"accumulators.absorb.rate: a whole number of resources from 1, got {rate!r}"])
    return MysticRules(float(rules["aura_of_faith"]), float(rules["counter_range"]), int(rules["focus_penalty"]),
                       cards, rate)
