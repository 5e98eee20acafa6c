"""The hash chain over a battle's log: any edit of a stored or exported battle is detected.

Why: replaying a log recomputes every result and proves it, but some facts are not
recomputed — when an action was played, whether its result was shown (which decides
whether it may be undone), the battle's title, seed and set-up.  Each is sealed here:

* the battle's **genesis** is the SHA-256 of its set-up: ruleset, scenario, seed, title,
  meta, created time and initial document;
* each log entry's **link** is the SHA-256 of the previous link (the genesis for the
  first entry) and the entry: action, result, created time and the ``shown`` flag;
* the last link is the battle's **fingerprint** (``battle show``, the web keeper's log):
  two players who noted it can tell at once that a copy is the battle they played.

Every value is hashed as canonical JSON (sorted keys, no spaces, UTF-8), so an export
read back and written again by any JSON library gives the same links.  The chain has no
secret: it catches any edit made without recomputing it (a hand-edited export, a row
changed in the database), and the fingerprint catches the rest — a forger who rewrote
the chain has a different fingerprint from the one the players saw.

What is not sealed, on purpose: the battle's id (``import --new-id`` gives a copy a new
one) and ``updated``/``revision`` (when and how often this copy changed).  Status, turn
and position are recomputed from the log on import and must agree.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: Written at the start of every genesis: another use of SHA-256 cannot collide with ours.
LABEL = b"rulekeeper-battle-chain/1\n"

#: The battle fields the genesis seals (with the initial document).
GENESIS_FIELDS = ("ruleset", "scenario", "seed", "title", "meta", "created")


def canonical(value: object) -> bytes:
    """The one byte string a JSON value hashes as (sorted keys, no whitespace, UTF-8)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def genesis(battle: Mapping[str, object], initial: object) -> str:
    """The genesis of a battle from its record fields (:data:`GENESIS_FIELDS`) and initial document.

    The fields are sealed as the JSON they are (only the seed is read: a whole number, any size)."""
    sealed = {name: battle[name] for name in GENESIS_FIELDS}
    seed = sealed["seed"]
    if not isinstance(seed, (int, str, float)):
        raise TypeError(f"a battle's seed is a whole number, not {type(seed).__name__}")
    sealed["seed"] = str(int(seed))  # any size, the same in JSON and in the database
    return hashlib.sha256(LABEL + canonical({"battle": sealed, "initial": initial})).hexdigest()


def sealed_bytes(action: object, result: object, created: str, shown: bool) -> bytes:
    """What a link seals of one entry (computed before the write lock is taken)."""
    return canonical({"action": action, "result": result, "created": created, "shown": bool(shown)})


def link_bytes(previous: str, entry: bytes) -> str:
    """The link after ``previous`` of an entry given as :func:`sealed_bytes`."""
    return hashlib.sha256(previous.encode() + b"\n" + entry).hexdigest()


def link(previous: str, action: object, result: object, created: str, shown: bool) -> str:
    """The link of one log entry after ``previous`` (the link before it, or the genesis)."""
    return link_bytes(previous, sealed_bytes(action, result, created, shown))


@dataclass(frozen=True)
class Sealed:
    """One log entry as the chain sees it."""

    action: object  # the logged JSON, hashed as it is
    result: object
    created: str
    shown: bool


def links(start: str, entries: Iterable[Sealed]) -> list[str]:
    """The links of ``entries`` in order, the first one chained to ``start``."""
    out: list[str] = []
    previous = start
    for entry in entries:
        previous = link(previous, entry.action, entry.result, entry.created, entry.shown)
        out.append(previous)
    return out


def first_break(start: str, entries: Iterable[Sealed], recorded: Iterable[str | None]) -> int | None:
    """The index of the first entry whose recorded link is not the one computed (``None``: intact)."""
    for index, (computed, found) in enumerate(zip(links(start, entries), recorded, strict=True)):
        if computed != found:
            return index
    return None


def fingerprint(head: str) -> str:
    """The short form players compare: the first 16 hex digits, in groups of four."""
    return "-".join(head[i:i + 4] for i in range(0, 16, 4))
