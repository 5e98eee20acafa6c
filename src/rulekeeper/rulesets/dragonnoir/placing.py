"""Where a piece goes when the rules move it: the owning player's choice among the legal hexes.

"the appropriate counter - horseman stunned, wounded or dead - is placed by the player to whom he belongs on one of
the hexes adjacent to his horse"; a retreat and the dragon's push ("the dragon pushes aside any other character in
its path") are the owner's to place too (issue 24, point 5). The keeper puts the piece at once on a proposed hex
(the default, the one autoplay keeps) so that the rest of the action resolves; then, before anything else, the
owner answers a ``place`` decision: the same hex or another of the legal ones (each still free). A choice exists only
when there are two legal hexes or more.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypedDict

from rulekeeper.core.game import LegalAction

from .action_types import ToHex, offered
from .report import Lines
from .state import DNState


class PlaceJson(TypedDict):
    """A piece to place, as a stored state keeps it."""

    unit: str
    side: str
    why: str
    spots: list[list[str]]


@dataclass(frozen=True)
class Place:
    """``unit`` of ``side`` ``why`` ("retreats", "is unhorsed", "is pushed aside"); ``spots`` the legal hexes (a
    horseman's two), the keeper's proposal first."""

    unit: str
    side: str
    why: str
    spots: tuple[tuple[str, ...], ...]

    def to_json(self) -> PlaceJson:
        return {"unit": self.unit, "side": self.side, "why": self.why, "spots": [list(s) for s in self.spots]}

    @classmethod
    def from_json(cls, d: PlaceJson) -> Place:
        return cls(str(d["unit"]), str(d["side"]), str(d["why"]), tuple(tuple(map(str, s)) for s in d["spots"]))


def offer(state: DNState, unit: str, why: str, spots: list[tuple[str, ...]]) -> DNState:
    """Queue the owner's choice when there is one (the piece already stands on ``spots[0]``)."""
    spots = list(dict.fromkeys(spots))
    if len(spots) < 2:
        return state
    m = state.man(unit)
    return replace(state, placing=(*state.placing, Place(unit, m.side, why, tuple(spots))))


def _free(state: DNState, unit: str, spot: tuple[str, ...]) -> bool:
    return all(o.name == unit or not o.alive for h in spot for o in state.on(h))


def place_actions(state: DNState) -> list[LegalAction]:
    p = state.placing[0]
    m = state.man(p.unit)
    out = []
    for i, spot in enumerate(p.spots):
        if not _free(state, p.unit, spot) and spot != m.hexes:
            continue
        default = i == 0
        out.append(offered(ToHex("place", p.side, p.unit, spot[0]),
                           f"{p.unit} {p.why} to {'-'.join(spot)}" + (" (the keeper's proposal)" if default else ""),
                           None, "proposed" if default else "", f"→ {'-'.join(spot)}", f"{p.unit}: {p.why}"))
    return out


def place(state: DNState, unit: str, to: str) -> tuple[DNState, Lines]:
    p = state.placing[0]
    spot = next(s for s in p.spots if s[0] == to)
    m = state.man(unit)
    state = replace(state, placing=state.placing[1:])
    if spot == m.hexes:
        return state, [{"text": f"{unit} stays on {'-'.join(spot)}", "kind": "note"}]
    return state.with_men(replace(m, hexes=spot)), [
        {"text": f"{unit} {p.why}: {'-'.join(m.hexes)} → {'-'.join(spot)} (his player's choice)", "kind": "retreat"}]
