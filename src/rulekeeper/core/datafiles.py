"""Reading YAML and TOML data files, boundedly, with errors that name the file and the line.

Every data file of every ruleset (unit profiles, actions, scenarios, musters), pasted or
read from disk, goes through :func:`read_data_file` or :func:`parse_data_text`, so all of
them refuse duplicate keys (a silently lost unit or stat), report syntax errors the same way,
and stay within :class:`Limits`: a hostile file (an alias bomb of a few hundred bytes, a
thousand nested brackets, a 5000-digit number) gets a short typed error in bounded time and
memory instead of a traceback or an exhausted machine.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from . import parsed_cache
from .errors import DataFileError
from .limits import EXPORT_LIMITS, LIMITS, Limits
from .wording import counted, noun_for

if TYPE_CHECKING:
    from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound="BaseModel")
T = TypeVar("T")

#: Control characters a text may not hold (all of C0 and C1 but tab, newline and carriage return):
#: an ESC in a unit's name would otherwise reach the player's terminal as a colour, a cleared
#: screen or a new window title when ``muster check`` prints it.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """The first control character of ``text`` as ``U+001B``, or ``None`` when it has none."""
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def check_tree(data: T, where: str, limits: Limits = LIMITS) -> T:
    """Refuse parsed data deeper, larger or with longer numbers or texts than ``limits``
    (for TOML and JSON, whose parsers have no such limits of their own); ``data`` itself is handed back."""
    stack: list[tuple[object, int]] = [(data, 0)]
    count = 0
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > limits.nodes:
            raise DataFileError(where, [f"more than {limits.nodes:,} {noun_for(limits.nodes, 'value')}"])
        if isinstance(item, dict):
            if depth >= limits.depth:
                raise DataFileError(where, [f"nested deeper than {counted(limits.depth, 'level')}"])
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            if depth >= limits.depth:
                raise DataFileError(where, [f"nested deeper than {counted(limits.depth, 'level')}"])
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**limits.digits:
            raise DataFileError(where, [f"a number longer than {counted(limits.digits, 'digit')}"])
        elif isinstance(item, str) and len(item) > limits.text:
            raise DataFileError(where, [f"a text longer than {limits.text:,} {noun_for(limits.text, 'character')}"])
        elif isinstance(item, str) and (control := control_character(item)) is not None:
            raise DataFileError(where, [f"a text holding the control character {control}: {item[:40]!r}"])
    return data


def parse_data_text(text: str, where: str, suffix: str) -> object:
    """Parse a document given as text (a file read, or pasted into the web keeper).

    ``suffix`` picks the format (``.toml``, ``.yaml``/``.yml``, ``.json``); an empty one
    tries TOML, then YAML. Every problem is one :class:`DataFileError` naming ``where``.
    """
    if len(text) > LIMITS.file_bytes:
        raise DataFileError(where, [f"larger than {LIMITS.file_bytes:,} bytes"])
    suffix = suffix or pasted_format(text)
    if suffix == ".toml":
        return _parse_toml(text, where)
    if suffix in (".yaml", ".yml"):
        return _parse_yaml(text, where)
    if suffix == ".json":
        return _parse_json(text, where)
    raise DataFileError(where, [f"unsupported file type {suffix!r}: expected .yaml, .yml or .toml"])


def pasted_format(text: str) -> str:
    """The format of a document pasted without a file name: TOML if it reads as TOML, else YAML."""
    import tomllib  # here and in _parse_toml: a command reading only YAML never imports it

    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return ".yaml"
    return ".toml"


#: A ``key = value`` line with a bare (or dotted bare) key: at least a key and a value in the parsed tree.
_TOML_PAIR = re.compile(r"^[ \t]*[A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*[ \t]*=", re.M)
#: A line opening with ``[``: a table header, or an array inside a multi-line array: at least one value.
_TOML_OPEN = re.compile(r"^[ \t]*\[", re.M)


def toml_values_at_least(text: str) -> int:
    """A lower bound of the values (keys included) ``text`` parses to, found without parsing it.

    Why: tomllib reads a file of 250,000 tables (6.7 MB, within the size limit) in about 3 s of CPU
    before :func:`check_tree` can refuse it for its values; counting its lines refuses it at once. Only
    lines that must be keys, tables or values are counted, and a text holding a multi-line string
    (where any line may be text) counts 0, so a file this refuses has at least this many values.
    """
    if '"""' in text or "'''" in text:
        return 0
    return 2 * len(_TOML_PAIR.findall(text)) + len(_TOML_OPEN.findall(text))


