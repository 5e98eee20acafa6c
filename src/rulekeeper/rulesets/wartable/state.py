"""One War Table engagement's state, and its stored document.

The state is the battle as loaded, the modifiers in force and the report once resolved; the
stored document carries the combatants' unit profiles and every modifier, so a stored battle
replays identically even if the shipped data change. Kept apart from the game protocol's
class (:mod:`.game`) so the log and the presenters can read a state without the whole game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from rulekeeper.core.errors import RulekeeperError

from .codec import (
    StoredBattle,
    StoredModifier,
    battle_from_json,
    battle_to_json,
    fields_of,
    modifier_from_json,
    modifier_to_json,
    records_of,
)
from .model import Battle, ModifierDef, SideName

if TYPE_CHECKING:
    from .report import CombatReport
    from .report_json import CombatReportJson

NAME = "wartable"


@dataclass(frozen=True)
class WarTableState:
    """One engagement: the battle as loaded, the modifiers in force, the report once resolved."""

    battle: Battle
    modifiers: tuple[ModifierDef, ...]
    report: CombatReport | None = None
    declared: bool = False  # the attackers have attacked; the defenders' answer resolves it (issue 25)
    compact: bool = False  # set up since issue 22: checkpoints in the compact form (:mod:`.checkpoint`)

    @property
    def over(self) -> bool:
        return self.report is not None

    def resolve(self) -> CombatReport:
        """The six steps and the Stability effects of the attack (pure: the state is unchanged)."""
        from .combat import resolve_battle_with

        return resolve_battle_with(self.battle, self.modifiers)

    def labels(self) -> dict[SideName, list[str]]:
        """The report's labels of each side's units (``Bloodless Horde #2``)."""
        from .combat import combatant_labels

        b = self.battle
        every = combatant_labels([*b.attackers, *b.defenders])
        return {"attackers": every[: len(b.attackers)], "defenders": every[len(b.attackers) :]}


class StoredDocument(TypedDict):
    """The stored initial document of a battle (:func:`state_document`), in this key order."""

    ruleset: str
    checkpoint: NotRequired[Literal["compact"]]  # set up since issue 22: compact checkpoints
    battle: StoredBattle
    modifiers: list[StoredModifier]


class Declared(TypedDict, total=False):
    """``declared``, set only while the defenders must answer the attack (issue 25)."""

    declared: bool


class FullCheckpoint(StoredDocument, Declared):
    """The full form of a state (views, and the checkpoints of a battle stored before issue 22): the document,
    whether it is resolved, the combat report once it is, and ``declared`` while the defenders must answer."""

    resolved: bool
    report: CombatReportJson | None


def state_document(battle: Battle, modifiers: Sequence[ModifierDef], compact: bool = False) -> StoredDocument:
    """The stored initial document of a battle: everything needed to rebuild it exactly.

    ``compact``: marked so its checkpoints take the compact form (a battle stored before has no mark)."""
    stored, mods = battle_to_json(battle), [modifier_to_json(m) for m in modifiers]
    if compact:
        return {"ruleset": NAME, "checkpoint": "compact", "battle": stored, "modifiers": mods}
    return {"ruleset": NAME, "battle": stored, "modifiers": mods}


def _state_of(document: Mapping[str, object]) -> WarTableState:
    try:
        if document.get("ruleset", NAME) != NAME:
            raise RulekeeperError(f"ruleset: expected {NAME!r}, got {document.get('ruleset')!r}")
        battle = battle_from_json(fields_of(document["battle"], "battle"))
        mods = tuple(modifier_from_json(fields_of(m, f"modifiers[{i}]"), f"modifiers[{i}]")
                     for i, m in enumerate(records_of(document["modifiers"], "modifiers")))
        mark = document.get("checkpoint")
        if mark not in (None, "compact"):
            raise RulekeeperError(f"checkpoint: expected 'compact' or nothing, got {mark!r}")
        state = WarTableState(battle, mods, compact=mark == "compact")
        state.labels()  # two units sharing a label cannot be told apart
        return state
    except RulekeeperError as exc:
        raise RulekeeperError(f"the stored War Table battle is damaged: {exc.message}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise RulekeeperError(f"the stored War Table battle is damaged: {exc!r}") from None
