"""Ex illis musters for the browser: the roster a muster may hold, its price and its file text.

It implements :class:`rulekeeper.core.armies.ArmyBuilder` over the code ``rulekeeper muster check``
runs — the same profiles and muster data (:func:`load_profiles`, :func:`load_musters_data`), the same
:class:`~rulekeeper.rulesets.exillis.pricing.ExIllisArmyRules` report, the same file model
(:class:`~rulekeeper.rulesets.exillis.muster.Muster`) — so a muster priced in the browser costs
exactly what the command line says, problem for problem. Nothing is priced here; this module only
translates between the game's report and the protocol's plain data.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.armies import ArmyType, Catalog, PricedArmy, PricedEntry, RosterUnit, ShapePart
from rulekeeper.core.armylist import ArmyList
from rulekeeper.core.errors import DataFileError
from rulekeeper.core.game import ArmySource

from ..muster import Muster, muster_text
from ..muster_checks import LONER, army_generals
from ..musters_data import MustersData, load_musters_data
from ..pricing import ExIllisArmyRules, MusterReport
from ..profiles import Roster, load_profiles
from ..scenario_terms import minimum_miniatures

__all__ = ["FORMATS", "ExIllisArmyBuilder", "army_document"]

#: The text formats a muster is written in (the file suffixes ``muster check`` reads).
FORMATS = ("yaml", "toml")


def army_document(army: ArmyList) -> dict[str, Any]:
    """The muster file's mapping for ``army`` (the inverse of :meth:`Muster.to_army_list`)."""
    doc: dict[str, Any] = {"name": army.name, "game_type": army.game_type}
    if army.faction is not None:
        doc["faction"] = army.faction
    generals = army_generals(army)
    if generals:
        doc["general"] = generals[0] if len(generals) == 1 else list(generals)
    description = army.extra.get("description")
    if isinstance(description, str) and description:
        doc["description"] = description
    doc["units"] = [u.to_dict() for u in army.units]
    return doc


class ExIllisArmyBuilder:
    """Ex illis musters as the protocol's :class:`~rulekeeper.core.armies.ArmyBuilder`."""

    noun = "muster"

    def __init__(self, roster: Roster | None = None, data: MustersData | None = None) -> None:
        # the command line's own sources (both parsed once per process)
        self.roster = load_profiles() if roster is None else roster
        self.data = load_musters_data() if data is None else data
        self.rules = ExIllisArmyRules(self.roster, self.data)

    def catalog(self) -> Catalog:
        types = tuple(ArmyType(g.name, g.min_level, g.max_level, g.earns_bp, g.label) for g in self.data.game_types)
        units = []
        for p in self.roster:
            kind = "loner" if p.kind == "hero" and LONER in p.special_rules else p.kind
            units.append(RosterUnit(p.name, kind, p.miniatures, minimum_miniatures(p.miniatures), p.max_level,
                                    float(p.stat("cost")), tuple(p.categories), self.data.hero_factions(p.name)))
        return Catalog(self.noun, types, tuple(units), tuple(self.data.factions), FORMATS, "Battle Points")

    def price(self, army: ArmyList) -> PricedArmy:
        """The report ``muster check`` prints, as the protocol's data (``document`` is its ``--json``)."""
        return _priced(army, self.rules.report(army))

    def read(self, text: str, where: str) -> ArmyList:
        """Pasted muster text (YAML or TOML, bounded by the core's data-file limits)."""
        from ..game import muster_from_source

        return muster_from_source(ArmySource(where, text)).to_army_list()

    def write(self, army: ArmyList, fmt: str) -> str:
        if fmt not in FORMATS:
            raise DataFileError("muster", [f"unknown format {fmt[:20]!r}: expected one of {', '.join(FORMATS)}"])
        muster = Muster.from_dict(army_document(army), where="the muster built in the browser")
        return muster_text(muster, f".{fmt}")


def _priced(army: ArmyList, report: MusterReport) -> PricedArmy:
    lines = tuple(PricedEntry(pl.line, pl.role, pl.level, pl.miniatures, pl.full, pl.categories, pl.penalised)
                  for pl in report.lines)
    shape = tuple(ShapePart(s.category, s.name, s.points, s.share, s.first, s.second, s.state) for s in report.shape)
    label = report.game.label if report.game is not None else f"{report.game_type} (unknown game type)"
    return PricedArmy(
        army=army, lines=lines, shape=shape, total=report.total, basic_total=report.basic_total,
        size=report.units_and_heroes, points_brought=report.battle_points if report.earns_bp else 0,
        earns_points=report.earns_bp, type_label=label, faction=report.faction, generals=report.generals,
        problems=report.problems, notes=report.notes, document=dict(report.to_dict()))
