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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def _load() -> dict[str, Any]:
    try:
        doc = json.loads(state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) and isinstance(doc.get("stores"), dict) else {}


def _save(doc: dict[str, Any]) -> bool:
    """Write the file atomically (a second terminal never reads half of it); False when it cannot be written."""
    import tempfile  # here: most commands never write the file, and tempfile costs a start-up its imports

    path = state_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".cli-", suffix=".json", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(doc, out, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except (OSError, ValueError):
        return False
    return True


def _store_entry(doc: dict[str, Any], url: str) -> dict[str, Any]:
    stores: dict[str, Any] = doc.setdefault("stores", {})
    entry = stores.pop(url, None)
    if not isinstance(entry, dict):
        entry = {}
    stores[url] = entry  # most recently used last
    while len(stores) > MAX_STORES:
        stores.pop(next(iter(stores)))
    return entry


def current(url: str) -> str | None:
    """The current battle of the store at ``url``, if one was set."""
    entry = _load().get("stores", {}).get(url)
    found = entry.get("current") if isinstance(entry, dict) else None
    return found if isinstance(found, str) else None


def set_current(url: str, battle: str) -> bool:
    doc = _load()
    entry = _store_entry(doc, url)
    if entry.get("current") == battle:
        return True
    entry["current"] = battle
    return _save(doc)


# -- numbered lists --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    """Where a battle stood when ``battle actions`` numbered its legal actions."""

    position: int
    head: str
    count: int
    digest: str  # of the listed actions' JSON: a number never points at another action than the one shown


def digest(actions: list[dict[str, Any]]) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(actions, sort_keys=True, default=str).encode()).hexdigest()[:32]


def remember_list(url: str, battle: str, listed: Listed) -> None:
    doc = _load()
    lists: dict[str, Any] = _store_entry(doc, url).setdefault("lists", {})
    lists.pop(battle, None)
    lists[battle] = {"position": listed.position, "head": listed.head, "count": listed.count, "digest": listed.digest}
    while len(lists) > MAX_LISTS:
        lists.pop(next(iter(lists)))
    _save(doc)


def listed(url: str, battle: str) -> Listed | None:
    """The last numbered list shown of ``battle`` in the store at ``url``."""
    entry = _load().get("stores", {}).get(url)
    found = entry.get("lists", {}).get(battle) if isinstance(entry, dict) else None
    if not isinstance(found, dict):
        return None
    try:
        return Listed(int(found["position"]), str(found["head"]), int(found["count"]), str(found["digest"]))
    except (TypeError, KeyError, ValueError):
        return None
