"""The game master's own tables, given when a campaign starts (``battle new CAMPAIGN --data FILE``).

The seed's Delve table is lost ("determined randomly on a table such as the example provided
below:"), so the shipped ``delve_example`` is only an example: a game master brings the real
table, or their own quests and world events, as files. Each ``--data`` file is one table, read
through the core's one bounded loader (:func:`.tables.load_table`) and checked as a shipped
table is. A given table *answers to* its ``table:`` name, its file's name without suffix and
every name under its ``replaces:``; a Dungeon whose ``table:`` is one of those rolls on it
instead of the shipped or campaign-file table. The tables then live in the campaign's initial
document (:func:`.session.state_to_json`), so replay never reads the file again.

Every refusal is a :class:`DataFileError` naming the file and the place: the table's own
problems (a gap on the die, a negative weight, an unknown effect), a file that is not a table,
two files answering to one Dungeon table, or a table no Dungeon rolls on (a typo would
otherwise leave the example table in play unnoticed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulekeeper.core.errors import DataFileError

from ..data import read_mapping
from ..model import fold
from .tables import RollTable, parse_table

SUFFIXES = (".yaml", ".yml", ".toml")


@dataclass(frozen=True)
class GivenTable:
    """A table a game master gave with ``--data``: where it came from, the table, the names it answers to."""

    path: str
    table: RollTable
    answers: frozenset[str]


def dungeon_keys(ref: str) -> frozenset[str]:
    """The names a Dungeon's ``table:`` matches: itself, and a file path's name without its suffix."""
    keys = {fold(ref)}
    if ref.lower().endswith(SUFFIXES):
        keys.add(fold(Path(ref).stem))
    return frozenset(keys)


def load_given(path: Path | str) -> GivenTable:
    """One ``--data`` file as a table; a War Table unit-data file is refused with where it belongs."""
    where = str(path)
    raw = read_mapping(path)
    if "table" not in raw and ("units" in raw or "modifiers" in raw):
        raise DataFileError(where, ["(top level): this is War Table unit data (units/modifiers); a campaign's "
                                    "--data takes tables (table:, dice:, entries:); unit data files go in the "
                                    "campaign file's data: list"])
    table = parse_table(raw, where)
    replaces = raw.get("replaces") or []  # a list of names: the table's schema checked it
    replaces = replaces if isinstance(replaces, list) else []
    answers = {fold(table.name), fold(Path(where).stem), *(fold(str(r)) for r in replaces)}
    return GivenTable(where, table, frozenset(answers))


def load_all(paths: Iterable[Path | str]) -> tuple[GivenTable, ...]:
    """Every ``--data`` file, in the order given; the first bad file's problems are the error."""
    return tuple(load_given(p) for p in paths)


def answering(given: Sequence[GivenTable], ref: str) -> list[GivenTable]:
    """The given tables that answer to a Dungeon's ``table:`` reference."""
    keys = dungeon_keys(ref)
    return [g for g in given if g.answers & keys]


def match_given(given: Sequence[GivenTable], refs: Sequence[str], campaign: str) -> dict[str, RollTable]:
    """Each Dungeon table reference answered by a given table → that table.

    Refused (naming the file): two files answering to one reference, and a file no Dungeon of the
    campaign rolls on.
    """
    matched: dict[str, RollTable] = {}
    used: set[str] = set()
    for ref in dict.fromkeys(refs):
        hits = answering(given, ref)
        if len(hits) > 1:
            raise DataFileError(hits[1].path, [
                f"table: {hits[1].table.name!r} answers to the Dungeon table {ref!r}, as {hits[0].path} "
                f"({hits[0].table.name!r}) already does: give one table per Dungeon table"])
        if hits:
            matched[ref] = hits[0].table
            used.add(hits[0].path)
    for g in given:
        if g.path not in used:
            rolled = ", ".join(repr(r) for r in dict.fromkeys(refs)) or "none (the campaign has no Dungeon)"
            raise DataFileError(g.path, [
                f"table: no Dungeon of {campaign!r} rolls on {g.table.name!r} (its Dungeons roll on: {rolled}); "
                f"name it in a Dungeon's table:, or list the table it stands in for under replaces:"])
    return matched
