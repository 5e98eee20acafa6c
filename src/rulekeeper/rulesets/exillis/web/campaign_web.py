"""The Ex illis campaign for the browser: record a finished battle from musters, read a record back.

It implements :class:`rulekeeper.core.armies.CampaignBook` by calling what ``rulekeeper campaign
record`` calls — :func:`~rulekeeper.rulesets.exillis.campaign_service.record_battle` on the battles'
database, one transaction, refused when the battle is not over, not from musters or already
recorded — and turns the summary it stores (the same JSON ``campaign record --json`` prints) into
the protocol's plain report. No rule is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rulekeeper.core.armies import (
    BattleSource,
    CampaignPlayerLine,
    CampaignReport,
    CampaignSide,
    CampaignUnitLine,
)
from rulekeeper.persistence.campaign import CampaignStore
from rulekeeper.service.battles import BattleService

from ..campaign_records import UnitAdvance
from ..campaign_service import NotFromMustersError, record_battle, sides_from_meta

__all__ = ["ExIllisCampaignBook", "report_from_summary"]


class ExIllisCampaignBook:
    """Battle Points and levels, kept in the battles' own database (``rk_campaign_*`` tables)."""

    points_name = "Battle Points"

    def recordable(self, meta: Mapping[str, object]) -> str | None:
        try:
            sides_from_meta(meta, "this battle")
        except NotFromMustersError as exc:
            return exc.message
        return None

    def recorded(self, db: str | None, battle_id: str) -> CampaignReport | None:
        with CampaignStore(db) as store:
            found = store.recorded(battle_id)
        return None if found is None else report_from_summary(found.summary, found.recorded)

    def record(self, battles: BattleSource, db: str | None, battle_id: str,
               players: Mapping[str, str]) -> CampaignReport:
        # the keeper's service is the command line's BattleService: record exactly as `campaign record` does
        with CampaignStore(db) as store:
            rec = record_battle(cast(BattleService, battles), store, battle_id, players)
            found = store.recorded(battle_id)
        return report_from_summary(rec.summary, "" if found is None else found.recorded)


def _unit(side: str, u: UnitAdvance) -> CampaignUnitLine:
    to_next = u.get("bp_to_next")
    return CampaignUnitLine(
        side=side, muster=str(u["muster"]), unit=str(u["unit"]), kind=str(u["kind"]), status=str(u.get("status", "")),
        level_before=int(u["level_before"]), level=int(u["level"]), points_received=int(u["bp_received"]),
        points=int(u["bp"]), to_next=None if to_next is None else int(to_next),
        skill_points=int(u.get("skill_points_gained", 0)), label=str(u.get("label") or ""),
        named=bool(u.get("named", False)))


def report_from_summary(summary: Mapping[str, Any], recorded: str = "") -> CampaignReport:
    """The protocol's report from the summary ``record_battle`` stores with a recorded battle."""
    sides: list[CampaignSide] = []
    units: list[CampaignUnitLine] = []
    for side, army in dict(summary.get("sides") or {}).items():
        sides.append(CampaignSide(str(side), str(army["muster"]), str(army["player"]), int(army["army_size"]),
                                  int(army["army_bp"]), int(army["points"]), int(army["basic_points"])))
        units.extend(_unit(str(side), u) for u in army["units"])
    players = tuple(
        CampaignPlayerLine(str(p["player"]), tuple(p["sides"]), int(p["level_before"]), int(p["level"]),
                           int(p["renown_gained"]), int(p["renown"]),
                           None if p.get("bp_to_next") is None else int(p["bp_to_next"]))
        for p in summary.get("players") or [])
    winner = summary.get("winner_army") or summary.get("winner")
    return CampaignReport(str(summary.get("battle", "")), int(summary.get("battle_points", 0)),
                          str(summary.get("note") or ""), tuple(sides), tuple(units), players, recorded,
                          None if winner is None else str(winner), dict(summary))
