"""What the games' own top-level commands are called, remembered between runs for ``--help``.

Listing the root's commands used to import every rule system (about a second) only to print
``muster``, ``campaign-map`` and the like. After one run that loaded them all, their names and
one-line help are kept in the user's cache folder with a fingerprint of the installed rule
systems (each entry point and the newest modification time of its package's files); a later
``--help`` with the same fingerprint lists them without importing any game. Anything stale or
unreadable simply means loading the games again: the manifest is never trusted over the code.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path

from rulekeeper.core.ruleset import ENTRY_POINT_GROUP

CACHE_ENV = "RULEKEEPER_CACHE_DIR"


@dataclass(frozen=True)
class Listed:
    """A game's top-level command as ``--help`` lists it."""

    name: str
    help: str


def cache_file() -> Path:
    folder = os.environ.get(CACHE_ENV)
    if not folder:
        import platformdirs

        folder = platformdirs.user_cache_dir("rulekeeper")
    return Path(folder) / "cli-commands.json"


def _newest(folder: Path) -> int:
    return max((p.stat().st_mtime_ns for p in folder.rglob("*.py")), default=0)


def _folder_of(module: str) -> Path | None:
    """The folder of ``module``'s files, found from its top-level package alone: importing the module (or
    its parent packages, whose ``__init__`` may load a whole rule system) is what this avoids."""
    top, *rest = module.split(".")
    try:
        spec = find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return Path(spec.origin).parent if spec is not None and spec.origin else None
    here = Path(list(spec.submodule_search_locations)[0]).joinpath(*rest)
    return here if here.is_dir() else here.parent


def fingerprint() -> str:
    """Each installed rule system's entry point with its package's newest file time (no import of it)."""
    parts: list[str] = []
    newest: dict[Path, int] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        folder = _folder_of(ep.value.split(":", 1)[0])
        if folder is not None and folder not in newest:
            newest[folder] = _newest(folder)
        parts.append(f"{ep.name}={ep.value}@{newest.get(folder, 0) if folder else 0}")
    return "|".join(parts)


def read() -> list[Listed] | None:
    """The remembered commands, or None when there are none for the rule systems installed now."""
    try:
        data = json.loads(cache_file().read_text(encoding="utf-8"))
        if data.get("fingerprint") != fingerprint():
            return None
        return [Listed(str(c["name"]), str(c["help"])) for c in data["commands"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write(listed: list[Listed]) -> None:
    """Remember ``listed`` for the rule systems installed now (silently skipped if the cache is not writable)."""
    try:
        path = cache_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        body = {"fingerprint": fingerprint(), "commands": [{"name": c.name, "help": c.help} for c in listed]}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(body), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
