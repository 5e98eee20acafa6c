"""The checks every value the stores write goes through: plain JSON, integers, bounded texts.

Why here, once: a JSON column must give back exactly what went in, so NaN, objects and
non-string keys (which JSON would silently turn into strings) are refused with the path of
the first bad value; texts are bounded and free of NUL (SQLite would keep it, PostgreSQL
refuse it: the same input gets the same answer on both). A document is encoded once, here,
and the engines store that text as it is (:class:`~.location.Encoded`).
"""

from __future__ import annotations

import json
from typing import Any

from rulekeeper.core.wording import counted

from .location import Encoded, encode
from .schema import find_non_json
from .sqlstore import StoreError

#: The longest title, scenario or ruleset name stored (a 10 MB name used to be accepted).
MAX_TEXT = 1_000


def check_json(name: str, value: object) -> dict[str, Any]:
    """Refuse anything that would not come back from a JSON column as it went in."""
    if not isinstance(value, dict):
        raise StoreError(f"{name} must be a JSON object (a dict), got {type(value).__name__}", field=name)
    try:
        json.dumps(value, allow_nan=False, check_circular=False)  # the common case, mostly in C
        if plain_keys(value):
            return value
    except (TypeError, ValueError, RecursionError):
        pass
    hit = find_non_json(value, name)  # the slow walk names the first bad value
    if hit is not None:
        raise StoreError(f"{name} is not plain JSON: {hit[0]}: {hit[1]}", field=hit[0])
    return value


def encoded(name: str, value: object, *, made_by_game: bool = False) -> Encoded:
    """``value`` checked (as :func:`check_json`) and encoded once, for a JSON column.

    ``made_by_game``: a result or checkpoint the game's code produces on every action; replay
    compares it as JSON text with a fresh one, so its keys are not walked here (the C encoder
    still refuses NaN and objects).
    """
    if isinstance(value, dict):
        try:
            text = encode(value)
        except (TypeError, ValueError, RecursionError):
            pass
        else:
            if made_by_game or plain_keys(value):
                return text
    return encode(check_json(name, value))


def plain_keys(value: object) -> bool:
    """Every key of every nested object is a string (a walk over containers only, not every number)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            if not all(type(k) is str for k in item):
                return False
            stack.extend(v for v in item.values() if type(v) in (dict, list, tuple))
        elif isinstance(item, (list, tuple, dict)):  # (a dict subclass given at the top: its keys, as ever)
            stack.extend(v for v in item if type(v) in (dict, list, tuple))
    return True


def check_int(name: str, value: object, *, minimum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise StoreError(f"{name} must be an integer, got {value!r}", field=name)
    if minimum is not None and value < minimum:
        raise StoreError(f"{name} must be >= {minimum}, got {value}", field=name)
    return value


def check_text(name: str, value: object, *, max_length: int | None = MAX_TEXT, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value):
        raise StoreError(f"{name} must be a non-empty string, got {str(value)[:80]!r}", field=name)
    if max_length is not None and len(value) > max_length:
        raise StoreError(f"{name} is longer than {counted(max_length, 'character')}", field=name)
    if "\x00" in value:  # SQLite would keep it and PostgreSQL refuse it: the same answer on both
        raise StoreError(f"{name} contains a NUL character", field=name)
    return value
