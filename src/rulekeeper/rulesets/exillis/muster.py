"""Ex illis muster files: the model, reading (YAML or TOML, by extension) and writing.

A muster is a named army of one game type: units with their size and level, the heroes that
join them, an optional General and faction::

    name: Broken Wing
    game_type: Common
    faction: Broken Wing          # optional: one of the General's factions
    general: Decurion             # optional: one of the muster's heroes
    units:
      - unit: Billmen
        miniatures: 8             # optional, default the full size
        level: 3                  # optional, default 1 (as in scenario files)
        hero: Decurion            # optional: the hero joining this unit as its Retinue
        hero_level: 3             # optional, default 1
        label: Shield of Wessex   # optional: the player's own name for the entry

Only the *shape* is checked here (fields, types): a file that cannot be read raises one
:class:`DataFileError` naming the line and the field of every error. The *rules* (levels,
partial units, heroes, General, faction) are checked by :mod:`.muster_checks`, which reports
every problem instead of raising. ``load -> save -> load`` gives an identical muster.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from rulekeeper.core.armylist import ArmyList, ListedUnit
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, closest
from rulekeeper.core.yamlfiles import StrictLoader

from .muster_records import MusterDoc, MusterEntryDoc, MusterHead

__all__ = ["Muster", "MusterEntry", "load_muster", "muster_text", "save_muster"]

_CONFIG = ConfigDict(frozen=True, extra="forbid")


class MusterEntry(BaseModel):
    """One unit of the muster and the hero (if any) that joins it."""

    model_config = _CONFIG
    unit: StrictStr
    miniatures: StrictInt | None = None
    level: StrictInt = 1
    hero: StrictStr | None = None
    hero_level: StrictInt | None = None
    label: StrictStr = ""

    @model_validator(mode="after")
    def _hero_level_needs_a_hero(self) -> MusterEntry:
        if self.hero is None and self.hero_level is not None:
            raise ValueError("hero_level is given without a hero; remove it or add hero: ...")
        return self

    def to_dict(self) -> MusterEntryDoc:
        d: MusterEntryDoc = ({"unit": self.unit, "level": self.level} if self.miniatures is None
                             else {"unit": self.unit, "miniatures": self.miniatures, "level": self.level})
        if self.hero is not None:
            d["hero"] = self.hero
        if self.hero_level is not None:
            d["hero_level"] = self.hero_level
        if self.label:
            d["label"] = self.label
        return d


class Muster(BaseModel):
    """An Ex illis army list as written in a muster file.

    The file's ``general`` key reads one name or a list into :attr:`generals`, so that a file
    naming two Generals is reported as such (``one-general``) instead of as a type error;
    :attr:`general` is the (first) General or None.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    name: StrictStr
    game_type: StrictStr
    faction: StrictStr | None = None
    generals: tuple[StrictStr, ...] = Field(default=(), validation_alias=AliasChoices("general", "generals"))
    description: StrictStr = ""
    units: tuple[MusterEntry, ...] = ()

    @field_validator("generals", mode="before")
    @classmethod
    def _one_name_or_list(cls, value: object) -> object:
        """Before validation (any input): one name becomes a list of one, none an empty list."""
        return () if value is None else (value,) if isinstance(value, str) else value

    @property
    def general(self) -> str | None:
        """The General (the first one named), or None."""
        return self.generals[0] if self.generals else None

    def to_dict(self) -> MusterDoc:
        """The file's own shape, absent optional values left out (YAML and TOML alike)."""
        head: MusterHead = {"name": self.name, "game_type": self.game_type}
        if self.faction is not None:
            head["faction"] = self.faction
        if self.generals:
            head["general"] = self.generals[0] if len(self.generals) == 1 else list(self.generals)
        if self.description:
            head["description"] = self.description
        return {**head, "units": [u.to_dict() for u in self.units]}

    @classmethod
    def from_dict(cls, data: object, *, where: str = "<muster>", text: str | None = None,
                  suffix: str = ".yaml") -> Muster:
        """Build from a mapping; one :class:`DataFileError` lists every shape error.

        ``text`` (the file's source) and ``suffix`` let the errors name their line.
        """
        if not isinstance(data, dict):
            raise DataFileError(where, [f"expected a mapping with name, game_type and units at the top, "
                                        f"got {type(data).__name__}"])
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise DataFileError(where, _shape_problems(data, exc, text, suffix)) from None

    def to_army_list(self) -> ArmyList:
        """The ruleset-agnostic list (a hero without ``hero_level`` plays at level 1).

        Names stay as written (aliases are resolved by the rules). Two or more Generals go to
        ``extra["generals"]`` as well, so that the checks can report them.
        """
        units = tuple(ListedUnit(unit=e.unit, miniatures=e.miniatures, level=e.level, attached=e.hero,
                                 attached_level=1 if e.hero_level is None else e.hero_level, label=e.label)
                      for e in self.units)
        extra: dict[str, Any] = {"generals": self.generals} if len(self.generals) > 1 else {}
        if self.description:
            extra["description"] = self.description
        return ArmyList(name=self.name, ruleset="exillis", game_type=self.game_type, units=units,
                        general=self.general, faction=self.faction, extra=extra)


# -- files --------------------------------------------------------------------------------------


