"""Reading YAML and TOML data files with errors that name the file and the line.

Every data file of every ruleset (unit profiles, actions, scenarios, musters) goes
through :func:`read_data_file`, so all of them refuse duplicate keys (a silently lost
unit or stat) and report syntax errors the same way.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .errors import DataFileError

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
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"found duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)
PureStrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def load_yaml(text: str, loader: type[yaml.SafeLoader] = StrictLoader) -> Any:
    """Parse YAML ``text`` with duplicate keys refused; ``yaml.YAMLError`` on any problem."""
    return yaml.load(text, Loader=loader)  # noqa: S506 - both loaders are safe loaders


def read_data_file(path: Path) -> Any:
    """Parse ``path`` as YAML (``.yaml``/``.yml``) or TOML (``.toml``); empty YAML gives ``{}``."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(where, ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(where, [f"cannot read the file ({exc.__class__.__name__}: {exc})"]) from None
    suffix = Path(path).suffix.lower()
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:  # its message ends "(at line L, column C)"
            raise DataFileError(where, [f"TOML syntax error: {exc}"]) from None
    if suffix in (".yaml", ".yml"):
        try:
            data = load_yaml(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            what = "YAML error" if isinstance(exc, yaml.constructor.ConstructorError) else "YAML syntax error"
            raise DataFileError(where, [f"{what}{at}: {problem}"]) from None
        return {} if data is None else data
    raise DataFileError(where, [f"unsupported file type {suffix or '(none)'!r}: expected .yaml, .yml or .toml"])
