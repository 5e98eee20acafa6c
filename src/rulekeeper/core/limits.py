"""The limits every document rulekeeper reads is held to (files, pasted text, imports).

They bound time and memory for hostile input; each is far above what a real file needs
(the shipped ``units.yaml`` is 96 kB, about 12,000 values, 6 levels deep). Documented in
``docs/limits.md``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    file_bytes: int = 8 * 1024 * 1024  # a data file or an exported battle, read in full
    nodes: int = 500_000  # values in one document, an alias counting as all it stands for
    depth: int = 64  # nesting of mappings and lists
    digits: int = 40  # digits of one integer (a PCG64 state is 39 digits)
    text: int = 100_000  # characters of one text value
    message: int = 2_000  # characters of one error message


LIMITS = Limits()
#: An exported battle: a long battle's log is large (about 15 kB and 400 values per Ex illis action).
EXPORT_LIMITS = Limits(file_bytes=32 * 1024 * 1024, nodes=5_000_000)