def load_muster(path: Path) -> Muster:
    """Read a ``.yaml`` / ``.yml`` / ``.toml`` muster; :class:`DataFileError` (line, field) if unreadable."""
    path = Path(path)
    data = read_data_file(path)
    try:
        text: str | None = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # pragma: no cover - read_data_file read it just now
        text = None
    return Muster.from_dict(data, where=str(path), text=text, suffix=path.suffix.lower())


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, but text with a Unicode line break (NEL, LS, PS) is double-quoted:
    PyYAML writes NEL raw inside single quotes, where reading folds it into something else."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if any(ch in value for ch in "\x85\u2028\u2029") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def save_muster(muster: Muster, path: Path) -> None:
    """Write ``muster`` as YAML or TOML by the extension of ``path``."""
    path = Path(path)
    path.write_text(muster_text(muster, path.suffix.lower(), where=str(path)), encoding="utf-8")


def muster_text(muster: Muster, suffix: str, where: str = "<muster>") -> str:
    """``muster`` as the text of a ``.yaml``/``.yml``/``.toml`` file (what the web builder offers)."""
    data = muster.to_dict()
    if suffix == ".toml":
        import tomli_w

        return tomli_w.dumps(data)
    if suffix in (".yaml", ".yml"):
        return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)
    raise DataFileError(where, [f"unsupported file type {suffix or '(none)'!r}: expected .yaml, .yml or .toml"])


# -- shape errors, each with its line -------------------------------------------------------------

_FIELDS = {"top": ("name", "game_type", "faction", "general", "description", "units"),
           "unit": tuple(MusterEntry.model_fields)}
_MESSAGES = {
    "missing": "required field is missing", "int_type": "expected a whole number", "string_type": "expected text",
    "tuple_type": "expected a list", "list_type": "expected a list", "model_type": "expected a mapping",
    "dict_type": "expected a mapping", "model_attributes_type": "expected a mapping",
}


def _shape_problems(data: Mapping[str, object], exc: ValidationError, text: str | None, suffix: str) -> list[str]:
    """One sentence per error, in file order: line, entry, field, what was expected, what was got."""
    problems: list[tuple[int, str]] = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        kind = err["type"]
        label, model = "", "top"
        rest = list(loc)
        if rest[:1] == ["units"] and len(rest) > 1 and isinstance(rest[1], int):
            units = data.get("units")
            item = units[rest[1]] if isinstance(units, list) and rest[1] < len(units) else None
            name = f" ({item['unit']!r})" if isinstance(item, dict) and isinstance(item.get("unit"), str) else ""
            label, model, rest = f"units {rest[1] + 1}{name}", "unit", rest[2:]
        field = ".".join(str(p + 1) if isinstance(p, int) else str(p) for p in rest)
        msg = _MESSAGES.get(kind, str(err["msg"]).removeprefix("Value error, "))
        if loc == ("general",) and kind in ("tuple_type", "list_type"):
            msg = "expected a hero's name (or a list of names)"
        if kind == "extra_forbidden":
            hint = closest(str(rest[-1]), _FIELDS[model], n=1) if rest else []
            msg = f"unknown field (expected one of {', '.join(_FIELDS[model])})"
            msg += f"; did you mean {hint[0]!r}?" if hint else ""
        elif kind not in ("missing", "value_error") and "input" in err:
            msg += f", got {err['input']!r}"
        line = _line_of(text, suffix, loc) if text is not None else None
        where = ", ".join(p for p in (f"line {line}" if line else "", label, f"field {field}" if field else "") if p)
        problems.append((line or 0, f"{where or '(top level)'}: {msg}"))
    return [sentence for _, sentence in sorted(problems, key=lambda p: p[0])]


def _line_of(text: str, suffix: str, loc: tuple[int | str, ...]) -> int | None:
    """The 1-based line of ``loc`` in the source (its parent's line for a missing field)."""
    try:
        return _yaml_line(text, loc) if suffix in (".yaml", ".yml") else _toml_line(text, loc)
    except Exception:  # a line number is a courtesy, never a new failure
        return None


def _yaml_line(text: str, loc: tuple[int | str, ...]) -> int | None:
    node: Any = yaml.compose(text, Loader=StrictLoader)
    line = None if node is None else node.start_mark.line + 1
    for part in loc:
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            pair = next(((k, v) for k, v in node.value if getattr(k, "value", None) == part), None)
            if pair is None:
                return line
            line, node = pair[0].start_mark.line + 1, pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


_HEADER = re.compile(r"^\s*\[")
_UNITS_HEADER = re.compile(r"^\s*\[\[\s*units\s*\]\]\s*(#.*)?$")


def _toml_line(text: str, loc: tuple[int | str, ...]) -> int | None:
    lines = text.splitlines()
    start, end = 0, next((i for i, s in enumerate(lines) if _HEADER.match(s)), len(lines))
    header: int | None = None
    rest = list(loc)
    if rest[:1] == ["units"] and len(rest) > 1 and isinstance(rest[1], int):
        heads = [i for i, s in enumerate(lines) if _UNITS_HEADER.match(s)]
        if rest[1] >= len(heads):
            return None
        header = heads[rest[1]]
        start = header + 1
        end = next((i for i in range(start, len(lines)) if _HEADER.match(lines[i])), len(lines))
        rest = rest[2:]
    key = next((p for p in rest if isinstance(p, str)), None)
    if key is not None:
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for i in range(start, end):
            if pattern.match(lines[i]):
                return i + 1
    return None if header is None else header + 1
