"""The counter sheet as rows: every character's sides with the source of each number."""

from __future__ import annotations

from typing import Any, TypedDict

from .data import SheetData, shipped_sheet


class CounterNumber(TypedDict):
    """One number of a counter side (attack, movement or defence) and where it comes from."""

    value: int
    source: str


def roster(sheet: SheetData | None = None) -> list[dict[str, Any]]:
    """One JSON-able row per character: kind, weapon, horseman, armour, each counter side, provenance
    (``user`` for every number of a player's own counter sheet)."""
    sheet = sheet or shipped_sheet()
    rows: list[dict[str, Any]] = []
    user = "characters" in sheet.user_files
    for name, c in sheet.characters.characters.items():
        row: dict[str, Any] = {"name": name, "kind": c.kind, "weapon": c.weapon, "horseman": c.horseman,
                               "armour": c.armour}
        for mode in ("foot", "mounted"):
            sides = getattr(c, mode) or {}
            for state, counter in sides.items():
                numbers: dict[str, CounterNumber] = {
                    k: {"value": getattr(counter, k), "source": "user" if user else c.source(f"{mode}.{state}.{k}")[0]}
                    for k in ("attack", "movement", "defence")}
                row[f"{mode}.{state}"] = numbers
        if c.horse is not None:
            row["horse"] = {"defence": c.horse.defence, "barded": c.horse.barded}
        row["seed"] = dict(c.seed)
        row["estimated_why"] = c.why
        rows.append(row)
    return rows
