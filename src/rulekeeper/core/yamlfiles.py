"""The bounded, strict YAML reader behind :mod:`.datafiles` (PyYAML, libyaml's parser when present).

Kept apart so that PyYAML is imported only when a YAML text is really parsed: the shipped data
files are usually recalled from :mod:`.parsed_cache` instead.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any

import yaml

from .datafiles import control_character
from .limits import LIMITS

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


def _no_duplicates(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, object]:
    seen: set[object] = set()
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


def load_yaml(text: str, loader: type[yaml.SafeLoader] = StrictLoader) -> object:
    """Parse YAML ``text`` with duplicate keys refused; ``yaml.YAMLError`` on any problem.

    The events are scanned first (:func:`_scan_yaml`): depth, expanded size (an alias
    counts as everything it stands for) and integer lengths are bounded before anything
    is built.
    """
    _scan_yaml(text)
    return yaml.load(text, Loader=loader)  # noqa: S506 - both loaders are safe loaders


class LimitError(yaml.YAMLError):
    """A document beyond :data:`~.limits.LIMITS` (its message says which limit, and its value)."""

    def __init__(self, problem: str, mark: object = None) -> None:  # where (a yaml Mark), read by getattr
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_SCALAR, _ALIAS = yaml.ScalarEvent, yaml.AliasEvent


def _scan_yaml(text: str) -> None:
    """Refuse a YAML document too deep, too large once its aliases are expanded, or with a
    number too long, from its parse events alone (libyaml's fast parser, nothing built).

    Why a scalar is usually checked by its length alone: a value can hold a control character
    only if the text does, or through a backslash escape, so a text with neither needs no search
    of each value; and a number or text over its limit is longer than :attr:`~.limits.Limits.digits`.
    That keeps the scan of a 250,000-entry file to about a microsecond per value.
    """
    parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    search_each = "\\" in text or control_character(text) is not None
    short = LIMITS.digits
    sizes: dict[str, int] = {}
    stack: list[list[Any]] = [[0, None]]
    total = 0
    events: Iterator[Any] = yaml.parse(text, Loader=parser)  # compared by exact type below, not narrowed
    for event in events:
        kind = type(event)
        if kind is _SCALAR:
            if search_each or len(event.value) > short:
                _check_scalar(event)
            grown = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif kind in _OPEN:
            if len(stack) > LIMITS.depth:
                raise LimitError(f"nested deeper than {LIMITS.depth} levels", event.start_mark)
            stack.append([1, event.anchor])
            continue
        elif kind in _CLOSE:
            size, anchor = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
            stack[-1][0] += size
            continue
        elif kind is _ALIAS:
            grown = sizes.get(event.anchor or "", 1)
        else:  # stream and document starts and ends
            continue
        stack[-1][0] += grown
        total += grown
        if total > LIMITS.nodes:
            raise LimitError(f"more than {LIMITS.nodes:,} values once its aliases are expanded", event.start_mark)


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
