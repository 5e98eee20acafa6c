"""Dragon Noir 1: L'Exil (Duccio Vitale, Eurogames 1990): a character-level hex skirmish.

The calculator: the game sheet's tables as editable data (:mod:`.data`), combat odds
(:mod:`.combat`), movement costs and the mount/dismount conversion (:mod:`.movement`), the line of
fire (:mod:`.fire`) and fire odds (:mod:`.fireodds`). Whole battles on the game protocol: the
battle half of the class (:class:`.game.DragonNoirBattles`: state, the four-step player turn,
scenarios, policy, the terminal map and the web keeper's SVG map). See ``docs/rules/dragonnoir.md``
for every rules decision and estimate.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulekeeper.core.chance import Fate
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .game import DragonNoirBattles

OPTION_INFO = (
    OptionInfo("dwarves", "instead", ("instead", "plus"),
               "Dwarves attacking together: one column per dwarf in place of the one column for attacking "
               "together (instead), or on top of it (plus)."),
    OptionInfo("errare", "off", ("off", "on"),
               "The optional rule 'Errare humanum est': a missed shot may wound a character around the target."),
    OptionInfo("dragon_horsemen", "stop", ("stop", "push"),
               "A horseman in the Black Dragon's way: he stops its step (stop, the keeper's former reading), or, as "
               "the seed says 'It can therefore never be blocked', he is pushed aside whole (push)."),
    OptionInfo("crossing", "refused", ("refused", "friends"),
               "Friendly characters in the way: never crossed (refused, the keeper's former reading), or, as the seed "
               "says 'Crossing hexes containing friendly characters ... poses no problem', passed over on foot when "
               "nothing can stop the mover on the friend's hex (friends)."),
    OptionInfo("advance_infiltration", "off", ("off", "on"),
               "The advance after combat and the infiltration of enemy lines: no roll (off, the keeper's former "
               "reading), or, as the seed says 'the advance after combat must take into account the stacking and "
               "infiltration of enemy lines rules', a roll on leaving a hex next to an enemy not engaged (on)."),
)


class DragonNoir(DragonNoirBattles):
    """Dragon Noir: the calculator (combat and fire odds, movement arithmetic) and whole battles."""

    name: ClassVar[str] = "dragonnoir"
    aliases: ClassVar[tuple[str, ...]] = ("dragon noir", "dragon-noir", "dn", "l'exil")
    title: ClassVar[str] = "Dragon Noir 1: L'Exil"
    deterministic: ClassVar[bool] = False

    def options(self) -> list[OptionInfo]:
        return list(OPTION_INFO)

    def roster(self) -> list[dict[str, Any]]:
        """Every character's counters, each side as attack/movement/defence, and where the numbers come from."""
        from .roster import roster

        return roster()

    def register_cli(self, hooks: Any) -> None:
        """``odds dragonnoir combat|fire``, ``resolve dragonnoir combat|fire`` and ``units dragonnoir``."""
        from .cli import register

        register(hooks)

    def sample_resolution(self, fate: Fate) -> Resolution:
        """Grast and Thrug attack Crazy Ork together on flat ground; one d10 through ``fate``."""
        from .combat import combat_odds, resolve_combat
        from .data import shipped_sheet
        from .fighters import Fighter

        sheet = shipped_sheet()
        fighters = [Fighter(*sheet.character(n)) for n in ("Grast", "Thrug", "Crazy Ork")]
        odds = combat_odds(sheet, fighters[:2], fighters[2:])
        roll = resolve_combat(fate, odds)
        summary = {**odds.to_dict(), "die": roll.die, "result": roll.letter, "meaning": roll.meaning}
        return Resolution(ruleset=self.name, kind="combat", summary=summary, chance=fate.record_dicts())
