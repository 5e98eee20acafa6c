"""The picked unit: which unit the page shows the actions and map overlay of, and its actions grouped.

Listing every legal action of every unit made a page several screens tall. A player thinks one
unit at a time: they tap its counter (``?unit=``, the keeper's unit-panel link) or its name in the
short list of the units that can act, and see that unit's actions only. Actions are grouped from
the protocol's fields alone (an action's ``unit``, its ``group`` heading, its ``label`` and
``note``), so an action kind the rules add later (rally, pursuit) shows up without this module
knowing its name. Actions without a ``unit`` (ending the turn) are always shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekeeper.core.game import LegalAction, OddsPreview
from rulekeeper.core.present import Links

from ..state import BattleState

#: A hex label at the end of a button's label ("→ D3"): its column letters and row number.
HEX_AT_END = re.compile(r"\b([A-Z]{1,2})(\d{1,3})$")
#: A group with more entries than this is drawn compact (labels only).
COMPACT = 6


@dataclass(frozen=True)
class Entry:
    """One action as a button: its index in the legal list (the keeper's ``?pick=``) and its link."""

    index: int
    kind: str
    label: str
    note: str
    odds: str
    href: str


@dataclass(frozen=True)
class Group:
    """The actions under one heading ("Ford Pikes: move"); a note every entry shares is printed once.

    A ``compact`` group (more than :data:`COMPACT` entries: a unit's moves, an artillery's barrage
    hexes) shows its buttons as bare labels, their odds and notes in the tooltip: the map shows
    the same choices, and the preview of the one picked shows its odds in full.
    """

    title: str
    note: str
    entries: tuple[Entry, ...]
    compact: bool = False


def unit_of(lg: LegalAction) -> str | None:
    unit = lg.action.get("unit")
    return None if unit is None else str(unit)


def acting_units(legal: list[LegalAction]) -> list[str]:
    """The units with at least one legal action, in the order the rules list them."""
    out: list[str] = []
    for lg in legal:
        unit = unit_of(lg)
        if unit is not None and unit not in out:
            out.append(unit)
    return out


def default_unit(state: BattleState, acting: list[str]) -> str | None:
    """The unit shown when none is picked: one already busy this turn (it moved or attacked and may go
    on, e.g. attack after its move), else the first unit that can act."""
    for name in acting:
        p = state.piece(name)
        if p.spent or p.attacked:
            return name
    return acting[0] if acting else None


def chosen(state: BattleState, links: Links, acting: list[str]) -> str | None:
    """The unit the page focuses on: the one picked (``?unit=``) when it exists, else the default
    (for the side to act only: the other side and spectators see a plain map until they pick)."""
    picked = links.selected
    if picked and any(p.name == picked for p in state.units):
        return picked
    return default_unit(state, acting)


def pick_href(links: Links, index: int, unit: str | None) -> str:
    """The keeper's pick link (preview of action ``index``), keeping the picked unit on the page."""
    if unit is None:
        return links.pick(index)
    return links.page("panel", pick=index, at=links.position, unit=unit)


def odds_text(preview: OddsPreview) -> str:
    return preview.line()


def groups_of(legal: list[LegalAction], previews: list[OddsPreview], links: Links,
              unit: str | None) -> list[Group]:
    """The picked unit's actions and the unit-less ones, under their ``group`` headings, in the rules' order."""
    found: dict[str, list[Entry]] = {}
    for i, (lg, p) in enumerate(zip(legal, previews, strict=True)):
        owner = unit_of(lg)
        if owner is not None and owner != unit:
            continue
        entry = Entry(i, str(lg.action.get("kind", "")), lg.label or lg.text, lg.note, odds_text(p),
                      pick_href(links, i, unit))
        found.setdefault(lg.group or "", []).append(entry)
    out = []
    for title, entries in found.items():
        notes = {e.note for e in entries}
        shared = notes.pop() if len(notes) == 1 and len(entries) > 1 else ""
        if shared:
            entries = [Entry(e.index, e.kind, e.label, "", e.odds, e.href) for e in entries]
        compact = len(entries) > COMPACT
        out.append(Group(title, shared, tuple(in_map_order(entries) if compact else entries), compact))
    return out


def _hex_key(label: str) -> tuple[int, str] | None:
    m = HEX_AT_END.search(label)
    return None if m is None else (int(m.group(2)), m.group(1))


def in_map_order(entries: list[Entry]) -> list[Entry]:
    """A compact group of hexes in reading order (row by row, then column), as the map and the moves are.

    Why: the rules list a barrage's hexes ring by ring from the guns ("→ F5, → G5, → H5, → H4…"),
    so a player looking for D3 among forty buttons had to read them all. Entries whose label names
    no hex keep the rules' order.
    """
    keys = [_hex_key(e.label) for e in entries]
    if any(k is None for k in keys):
        return entries
    order = sorted(range(len(entries)), key=lambda i: keys[i] or (0, ""))
    return [entries[i] for i in order]
