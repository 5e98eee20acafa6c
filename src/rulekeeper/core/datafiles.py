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
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml

from .errors import DataFileError
from .limits import EXPORT_LIMITS, LIMITS, Limits

if TYPE_CHECKING:
    from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound="BaseModel")

if TYPE_CHECKING:
    _FastSafeLoader = yaml.SafeLoader
else:  # libyaml's C parser parses ~8× faster; PyYAML built without libyaml lacks it
    _FastSafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Whether :class:`StrictLoader` runs on libyaml's C parser.
C_LOADER = _FastSafeLoader is not yaml.SafeLoader


class StrictLoader(_FastSafeLoader):
    """A safe YAML loader that refuses duplicate keys (libyaml's C parser when available).

    The C parser reports the same line and column as the pure-Python one; only the wording
    of some syntax errors differs.
    """


class PureStrictLoader(yaml.SafeLoader):
    """:class:`StrictLoader` on the pure-Python parser, to check both give the same data."""


def _no_duplicates(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:  # `? [a, b]: 1`: a YAML error (a TypeError escaped every caller of load_yaml)
            raise yaml.constructor.ConstructorError(
                None, None, f"found a key that cannot be a key ({type(key).__name__})", key_node.start_mark) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"found duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)
PureStrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def load_yaml(text: str, loader: type[yaml.SafeLoader] = StrictLoader) -> Any:
    """Parse YAML ``text`` with duplicate keys refused; ``yaml.YAMLError`` on any problem.

    The events are scanned first (:func:`_scan_yaml`): depth, expanded size (an alias
    counts as everything it stands for) and integer lengths are bounded before anything
    is built.
    """
    _scan_yaml(text)
    return yaml.load(text, Loader=loader)  # noqa: S506 - both loaders are safe loaders


class LimitError(yaml.YAMLError):
    """A document beyond :data:`~.limits.LIMITS` (its message says which limit, and its value)."""

    def __init__(self, problem: str, mark: Any = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _scan_yaml(text: str) -> None:
    """Refuse a YAML document too deep, too large once its aliases are expanded, or with a
    number too long, from its parse events alone (libyaml's fast parser, nothing built)."""
    parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    sizes: dict[str, int] = {}
    stack: list[list[Any]] = [[0, None]]
    total = 0
    for event in yaml.parse(text, Loader=parser):
        grown = 0
        if isinstance(event, _OPEN):
            if len(stack) > LIMITS.depth:
                raise LimitError(f"nested deeper than {LIMITS.depth} levels", event.start_mark)
            stack.append([1, event.anchor])
            continue
        if isinstance(event, _CLOSE):
            size, anchor = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
            stack[-1][0] += size
            continue
        if isinstance(event, yaml.ScalarEvent):
            _check_scalar(event)
            grown = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            grown = sizes.get(event.anchor or "", 1)
        stack[-1][0] += grown
        total += grown
        if total > LIMITS.nodes:
            raise LimitError(f"more than {LIMITS.nodes:,} values once its aliases are expanded", event.start_mark)


#: Control characters a text may not hold (all of C0 and C1 but tab, newline and carriage return):
#: an ESC in a unit's name would otherwise reach the player's terminal as a colour, a cleared
#: screen or a new window title when ``muster check`` prints it.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """The first control character of ``text`` as ``U+001B``, or ``None`` when it has none."""
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def _check_scalar(event: yaml.ScalarEvent) -> None:
    value = event.value
    if len(value) > LIMITS.text:
        raise LimitError(f"a text longer than {LIMITS.text:,} characters", event.start_mark)
    control = control_character(value)
    if control is not None:
        raise LimitError(f"a text holding the control character {control}", event.start_mark)
    digits = value.lstrip("+-").replace("_", "")
    if event.implicit[0] and len(digits) > LIMITS.digits and digits.isdigit():  # a plain integer
        raise LimitError(f"a number longer than {LIMITS.digits} digits", event.start_mark)


def check_tree(data: Any, where: str, limits: Limits = LIMITS) -> Any:
    """Refuse parsed data deeper, larger or with longer numbers or texts than ``limits``
    (for TOML and JSON, whose parsers have no such limits of their own)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    count = 0
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > limits.nodes:
            raise DataFileError(where, [f"more than {limits.nodes:,} values"])
        if isinstance(item, dict):
            if depth >= limits.depth:
                raise DataFileError(where, [f"nested deeper than {limits.depth} levels"])
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            if depth >= limits.depth:
                raise DataFileError(where, [f"nested deeper than {limits.depth} levels"])
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**limits.digits:
            raise DataFileError(where, [f"a number longer than {limits.digits} digits"])
        elif isinstance(item, str) and len(item) > limits.text:
            raise DataFileError(where, [f"a text longer than {limits.text:,} characters"])
        elif isinstance(item, str) and (control := control_character(item)) is not None:
            raise DataFileError(where, [f"a text holding the control character {control}: {item[:40]!r}"])
    return data


def parse_data_text(text: str, where: str, suffix: str) -> Any:
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
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return ".yaml"
    return ".toml"


def _parse_toml(text: str, where: str) -> Any:
    try:
        return check_tree(tomllib.loads(text), where)
    except DataFileError:  # check_tree's own refusal (a ValueError too): already names where
        raise
    except tomllib.TOMLDecodeError as exc:  # its message ends "(at line L, column C)"
        raise DataFileError(where, [f"TOML syntax error: {exc}"]) from None
    except (RecursionError, ValueError) as exc:  # deep nesting, a number Python will not convert
        raise DataFileError(where, [f"TOML the reader refuses ({type(exc).__name__}: {str(exc)[:200]})"]) from None


def _parse_json(text: str, where: str, limits: Limits = LIMITS) -> Any:
    import json

    try:
        return check_tree(json.loads(text), where, limits)
    except DataFileError:
        raise
    except json.JSONDecodeError as exc:
        raise DataFileError(where, [f"not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"]) from None
    except (RecursionError, ValueError) as exc:
        raise DataFileError(where, [f"JSON the reader refuses ({type(exc).__name__}: {str(exc)[:200]})"]) from None


def _parse_yaml(text: str, where: str) -> Any:
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


def read_data_file(path: Path) -> Any:
    """Parse ``path`` as YAML (``.yaml``/``.yml``) or TOML (``.toml``); empty YAML gives ``{}``."""
    where = str(path)
    suffix = Path(path).suffix.lower()
    if suffix not in (".toml", ".yaml", ".yml"):
        raise DataFileError(where, [f"unsupported file type {suffix or '(none)'!r}: expected .yaml, .yml or .toml"])
    return parse_data_text(read_text(Path(path), where), where, suffix)


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
        raise DataFileError(where, [f"larger than {limits.file_bytes:,} bytes"])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(where, [f"not UTF-8 text (byte {exc.start})"]) from None


def read_export(path: Path) -> Any:
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