def _parse_toml(text: str, where: str) -> object:
    import tomllib

    if toml_values_at_least(text) > LIMITS.nodes:  # the refusal check_tree would give, before the parse
        raise DataFileError(where, [f"more than {LIMITS.nodes:,} values"])
    try:
        return check_tree(tomllib.loads(text), where)
    except DataFileError:  # check_tree's own refusal (a ValueError too): already names where
        raise
    except tomllib.TOMLDecodeError as exc:  # its message ends "(at line L, column C)"
        raise DataFileError(where, [f"TOML syntax error: {exc}"]) from None
    except (RecursionError, ValueError) as exc:  # deep nesting, a number Python will not convert
        raise DataFileError(where, [f"TOML the reader refuses ({type(exc).__name__}: {str(exc)[:200]})"]) from None


def _parse_json(text: str, where: str, limits: Limits = LIMITS) -> object:
    import json

    try:
        return check_tree(json.loads(text), where, limits)
    except DataFileError:
        raise
    except json.JSONDecodeError as exc:
        raise DataFileError(where, [f"not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"]) from None
    except (RecursionError, ValueError) as exc:
        raise DataFileError(where, [f"JSON the reader refuses ({type(exc).__name__}: {str(exc)[:200]})"]) from None


def _parse_yaml(text: str, where: str) -> object:
    import yaml

    from .yamlfiles import LimitError, load_yaml

    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        what = ("YAML beyond the reader's limits" if isinstance(exc, LimitError)
                else "YAML error" if isinstance(exc, yaml.constructor.ConstructorError) else "YAML syntax error")
        raise DataFileError(where, [f"{what}{at}: {str(problem)[:300]}"]) from None
    except (RecursionError, ValueError, TypeError) as exc:  # e.g. `? [a, b]: 1` (an unhashable key)
        raise DataFileError(where, [f"YAML the reader refuses ({type(exc).__name__}: {str(exc)[:200]})"]) from None
    return {} if data is None else data


def read_data_file(path: Path) -> object:
    """Parse ``path`` as YAML (``.yaml``/``.yml``) or TOML (``.toml``); empty YAML gives ``{}``.

    A large file parsed before (same text) comes from :mod:`.parsed_cache` instead of the parser.
    """
    where = str(path)
    suffix = Path(path).suffix.lower()
    if suffix not in (".toml", ".yaml", ".yml"):
        raise DataFileError(where, [f"unsupported file type {suffix or '(none)'!r}: expected .yaml, .yml or .toml"])
    return parse_file_text(read_text(Path(path), where), where, suffix)


def parse_file_text(text: str, where: str, suffix: str) -> object:
    """:func:`parse_data_text` for the text of a file (the user's or a shipped one), recalled from
    :mod:`.parsed_cache` when the same text was parsed before.

    Why not every text: a document pasted into the web keeper is a visitor's, not this machine's user's,
    and is not written to the user's cache folder.
    """
    known, tree = parsed_cache.recall(text, suffix)
    if known:
        return tree
    tree = parse_data_text(text, where, suffix)
    parsed_cache.keep(text, suffix, tree)
    return tree


def read_text(path: Path, where: str | None = None, limits: Limits = LIMITS) -> str:
    """A text file, refused (typed error) when missing, unreadable, not UTF-8 or too large."""
    where = where or str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limits.file_bytes + 1)
    except FileNotFoundError:
        raise DataFileError(where, ["file not found"]) from None
    except OSError as exc:
        raise DataFileError(where, [f"cannot read the file ({exc.__class__.__name__}: {exc.strerror or exc})"]) from None
    if len(raw) > limits.file_bytes:
        raise DataFileError(where, [f"larger than {limits.file_bytes:,} {noun_for(limits.file_bytes, 'byte')}"])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(where, [f"not UTF-8 text (byte {exc.start})"]) from None


def read_export(path: Path) -> object:
    """An exported battle (JSON), within :data:`~.limits.EXPORT_LIMITS`; typed errors only."""
    return _parse_json(read_text(path, limits=EXPORT_LIMITS), str(path), EXPORT_LIMITS)


def read_model(path: Path, model: type[ModelT]) -> ModelT:
    """``path`` read through the bounded loader and checked against the pydantic ``model``; every
    problem is listed at once (``sides.A.name: Field required``), as a :class:`DataFileError`."""
    from pydantic import ValidationError

    raw = read_data_file(path)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()]
        raise DataFileError(str(path), problems) from None

