"""Shared helpers of the Dragon Noir tests: characters by name, scenes from YAML text."""

from __future__ import annotations

from rulekeeper.rulesets.dragonnoir.data import SheetData, State, shipped_sheet
from rulekeeper.rulesets.dragonnoir.fighters import Fighter
from rulekeeper.rulesets.dragonnoir.scene import Scene, scene_from_text

SHEET: SheetData = shipped_sheet()


def fighter(name: str, mounted: bool = False, state: State = "healthy", *terrains: str) -> Fighter:
    canonical, character = SHEET.character(name)
    return Fighter(canonical, character, mounted, state, terrains or ("flat",))


def scene(text: str) -> Scene:
    return scene_from_text(text, "test map", SHEET)
