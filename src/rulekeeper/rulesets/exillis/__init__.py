"""Ex illis (seed 000_5e8e85320d1136c5.txt): weighted random draws, AR 2.5, fatigue curves.

The flagship ruleset. Combat mathematics live in small modules named after the
rulebook's own sections: :mod:`.asymptotic` (AR 2.5), :mod:`.fatigue`, :mod:`.melee`,
:mod:`.ranged`, :mod:`.spells`, :mod:`.morale`, :mod:`.damage`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulekeeper.core.chance import Fate
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .game import ExIllisBattles
from .options import ExIllisOptions, option_infos


class ExIllis(ExIllisBattles):
    """The Ex illis rule keeper: the calculator here, whole battles in :class:`.game.ExIllisBattles`."""

    name: ClassVar[str] = "exillis"
    aliases: ClassVar[tuple[str, ...]] = ("ex illis", "ex-illis", "ei")
    title: ClassVar[str] = "Ex illis"
    deterministic: ClassVar[bool] = False
    #: draws whose preview the conformance test must have compared with the roll (never vacuous)
    previewed_draws: ClassVar[tuple[str, ...]] = ("charge reaction", "target assignment", "roll to hit", "where the shot falls")
    #: Battles can start from two army lists, which Ex illis calls musters.
    army_list_noun: ClassVar[str] = "muster"

    def __init__(self, options: ExIllisOptions | None = None) -> None:
        self.opts = options or ExIllisOptions()

    def options(self) -> list[OptionInfo]:
        return option_infos()

    def roster(self) -> list[dict[str, Any]]:
        from .profiles import load_profiles

        return [p.to_json() for p in load_profiles()]

    def sample_resolution(self, fate: Fate) -> Resolution:
        """A round of Billmen fighting Franc Chevalers, every draw through ``fate``."""
        from .melee import MeleeContext, resolve_round
        from .setup import UnitSpec, build, load_tables

        tables = load_tables()
        taken: set[str] = set()
        zone = (
            build(tables, UnitSpec("Billmen"), "A", taken, options=self.opts),
            build(tables, UnitSpec("Franc Chevalers"), "B", taken, options=self.opts),
            build(tables, UnitSpec("Vileins"), "B", taken, options=self.opts),
        )
        ctx = MeleeContext(tables.rules, self.opts)
        report = resolve_round(zone, "Billmen", ctx, fate)
        return Resolution(self.name, "melee", report.to_dict(), fate.record_dicts())
