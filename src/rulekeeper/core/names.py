"""Names that display as what they are: no bidirectional controls, no look-alike twins.

Why: a right-to-left override (U+202E) and look-alike letters (a Cyrillic "а" for a Latin
"a") gave three units of one army that all displayed as "Bank Archers", and U+202E reached
ten pages and battle titles.  :func:`check_names` refuses, in a battle's initial document,
any text holding a bidirectional control, and two units of one list whose names fold to the
same text (NFKC, case folded, the common Cyrillic and Greek look-alikes mapped to Latin).
The pages isolate every name as well (``<bdi>``); this keeps the data honest for every
other reader (the CLI, exports).
"""

from __future__ import annotations

import unicodedata

from .errors import RulekeeperError

#: Bidirectional embedding, override and isolate controls, and the invisible direction marks.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")

#: Letters that look like Latin ones in common fonts (Cyrillic and Greek), folded to them.
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ӏ": "l", "ԛ": "q", "ԝ": "w",
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ϲ": "c",
})


class NameError_(RulekeeperError):
    """A name that would display as something else (a direction control, a look-alike twin)."""

    code = "bad_name"


def folded(name: str) -> str:
    """``name`` as it looks: compatibility-normalised, case-folded, look-alikes mapped to Latin."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_CONFUSABLE)
    return " ".join(text.split())


def check_text(value: str, where: str) -> None:
    bad = next((ch for ch in value if ch in BIDI_CONTROLS), None)
    if bad is not None:
        raise NameError_(f"{where}: {value[:80]!r} holds the direction control U+{ord(bad):04X}, which would make "
                         "it display as something else; remove it", field=where)


def check_names(document: object, where: str, unit_lists: tuple[str, ...] = ("units", "fighters", "men")) -> None:
    """Refuse direction controls anywhere in ``document`` and look-alike names within one unit list."""
    stack: list[tuple[object, str, int]] = [(document, where, 0)]
    while stack:
        node, path, depth = stack.pop()
        if depth > 64:
            continue
        if isinstance(node, str):
            check_text(node, path)
        elif isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str):
                    check_text(key, path)
                if key in unit_lists and isinstance(value, list):
                    _no_twins(value, f"{path}.{key}")
                stack.append((value, f"{path}.{key}", depth + 1))
        elif isinstance(node, list):
            stack.extend((value, f"{path}[{i}]", depth + 1) for i, value in enumerate(node))


def _no_twins(units: list[object], where: str) -> None:
    seen: dict[str, str] = {}
    for entry in units:
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            continue
        key = folded(name)
        if key in seen and seen[key] != name:
            raise NameError_(f"{where}: {name!r} and {seen[key]!r} look the same on screen; give one of them "
                             "another name", field=where)
        seen.setdefault(key, name)
