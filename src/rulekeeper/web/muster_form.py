"""The muster builder's form: read it within bounds, and turn it into a neutral army list and back.

Why apart from the routes: the form is the builder's only input and it is hostile by default —
every field, row and number is bounded here, the body is decoded as strict UTF-8, and nothing the
player typed is ever evaluated; a pasted file goes through the game's bounded reader
(``core/datafiles``). The list itself is the core's :class:`~rulekeeper.core.armylist.ArmyList`, so
this module knows no game.

Fields: ``name``, ``game_type``, ``faction``, ``general``, ``description``; one row per entry,
numbered from 0: ``unit_N``, ``miniatures_N``, ``level_N``, ``hero_N``, ``hero_level_N``,
``label_N`` (a row without a unit is dropped); ``paste`` (a file to load); ``side_a`` and
``side_b`` (the texts chosen for a battle, carried from page to page since nothing is stored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from fastapi import Request

from rulekeeper.core.armylist import ArmyList, ListedUnit

from .page_forms import MAX_FIELD, MAX_MUSTER, PageRequestError
from .refusals import TooLargeError

#: The most entries a muster may have in the builder (a Cataclysmic army is far smaller).
MAX_ROWS = 40
ROW_FIELDS = ("unit", "miniatures", "level", "hero", "hero_level", "label")
#: Fields that may hold a whole muster file.
TEXT_FIELDS = ("paste", "side_a", "side_b")
#: A muster's free description (the shipped ones run to a paragraph).
MAX_DESCRIPTION = 2_000
MAX_BODY = 3 * MAX_MUSTER + MAX_ROWS * len(ROW_FIELDS) * 80 + 3 * MAX_DESCRIPTION
#: Whole numbers typed in the form: far beyond any level or size, far below any overflow.
MAX_NUMBER = 100_000
BLANK_ROWS = 3


async def read_builder_form(request: Request) -> dict[str, str]:
    """The urlencoded form, first value per field: bounded in size, fields and length; strict UTF-8."""
    ctype = request.headers.get("content-type", "")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise TooLargeError(f"the form is larger than {MAX_BODY:,} bytes")
    if body and not ctype.startswith("application/x-www-form-urlencoded"):
        raise PageRequestError("expected a form (application/x-www-form-urlencoded)")
    try:
        raw = parse_qs(body.decode("utf-8"), keep_blank_values=True, errors="strict",
                       max_num_fields=MAX_ROWS * len(ROW_FIELDS) + 30)
    except (UnicodeDecodeError, ValueError):
        raise PageRequestError("the form could not be read (not UTF-8, or too many fields)") from None
    out = {k[:60]: v[0] for k, v in raw.items() if v}
    for key, value in out.items():
        limit = MAX_MUSTER if key in TEXT_FIELDS else MAX_DESCRIPTION if key == "description" else MAX_FIELD
        if len(value) > limit:
            raise TooLargeError(f"field {key[:40]!r} is longer than {limit:,} characters")
    return out


def _number(value: str, what: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    try:
        n = int(value)
    except ValueError:
        raise PageRequestError(f"{what} must be a whole number, not {value[:20]!r}") from None
    if abs(n) > MAX_NUMBER:
        raise PageRequestError(f"{what} must be between {-MAX_NUMBER:,} and {MAX_NUMBER:,}")
    return n


@dataclass
class BuilderForm:
    """The form as typed: the header fields and the rows, all text, for drawing it again."""

    head: dict[str, str] = field(default_factory=dict)
    rows: list[dict[str, str]] = field(default_factory=list)

    def with_blank_rows(self, blank: int = 1) -> list[dict[str, str]]:
        """The rows to draw: every entry, then ``blank`` empty rows to add units (within the bound)."""
        spare = max(0, min(blank, MAX_ROWS - len(self.rows)))
        return self.rows + [dict.fromkeys(ROW_FIELDS, "") for _ in range(spare)]


def form_of(data: dict[str, str]) -> BuilderForm:
    """The header fields and the non-empty rows, in row order (gaps closed)."""
    head = {k: data.get(k, "").strip() for k in ("name", "game_type", "faction", "general", "description")}
    rows = []
    for i in range(MAX_ROWS):
        row = {f: data.get(f"{f}_{i}", "").strip() for f in ROW_FIELDS}
        if row["unit"]:
            rows.append(row)
    return BuilderForm(head, rows)


def army_of(form: BuilderForm, ruleset: str) -> ArmyList:
    """The neutral list the form describes; a malformed number is a 422 naming its row."""
    units = []
    for n, row in enumerate(form.rows, 1):
        level = _number(row["level"], f"entry {n}: level")
        hero_level = _number(row["hero_level"], f"entry {n}: hero level")
        units.append(ListedUnit(unit=row["unit"], miniatures=_number(row["miniatures"], f"entry {n}: miniatures"),
                                level=1 if level is None else level, attached=row["hero"] or None,
                                attached_level=1 if hero_level is None else hero_level, label=row["label"]))
    head = form.head
    extra: dict[str, Any] = {"description": head["description"]} if head["description"] else {}
    return ArmyList(name=head["name"], ruleset=ruleset, game_type=head["game_type"], units=tuple(units),
                    general=head["general"] or None, faction=head["faction"] or None, extra=extra)


def form_from_army(army: ArmyList) -> BuilderForm:
    """The form showing ``army`` (a pasted file loaded into the builder)."""
    description = army.extra.get("description")
    head = {"name": army.name, "game_type": army.game_type, "faction": army.faction or "",
            "general": army.general or "", "description": description if isinstance(description, str) else ""}
    rows = [{"unit": u.unit, "miniatures": "" if u.miniatures is None else str(u.miniatures), "level": str(u.level),
             "hero": u.attached or "", "hero_level": str(u.attached_level) if u.attached else "", "label": u.label}
            for u in army.units[:MAX_ROWS]]
    return BuilderForm(head, rows)
