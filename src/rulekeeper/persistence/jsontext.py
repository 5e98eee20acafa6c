"""The JSON columns' text: encoded once and strictly, read back with a typed error for damage.

Split from :mod:`.location` (which re-exports it) so that the SQLAlchemy-free read path of
``battle show`` (:mod:`.sqlite_reads`) reads JSON columns exactly as the engines do.
"""

from __future__ import annotations

import json
from functools import partial

from .errors import DamagedStoreError

#: Strict JSON: NaN/Infinity are not JSON and PostgreSQL's json type rejects them.
_strict_dumps = partial(json.dumps, allow_nan=False, ensure_ascii=False, separators=(",", ":"))


class Encoded:
    """A document already encoded (by :func:`encode`, which also checked it): a JSON column
    stores its text as is instead of encoding the document a second time."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def encode(value: object) -> Encoded:
    """Encode once, strictly (raises ``ValueError``/``TypeError`` for what JSON cannot hold)."""
    return Encoded(_strict_dumps(value))


def json_dumps(value: object) -> str:
    """The engines' JSON serializer: strict, and an :class:`Encoded` document is kept as it is."""
    return value.text if type(value) is Encoded else _strict_dumps(value)


def json_loads(text: str | bytes) -> object:
    """The engines' JSON reader: a column that is not JSON (edited by hand, corrupted) is a
    :class:`~.errors.DamagedStoreError` naming the problem, never a ``JSONDecodeError``. Any JSON value: its
    reader checks it is what the column holds (:func:`.records.stored_object`, :func:`.records.checked_entry`)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DamagedStoreError(
            f"the database holds a value that is not valid JSON ({str(exc)[:200]}); it was changed outside "
            "rulekeeper — restore a backup or import the battle from an export"
        ) from None
