"""The command line's memory between two commands: the current battle of each store, and the numbered lists.

``rulekeeper battle use ID`` (and every battle created or played) makes a battle *current* in its store, so
the next command may omit its id; ``battle actions`` remembers where the battle stood when it numbered its
lines, so that ``battle act N`` plays line N of *that* list or is refused when the battle moved since.

Why a small file and not the database: the current battle is the player's, not the battle's (two players of
one shared store each have their own), and nothing of it may leak into the battle's data, its export or its
hash chain. The file is ``cli.json`` in the user state directory (``~/.local/state/rulekeeper`` on Linux;
``RULEKEEPER_STATE_DIR`` overrides it), keyed by the store's URL. It is a convenience: a file that cannot be
read is treated as empty and one that cannot be written is skipped (only ``battle use`` says so).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulekeeper.core.game import LegalAction

#: Environment variable naming the folder of the state file (tests, portable installs).
ENV_VAR = "RULEKEEPER_STATE_DIR"
FILENAME = "cli.json"
#: Stores remembered (the least recently used is forgotten first) and numbered lists per store.
MAX_STORES = 64
MAX_LISTS = 16


def state_file() -> Path:
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser() / FILENAME
    import platformdirs

    return Path(platformdirs.user_state_dir("rulekeeper")) / FILENAME


@dataclass(frozen=True)
class Listed:
    """Where a battle stood when ``battle actions`` numbered its legal actions."""

    position: int
    head: str
    count: int
    digest: str  # of the listed actions' JSON: a number never points at another action than the one shown


@dataclass
class StoreMemory:
    """What the command line remembers of one store: its current battle and the last numbered list of each
    battle (the least recently shown first)."""

    current: str | None = None
    lists: dict[str, Listed] = field(default_factory=dict)


#: The file's content: each store's memory by the store's URL, the least recently used first.
Memory = dict[str, StoreMemory]


def _load() -> Memory:
    """The file as the command line's memory; what cannot be read (a damaged file, a store's entry or a list
    of the wrong shape) is left out, as if it had never been written."""
    try:
        doc = json.loads(state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    stores = doc.get("stores") if isinstance(doc, dict) else None
    if not isinstance(stores, dict):
        return {}
    memory: Memory = {}
    for url, entry in stores.items():
        if not isinstance(entry, dict):
            continue
        found = entry.get("current")
        lists = entry.get("lists")
        memory[url] = StoreMemory(found if isinstance(found, str) else None, {
            battle: shown for battle, item in (lists.items() if isinstance(lists, dict) else ())
            if (shown := _listed(item)) is not None})
    return memory


def _listed(item: object) -> Listed | None:
    if not isinstance(item, dict):
        return None
    try:
        return Listed(int(item["position"]), str(item["head"]), int(item["count"]), str(item["digest"]))
    except (TypeError, KeyError, ValueError):
        return None


def _save(memory: Memory) -> bool:
    """Write the file atomically (a second terminal never reads half of it); False when it cannot be written."""
    import tempfile  # here: most commands never write the file, and tempfile costs a start-up its imports

    stores = {url: {**({"current": m.current} if m.current is not None else {}), "lists": {
        battle: {"position": shown.position, "head": shown.head, "count": shown.count, "digest": shown.digest}
        for battle, shown in m.lists.items()}} for url, m in memory.items()}
    path = state_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".cli-", suffix=".json", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"stores": stores}, out, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except (OSError, ValueError):
        return False
    return True


def _store_entry(memory: Memory, url: str) -> StoreMemory:
    """The memory of the store at ``url``, made the most recently used (the least recent forgotten past
    :data:`MAX_STORES`)."""
    entry = memory.pop(url, None) or StoreMemory()
    memory[url] = entry  # most recently used last
    while len(memory) > MAX_STORES:
        memory.pop(next(iter(memory)))
    return entry


def current(url: str) -> str | None:
    """The current battle of the store at ``url``, if one was set."""
    entry = _load().get(url)
    return None if entry is None else entry.current


def set_current(url: str, battle: str) -> bool:
    memory = _load()
    entry = _store_entry(memory, url)
    if entry.current == battle:
        return True
    entry.current = battle
    return _save(memory)


# -- numbered lists --------------------------------------------------------------------------------------


def digest(legal: Sequence[LegalAction]) -> str:
    """A digest of the listed actions' JSON (a number never points at another action than the one shown)."""
    import hashlib

    return hashlib.sha256(json.dumps([lg.action for lg in legal], sort_keys=True,
                                     default=str).encode()).hexdigest()[:32]


def remember_list(url: str, battle: str, listed: Listed) -> None:
    memory = _load()
    lists = _store_entry(memory, url).lists
    lists.pop(battle, None)
    lists[battle] = listed
    while len(lists) > MAX_LISTS:
        lists.pop(next(iter(lists)))
    _save(memory)


def listed(url: str, battle: str) -> Listed | None:
    """The last numbered list shown of ``battle`` in the store at ``url``."""
    entry = _load().get(url)
    return None if entry is None else entry.lists.get(battle)
