"""``rulekeeper units RULESET``: every unit and hero profile, with the provenance of each number.

Rich tables (grouped so each fits a terminal; together they show every stat) mark where a
value comes from: plain = a seed stat table, ``*`` = the seed's worked example, ``+`` =
wiki supplement, ``~`` (dim italic) = estimate, ``!`` = the player's override file.
``--json`` prints the profiles with ``{value, source, why}`` for every stat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from rulekeeper.cli.output import console, print_json
from rulekeeper.rulesets.exillis.levels import at_level as scale_to_level
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.profiles import (
    ELEMENTS,
    INTIMIDATION_GROWTH,
    STAT_GROWTH,
    Roster,
    StatValue,
    UnitProfile,
    load_profiles,
)

#: How each source is marked in the table: (suffix, Rich style, legend text).
MARKS: dict[str, tuple[str, str, str]] = {
    "seed": ("", "", "seed stat table"),
    "seed-example": ("*", "yellow", "seed worked example"),
    "wiki": ("+", "cyan", "wiki supplement"),
    "estimated": ("~", "dim italic", "estimate (reasoning: --json 'why', docs/rules/exillis-units.md)"),
    "user": ("!", "bold magenta", "your override (--data)"),
}

PERCENT_STATS = frozenset({"ret", "mrls", "mblk", "fatigue_rate", "veil_rate"})

#: Compact column headers for every stat key.
HEADERS: dict[str, str] = {
    "ini": "INI",
    "agg": "AGG",
    "bulk": "BU",
    "bulk_range": "BUr",
    "ret": "RET",
    "blk": "BLK",
    "eva": "EVA",
    "dfl": "DFL",
    "shd": "SHD",
    "armour": "AR",
    "morale": "Mor",
    "mrls": "MrlS",
    "mblk": "MBlk",
    "cost": "Cost",
    "max_level": "MaxL",
    "miniatures": "Min",
    "hp": "HP",
    "str": "STR",
    "tgh": "TGH",
    "sht": "SHT",
    "acc": "ACC",
    "racc": "RAcc",
    "macc": "MAcc",
    "mag": "MAG",
    "wpd": "WpD",
    "ap": "AP",
    "ranged_wpd": "rWpD",
    "ranged_ap": "rAP",
    "range": "Rng",
    "cp": "CP",
    "rp": "RP",
    "intimidation": "Int",
    "fatigue_rate": "FR",
    "veil_rate": "VR",
    "level": "Lvl",
}

RESIST_HEADERS: dict[str, str] = {
    "fire": "Fire",
    "lightning": "Ltng",
    "ice": "Ice",
    "earth": "Erth",
    "water": "Watr",
    "wind": "Wind",
    "light": "Lght",
    "dark": "Dark",
}

#: Table groups: (title, stat keys). Together they cover every stat key exactly once.
STAT_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Muster and turn", ("miniatures", "cost", "max_level", "level", "ini", "agg", "morale", "mrls")),
    ("Defence", ("hp", "tgh", "armour", "blk", "eva", "dfl", "shd", "ret", "mblk", "bulk", "bulk_range")),
    ("Melee and charge", ("acc", "str", "wpd", "ap", "cp", "rp", "intimidation", "fatigue_rate", "veil_rate")),
    ("Ranged and magic", ("racc", "sht", "ranged_wpd", "ranged_ap", "range", "macc", "mag")),
)

def format_value(key: str, value: float) -> str:
    """A compact rendering: fractions as percentages, whole numbers without decimals."""
    if key in PERCENT_STATS:
        return f"{value * 100:.0f}%"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


def cell(key: str, sv: StatValue) -> Text:
    """One table cell: the value, its provenance mark, styled by source."""
    suffix, style, _ = MARKS[sv.source]
    return Text(format_value(key, sv.value) + suffix, style=style)


def _name_cell(p: UnitProfile) -> Text:
    return Text(p.name + (" (H)" if p.kind == "hero" else ""), style="bold" if p.kind == "hero" else "")


def _table(title: str, headers: list[str]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left", show_edge=False)
    table.add_column("Unit", overflow="fold", min_width=10, max_width=24)
    for h in headers:
        table.add_column(h, justify="right", no_wrap=True)
    return table


def render(profiles: list[UnitProfile], title: str) -> list[Table]:
    """Every table the command prints, in order (exposed for tests and other front ends)."""
    tables: list[Table] = []
    first = _table(f"{title} · profile", ["Kind", "Move", "Armour", "Cat"])
    for p in profiles:
        first.add_row(_name_cell(p), p.kind, p.movement, p.armour_type, " ".join(p.categories))
    tables.append(first)
    for group, keys in STAT_GROUPS:
        t = _table(f"{title} · {group.lower()}", [HEADERS[k] for k in keys])
        for p in profiles:
            t.add_row(_name_cell(p), *(cell(k, p.stats[k]) for k in keys))
        tables.append(t)
    res = _table(f"{title} · elemental resistances", [RESIST_HEADERS[e] for e in ELEMENTS])
    for p in profiles:
        res.add_row(_name_cell(p), *(cell(e, p.resist[e]) for e in ELEMENTS))
    tables.append(res)
    rules = Table(
        title=f"{title} · rules and actions", box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left", show_edge=False
    )
    rules.add_column("Unit", overflow="fold", max_width=24)
    rules.add_column("Special rules / heroic power", overflow="fold")
    rules.add_column("Shots / spells", overflow="fold")
    for p in profiles:
        bits = [", ".join(p.special_rules)] if p.special_rules else []
        if p.heroic_power:
            bits.append(f"power: {p.heroic_power}")
        if p.immune:
            bits.append(f"immune: {', '.join(p.immune)}")
        special = "; ".join(bits) or "-"
        actions = ", ".join(p.shots) or "-"
        if p.spells:
            actions += f" / spells: {', '.join(p.spells)}"
        rules.add_row(_name_cell(p), special, actions)
    tables.append(rules)
    return tables


def legend() -> Text:
    text = Text("Legend: ")
    parts = []
    for _source, (suffix, style, label) in MARKS.items():
        parts.append(Text(f"{(suffix or 'plain')} = {label}", style=style))
    text.append(Text(" · ").join(parts))
    text.append("\nFractions in %. (H) = hero. BU = melee Bulk (max attacks), BUr = range/visibility Bulk.")
    return text


def _at_level(roster: Roster, level: int | None) -> tuple[list[UnitProfile], list[str]]:
    if level is None:
        return roster.all(), []
    out: list[UnitProfile] = []
    capped: list[str] = []
    for p in roster.all():
        use = min(level, p.max_level)
        if use < level:
            capped.append(f"{p.name} ({use})")
        out.append(scale_to_level(p, use, ExIllisOptions()))
    return out, capped


def units_command(as_json: bool, data: Path | None, level: int | None) -> None:
    """``rulekeeper units exillis``: every profile and stat with its provenance (raises RulekeeperError)."""
    roster = load_profiles(overrides=data)
    profiles, capped = _at_level(roster, level)
    if as_json:
        rows: list[dict[str, Any]] = [p.to_json() for p in profiles]
        print_json(rows)
        return
    if level is None:
        title = "Ex illis"
        note = "Basic values (level 1 table values)."
    else:
        title = f"Ex illis L{level}"
        note = (
            f"Level {level}: basic x {STAT_GROWTH}^{level} (Intimidation x {INTIMIDATION_GROWTH}^{level}), "
            "read literally from the seed; INI, RET, SHD, morale, Bulk, cost... unchanged."
        )
    if data is not None:
        note += f" Overrides from {data}."
    for table in render(profiles, title):
        console.print(table)
    console.print(note)
    if capped:
        console.print("Capped at their maximum level: " + ", ".join(capped) + ".")
    console.print(legend())
